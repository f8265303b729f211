/**
 * Hostile input for the mutation tests: malformed payloads per wire format, event-level
 * mutations of real streams, and the check that a run ended in typed values only.
 */
import fc from 'fast-check';
import { config } from 'rxjs';
import { ERROR_CODES, isToolStreamError } from 'rxjs-tool-calls';
import type { RunOutcome } from './runStream';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Payloads of the wrong shape for each format (the `event:` name first, `''` for none). */
export const WRONG_SHAPES: ReadonlyArray<readonly [string, string]> = [
  ['', '[]'],
  ['', 'null'],
  ['', '"x"'],
  ['', '5'],
  ['', '{ "choices": 5 }'],
  ['', '{"choices":[5,null,{"delta":5},{"index":"x","finish_reason":5}]}'],
  ['', '{"choices":[{"delta":{"tool_calls":[5, null, {"index":"x"}]}}]}'],
  ['', '{"choices":[{"delta":{"tool_calls":[{"index":0,"id":5,"function":{"name":{},"arguments":[1]}}],"function_call":5,"content":7}}]}'],
  ['', '{"choices":[{"delta":{"tool_calls":{"index":0}}}],"usage":5,"error":5}'],
  ['', '{"choices":[],"error":{"message":{}}}'],
  ['message_start', '{"type":"message_start","message":null}'],
  ['content_block_start', '{"type":"content_block_start","index":"x","content_block":null}'],
  ['content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":5,"name":[],"input":"x"}}'],
  ['content_block_delta', '{"type":"content_block_delta","index":0,"delta":null}'],
  ['content_block_delta', '{"type":"content_block_delta","index":9,"delta":{"type":"input_json_delta","partial_json":5}}'],
  ['content_block_stop', '{"type":"content_block_stop","index":{}}'],
  ['message_delta', '{"type":"message_delta","delta":5,"usage":"x"}'],
  ['error', '{"type":"error","error":null}'],
  ['response.output_item.added', '{"type":"response.output_item.added","output_index":"x","item":null}'],
  ['response.output_item.added', '{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":5,"name":null,"arguments":{}}}'],
  ['response.function_call_arguments.delta', '{"type":"response.function_call_arguments.delta","output_index":0,"delta":5}'],
  ['response.function_call_arguments.done', '{"type":"response.function_call_arguments.done","output_index":7,"arguments":null}'],
  ['response.output_item.done', '{"type":"response.output_item.done","item":{"type":"function_call","call_id":[],"name":{},"arguments":{}}}'],
  ['response.completed', '{"type":"response.completed","response":null}'],
  ['response.failed', '{"type":"response.failed","response":5}'],
  ['', '{"candidates":5}'],
  ['', '{"candidates":[null,5,{"content":5,"index":"x"}]}'],
  ['', '{"candidates":[{"content":{"parts":[null,5,{"functionCall":5},{"functionCall":{"name":5,"args":"x"}}]}}]}'],
  ['', '{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","partialArgs":[5,null,{"jsonPath":5},{"jsonPath":"$.a","stringValue":7}],"willContinue":"x"}}]}}]}'],
  ['', '{"candidates":[{"finishReason":5,"content":{"parts":5}}],"usageMetadata":5}'],
  ['tool-call-start', '{"type":"tool-call-start","index":"x","delta":null}'],
  ['tool-call-start', '{"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":5,"function":{"name":[],"arguments":{}}}}}}'],
  ['tool-call-delta', '{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":5}}}'],
  ['tool-call-end', '{"type":"tool-call-end","index":[]}'],
  ['message-end', '{"type":"message-end","delta":5}'],
  ['message-start', '{"type":"message-start","delta":{"message":5}}'],
];

/** One SSE event as wire text. */
export function sseText(event: string, data: string): string {
  return `${event === '' ? '' : `event: ${event}\n`}${data
    .split('\n')
    .map((l) => `data: ${l}`)
    .join('\n')}\n\n`;
}

