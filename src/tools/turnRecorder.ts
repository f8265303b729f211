/**
 * Records one assistant turn from its events, in stream order, so that the message builders can
 * send it back as the provider requires: text pieces, whole reasoning parts (signatures, redacted
 * blocks, Responses reasoning items) and where each call began.
 *
 * @module
 */
import type { ProviderMetadata, ReasoningPart, StreamEvent } from '../events';
import type { ToolStep, TurnPiece } from './messages/shared';
import type { ToolRun, ToolRunResult } from './types';

interface OpenText {
  text: string;
  signature?: string;
  metadata?: ProviderMetadata;
}

/** The part's own fields, without the event's `type`, `choice` and `index`. */
function partOf(event: Extract<StreamEvent, { type: 'reasoning-end' }>): ReasoningPart {
  const { type: _type, choice: _choice, index: _index, ...part } = event;
  return part;
}

/**
 * One turn's recorder (choice 0). Reasoning parts:
 *
 * 1. A `reasoning-end` is the part, whole: it replaces the deltas streamed since the last part.
 * 2. Without one (chat `reasoning_content`, Gemini thoughts, `<think>` tags), consecutive
 *    `reasoning-delta`s form one part, which ends at other output or at a second signature.
 * 3. Text pieces end at other output; a text piece with a signature (Gemini) ends at the next text.
 * 4. A call's place is its first delta (by `index`, else by id, numbered in order of first sight).
 *
 * @example
 * ```ts
 * import { lastValueFrom, tap, toArray, type Observable } from 'rxjs';
 * import { readStreamEvents, toolCalls } from 'rxjs-tool-calls';
 * import { runTools, toolMessages, TurnRecorder, type ToolSet, type WireMessage } from 'rxjs-tool-calls/tools';
 *
 * declare const bytes$: Observable<Uint8Array>;
 * declare const tools: ToolSet;
 * declare const messages: Array<WireMessage<'anthropic'>>; // the conversation so far
 *
 * const turn = new TurnRecorder();
 * const runs = await lastValueFrom(bytes$.pipe(readStreamEvents(), tap((e) => turn.push(e)), toolCalls(), runTools(tools), toArray()));
 * messages.push(...toolMessages('anthropic', turn.step(runs)));
 * // displays nothing: messages now ends with the assistant turn (thinking blocks, text, tool_use) and the tool results
 * ```
 */
export class TurnRecorder {
  private readonly pieces: TurnPiece[] = [];
  /** Provider-executed tools' objects by run and kind: where each is, and whether it may still be replaced. */
  private readonly providerTools = new Map<string, { readonly position: number; running: boolean }>();
  private allText = '';
  private reasoning: OpenText | undefined;
  private text: OpenText | undefined;
  private readonly calls = new Set<string>();
  private callCount = 0;

  /** Take one event of the stream (other choices are ignored). */
  push(event: StreamEvent): void {
    if (!('choice' in event) || event.choice !== 0) return;
    switch (event.type) {
      case 'reasoning-delta': {
        this.closeText();
        if (this.reasoning?.signature !== undefined && (event.signature !== undefined || event.text !== '')) this.closeReasoning();
        const open = (this.reasoning ??= { text: '' });
        open.text += event.text;
        if (event.signature !== undefined) open.signature = event.signature;
        if (event.metadata !== undefined) open.metadata ??= event.metadata;
        return;
      }
      case 'reasoning-end':
        this.reasoning = undefined; // its deltas: the part replaces them
        this.closeText();
        this.pieces.push({ type: 'reasoning', part: partOf(event) });
        return;
      case 'text-delta': {
        this.closeReasoning();
        if (this.text?.signature !== undefined) this.closeText();
        const open = (this.text ??= { text: '' });
        open.text += event.text;
        this.allText += event.text;
        if (event.signature !== undefined) open.signature = event.signature;
        return;
      }
      case 'tool-call-delta': {
        const key = event.index !== undefined ? `i${event.index}` : event.id ? `d${event.id}` : undefined;
        if (key === undefined || this.calls.has(key)) return;
        this.calls.add(key);
        this.closeReasoning();
        this.closeText();
        // A call without a wire index gets its ordinal position, as the tracker numbers it.
        this.pieces.push({ type: 'call', index: event.index ?? this.callCount });
        this.callCount++;
        return;
      }
      case 'provider-tool': {
        // The wire's object, to send back in its format: a later, fuller object of the same run and
        // kind replaces a running one (Responses item added → done, Anthropic block start → stop).
        // Shell calls and a tool search the client runs (`execution: 'client'`) are the app's to
        // answer with its own output item: not sent back without it.
        if (event.raw === undefined || event.tool === 'shell' || event.tool === 'local_shell' || (event.tool === 'tool_search' && event.raw['execution'] === 'client')) return;
        const key = `${event.id}|${String(event.raw['type'] ?? Object.keys(event.raw)[0])}`;
        const at = this.providerTools.get(key);
        const piece = { type: 'provider-tool' as const, provider: event.provider, raw: event.raw };
        if (at !== undefined && at.running) {
          this.pieces[at.position] = piece;
          at.running = event.status === 'running';
          return;
        }
        this.closeReasoning();
        this.closeText();
        this.providerTools.set(key, { position: this.pieces.length, running: event.status === 'running' });
        this.pieces.push(piece);
        return;
      }
      default:
        return;
    }
  }

  /** The step for the message builders: the text, the reasoning parts, `results` and the turn in order. */
  step(results: ReadonlyArray<ToolRunResult<ToolRun>>): ToolStep {
    this.closeReasoning();
    this.closeText();
    const reasoning = this.pieces.flatMap((p) => (p.type === 'reasoning' ? [p.part] : []));
    return { text: this.allText, reasoning, results, content: [...this.pieces] };
  }

  private closeReasoning(): void {
    const open = this.reasoning;
    if (open === undefined) return;
    this.reasoning = undefined;
    const { text, signature, metadata } = open;
    this.pieces.push({ type: 'reasoning', part: { text, ...(signature === undefined ? {} : { signature }), ...(metadata === undefined ? {} : { metadata }) } });
  }

  private closeText(): void {
    const open = this.text;
    if (open === undefined) return;
    this.text = undefined;
    this.pieces.push(open.signature === undefined ? { type: 'text', text: open.text } : { type: 'text', text: open.text, signature: open.signature });
  }
}
