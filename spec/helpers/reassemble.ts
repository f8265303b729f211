/**
 * A small, test-only reducer over {@link StreamEvent}s: concatenated text and reasoning, the last
 * finish, and tool calls grouped by (choice, index) with `replace: true` replacing. Not the
 * library's accumulator (identity resolution proper lives there).
 */
import type { FinishEvent, ProviderMetadata, StreamEvent } from 'rxjs-tool-calls';

export interface ReassembledCall {
  choice: number;
  index: number | undefined;
  id: string | undefined;
  name: string | undefined;
  rawArguments: string;
  metadata: Record<string, unknown>;
  ended: boolean;
  incomplete: boolean;
}

export interface Reassembled {
  text: string;
  reasoning: string;
  signatures: string[];
  finish: FinishEvent | undefined;
  done: boolean;
  calls: ReassembledCall[];
}

export function reassemble(events: readonly StreamEvent[]): Reassembled {
  const out: Reassembled = { text: '', reasoning: '', signatures: [], finish: undefined, done: false, calls: [] };
  const byKey = new Map<string, ReassembledCall>();
  const merge = (call: ReassembledCall, metadata: ProviderMetadata | undefined) => {
    for (const [key, value] of Object.entries(metadata ?? {})) if (!(key in call.metadata)) call.metadata[key] = value;
  };
  for (const event of events) {
    switch (event.type) {
      case 'text-delta':
        out.text += event.text;
        break;
      case 'reasoning-delta':
        out.reasoning += event.text;
        if (event.signature !== undefined) out.signatures.push(event.signature);
        break;
      case 'tool-call-delta': {
        const key = `${event.choice}:${event.index ?? `last`}`;
        let call = byKey.get(key) ?? (event.index === undefined ? out.calls.filter((c) => c.choice === event.choice).at(-1) : undefined);
        if (call === undefined) {
          call = { choice: event.choice, index: event.index, id: undefined, name: undefined, rawArguments: '', metadata: {}, ended: false, incomplete: false };
          byKey.set(key, call);
          out.calls.push(call);
        }
        if (event.id) call.id ??= event.id;
        if (event.name) call.name ??= event.name;
        call.rawArguments = event.replace ? event.argumentsDelta : call.rawArguments + event.argumentsDelta;
        merge(call, event.metadata);
        break;
      }
      case 'tool-call-end': {
        const call = byKey.get(`${event.choice}:${event.index ?? 'last'}`) ?? out.calls.filter((c) => c.choice === event.choice).at(-1);
        if (call !== undefined) {
          call.ended = true;
          call.incomplete = event.incomplete === true;
        }
        break;
      }
      case 'finish':
        out.finish = event;
        break;
      case 'done':
        out.done = true;
        break;
      default:
        break;
    }
  }
  return out;
}

/** The parsed arguments of a call: `{}` for empty text, `null` when not valid JSON. */
export function parsedArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