/** A stream's events as separate blocks of wire text (split at blank lines, framing kept). */
export function eventBlocks(bytes: Uint8Array): string[] {
  return dec.decode(bytes).split(/(?<=\r?\n\r?\n)/);
}

export type Mutation =
  | { readonly kind: 'drop' | 'duplicate'; readonly at: number }
  | { readonly kind: 'swap'; readonly at: number; readonly with: number }
  | { readonly kind: 'inject'; readonly at: number; readonly shape: number }
  | { readonly kind: 'flip'; readonly at: number; readonly bit: number }
  | { readonly kind: 'bytes'; readonly at: number; readonly bytes: Uint8Array };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('drop' as const, 'duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('inject' as const), at: fc.nat(), shape: fc.nat({ max: WRONG_SHAPES.length - 1 }) }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({ kind: fc.constant('bytes' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 24 }) }),
);

function concat(parts: ReadonlyArray<Uint8Array>): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Apply event-level mutations (drop, duplicate, swap, inject) then byte-level ones (flip, bytes). */
export function mutate(bytes: Uint8Array, mutations: ReadonlyArray<Mutation>): Uint8Array {
  const blocks = eventBlocks(bytes);
  for (const m of mutations) {
    if (blocks.length === 0) break;
    const i = m.at % blocks.length;
    if (m.kind === 'drop') blocks.splice(i, 1);
    else if (m.kind === 'duplicate') blocks.splice(i, 0, blocks[i]!);
    else if (m.kind === 'swap') {
      const j = m.with % blocks.length;
      [blocks[i], blocks[j]] = [blocks[j]!, blocks[i]!];
    } else if (m.kind === 'inject') {
      const [event, data] = WRONG_SHAPES[m.shape]!;
      blocks.splice(i, 0, sseText(event, data));
    }
  }
  let out: Uint8Array = enc.encode(blocks.join(''));
  for (const m of mutations) {
    if (out.length === 0) break;
    const i = m.at % out.length;
    if (m.kind === 'flip') {
      out = out.slice();
      out[i] = out[i]! ^ (1 << m.bit);
    } else if (m.kind === 'bytes') out = concat([out.subarray(0, i), m.bytes, out.subarray(i)]);
  }
  return out;
}

/** What is wrong with a run's output, or `undefined` when it is all typed. */
export function untyped(outcome: RunOutcome): string | undefined {
  if (outcome.error === undefined && !outcome.completed) return 'the run neither completed nor errored';
  if (outcome.error !== undefined && !isToolStreamError(outcome.error)) return `untyped error: ${String(outcome.error)}`;
  for (const r of outcome.results) {
    if (r.success) {
      if (typeof r.data.id !== 'string' || typeof r.data.name !== 'string' || r.data.id === '') return `a success with a bad id or name: ${JSON.stringify(r.data)}`;
    } else if (!isToolStreamError(r.error) || !(ERROR_CODES as readonly string[]).includes(r.error.code)) return `an untyped failure: ${String(r.error)}`;
    else if (typeof r.error.toolCall.id !== 'string' || typeof r.error.toolCall.name !== 'string') return `a failure with a bad id or name: ${JSON.stringify(r.error.toolCall)}`;
  }
  return undefined;
}

/** Collect errors RxJS would report asynchronously (a throw inside a subscriber); call the result to restore. */
export function catchUnhandled(sink: unknown[]): () => void {
  const previous = config.onUnhandledError;
  config.onUnhandledError = (error: unknown) => sink.push(error);
  return () => {
    config.onUnhandledError = previous;
  };
}

/**
 * Register hooks for the current spec file: collect every error RxJS reports as unhandled while its
 * tests run, and expect none once they are done (after a short wait for late reports).
 */
export function expectNoUnhandledErrors(): void {
  const unhandled: unknown[] = [];
  let restore: () => void;
  beforeAll(() => (restore = catchUnhandled(unhandled)));
  afterAll(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    restore();
    expect(unhandled).toEqual([]);
  });
}
