/**
 * `encodeAiSdkUi()`: any format's {@link StreamEvent}s → the AI SDK UI message stream (what
 * `useChat` reads), and its writer.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, MetadataEvent, ProviderToolEvent, ReasoningPart, StreamEvent, ToolApprovalRequestEvent, ToolResultEvent, UsageEvent } from '../../events';
import { safeStringify } from '../../internal/json';
import { aBoolean, type OptionChecks } from '../../internal/options';
import { aChoice, encodeWith, type EncodeOptions } from './encodeWith';
import { SseWriter, totalOf, type CallJudge, type EncodedCall, type WireEncoder } from './encoding';

/** The checks of the keys only {@link encodeAiSdkUi} takes. */
const AI_SDK_UI_OPTION_CHECKS: OptionChecks = { choice: aChoice, sendUsage: aBoolean };

/** Options of {@link encodeAiSdkUi}. */
export interface EncodeAiSdkUiOptions extends EncodeOptions {
  /** The message id `start` carries (`useChat` keeps its own when absent). Default: the source's response id, else none. */
  readonly id?: string;
  /** The one choice written (a UI message has one). Default 0; events of other choices are left out. */
  readonly choice?: number;
  /**
   * Put the usage in the `finish` chunk's `messageMetadata` (`{ usage: { inputTokens, outputTokens,
   * totalTokens, … } }`, the AI SDK's `LanguageModelUsage` names): the protocol has no usage chunk,
   * and a `useChat` app that validates its message metadata must allow it. Default `false`.
   */
  readonly sendUsage?: boolean;
}

/**
 * Write any format's stream as the AI SDK UI message stream, live: what a backend sends to a
 * `useChat` front end (or AI Elements, assistant-ui), from any provider's stream.
 *
 * <span class="informal">Normalised events in, `data: {"type":"text-delta",…}` strings out; serve
 * them with the header `x-vercel-ai-ui-message-stream: v1`.</span>
 *
 * ```text
 * --m--t--x--x--e--r--f--d|      m: metadata, t: text-delta, x: fragments of call X, e: X's end,
 *                                r: X's tool-result, f: finish, d: done
 *   encodeAiSdkUi()
 * -----a--b--c--g--h-----k|      a: start, start-step, text-start, text-delta; b: text-end,
 *                                tool-input-start, tool-input-delta; c: tool-input-delta;
 *                                g: tool-input-available (the final input); h: tool-output-available;
 *                                k: finish-step, finish, [DONE]
 *
 * --t--x--#                      #: a provider error (`provider-error` error)
 *   encodeAiSdkUi()
 * --a--b--(e|)                   e: {"type":"error","errorText"}, [DONE], then complete
 * ```
 *
 * 1. Live: `text-delta`, `reasoning-delta` and `tool-input-delta` are written as they arrive, in
 *    parts with their start and end (`text-start` / `text-end`, …); a text or reasoning part ends
 *    when a call or the other kind starts, so the message keeps the stream's order.
 * 2. A call: `tool-input-start` (its id, name, and `inputEncoding: 'text'` for a custom tool's),
 *    its argument text as `tool-input-delta`s, then at its end `tool-input-available` with the final
 *    input, parsed (repaired, or replaced, as the readers read it), so a client that takes the input
 *    from it gets the right value whatever the deltas said; a call that does not parse, or has no
 *    name, ends with `tool-input-error` (its raw text, the reader's error); a call the source cut is
 *    left without an end, as the AI SDK leaves it (its input still streaming).
 * 3. `tool-result` events are written as `tool-output-available` (with `preliminary`),
 *    `tool-output-error` or `tool-output-denied`, and `tool-approval-request` events as themselves,
 *    on the call they name; one for a call the stream did not write is left out (the client would
 *    fail on it). A tool the provider ran (`provider-tool`) is a call with `providerExecuted: true`:
 *    its input, then its result.
 * 4. The end: `finish-step`, `finish` with the finish reason (the vocabulary's names are the AI
 *    SDK's; a choice the source never finished gets `tool-calls` or `stop`) and, with `sendUsage`,
 *    the usage in its `messageMetadata`; then `data: [DONE]`.
 * 5. Errors: a `provider-error` becomes an `error` chunk (the provider's message as `errorText`) and
 *    `[DONE]`, and the output completes; any other error is passed on without `[DONE]` (destroy the
 *    response: the client sees a cut). Only `choice` (default 0) is written.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { type StreamEvent } from 'rxjs-tool-calls';
 * import { encodeAiSdkUi } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":' },
 *   { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
 *   { type: 'tool-call-end', choice: 0, index: 0 },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeAiSdkUi()).subscribe((sse) => console.log(sse));
 * // displays: data: {"type":"start"} … data: {"type":"tool-input-start","toolCallId":"call_1","toolName":"get_weather"} …
 * //           data: {"type":"tool-input-available","toolCallId":"call_1","toolName":"get_weather","input":{"city":"Paris"}} …
 * //           data: {"type":"finish","finishReason":"tool-calls"} … data: [DONE]
 * ```
 *
 * @param options `id` (the message id), `choice`, `sendUsage`, `reasoning`, and the tracker's
 *   `generateId`, `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeAiSdkUi(options: EncodeAiSdkUiOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith('encodeAiSdkUi', AI_SDK_UI_OPTION_CHECKS, () => new AiSdkUiEncoder(options), options);
}

// ---- The writer ------------------------------------------------------------------------------------

/** The open text or reasoning part: its kind and id. */
interface OpenPart {
  readonly kind: 'text' | 'reasoning';
  readonly id: string;
  /** The SSE text of a delta of this part up to its JSON text (built once, for the hot path). */
  readonly prefix: string;
}

/** A provider's tool as a call: its id and how far it was written. */
interface ProviderCall {
  readonly id: string;
  available: boolean;
  done: boolean;
}

/** Writes one UI message stream. */
class AiSdkUiEncoder implements WireEncoder {
  readonly provider = 'ai-sdk-ui' as const;
  readonly choices: number;
  /** `tool-input-available` restates the final input. */
  readonly restatesArguments = true;
  /** `inputEncoding: 'text'` carries a custom tool's text. */
  readonly customCalls = true;
  private readonly out = new SseWriter();
  private readonly options: EncodeAiSdkUiOptions;
  private sourceId: string | undefined;
  private started = false;
  private parts = 0;
  private open: OpenPart | undefined;
  /** Per call (`seq`) that was started, the SSE text of its input deltas up to their JSON text. */
  private readonly calls = new Map<number, string>();
  private readonly providerCalls = new Map<string, ProviderCall>();
  private finishReason: FinishReason | undefined;
  private lastUsage: UsageEvent | undefined;

  /** @param options The message id, the choice, `sendUsage`. */
  constructor(options: EncodeAiSdkUiOptions) {
    this.options = options;
    this.choices = options.choice ?? 0;
  }

  metadata(event: MetadataEvent): void {
    this.sourceId ??= event.responseId;
  }

  text(_choice: number, text: string): void {
    if (text === '') return; // a Gemini text part's signature has no place here
    this.out.raw(`${this.part('text').prefix}${JSON.stringify(text)}}\n\n`);
  }

  reasoning(_choice: number, text: string): void {
    if (text === '') return; // a signature alone: provider metadata the stream does not carry
    this.out.raw(`${this.part('reasoning').prefix}${JSON.stringify(text)}}\n\n`);
  }

  reasoningEnd(_choice: number, part: ReasoningPart): void {
    if (this.open?.kind === 'reasoning') return this.closeOpen();
    if (part.text === '') return;
    // A part that came whole (no deltas): written whole.
    this.out.raw(`${this.part('reasoning').prefix}${JSON.stringify(part.text)}}\n\n`);
    this.closeOpen();
  }

  toolCallDelta(call: EncodedCall, append: string): void {
    let prefix = this.calls.get(call.seq);
    if (prefix === undefined) {
      // A call starts with its name: wait for it unless its arguments come first.
      if (call.name === '' && append === '') return;
      prefix = this.startCall(call);
    }
    if (append !== '') this.out.raw(`${prefix}${JSON.stringify(append)}}\n\n`);
  }

  toolCallEnd(call: EncodedCall, judge: CallJudge): void {
    if (!this.calls.has(call.seq)) this.startCall(call);
    const outcome = judge.outcome();
    // A call the source cut stays as the AI SDK leaves one: its input still streaming.
    if (outcome.status === 'incomplete') return;
    if (outcome.status === 'complete') this.out.json({ type: 'tool-input-available', toolCallId: call.id, toolName: call.name, input: outcome.value });
    else this.out.json({ type: 'tool-input-error', toolCallId: call.id, toolName: call.name, input: call.rawArguments, errorText: outcome.message });
  }

  toolResult(event: ToolResultEvent, call: EncodedCall | undefined): void {
    if (call === undefined || !this.calls.has(call.seq)) return;
    const toolCallId = call.id;
    if (event.denied === true) this.out.json({ type: 'tool-output-denied', toolCallId });
    else if (event.error !== undefined) this.out.json({ type: 'tool-output-error', toolCallId, errorText: event.error });
    else this.out.json({ type: 'tool-output-available', toolCallId, output: event.output ?? null, ...(event.preliminary === true ? { preliminary: true } : {}) });
  }

  toolApproval(event: ToolApprovalRequestEvent, call: EncodedCall | undefined): void {
    if (call === undefined || !this.calls.has(call.seq)) return;
    this.out.json({ type: 'tool-approval-request', approvalId: event.approvalId, toolCallId: call.id });
  }

  /** A tool the provider ran: a call with `providerExecuted: true`, its input, then its output. */
  providerTool(event: ProviderToolEvent): void {
    const toolCallId = event.id === '' ? `${event.tool}-${this.providerCalls.size}` : event.id;
    let run = this.providerCalls.get(toolCallId);
    if (run?.done === true) return;
    if (run === undefined) {
      this.start();
      this.closeOpen();
      this.providerCalls.set(toolCallId, (run = { id: toolCallId, available: false, done: false }));
      this.out.json({ type: 'tool-input-start', toolCallId, toolName: event.tool, providerExecuted: true });
    }
    if (event.inputDelta !== undefined && event.inputDelta !== '' && !run.available) this.out.json({ type: 'tool-input-delta', toolCallId, inputTextDelta: event.inputDelta });
    const done = event.status !== 'running';
    if (!run.available && (event.input !== undefined || done)) {
      run.available = true;
      this.out.json({ type: 'tool-input-available', toolCallId, toolName: event.tool, input: event.input ?? null, providerExecuted: true });
    }
    if (!done) return;
    run.done = true;
    if (event.status === 'completed') this.out.json({ type: 'tool-output-available', toolCallId, output: event.result ?? null, providerExecuted: true });
    else
      this.out.json({
        type: 'tool-output-error',
        toolCallId,
        errorText: event.result === undefined ? event.status : typeof event.result === 'string' ? event.result : safeStringify(event.result),
        providerExecuted: true,
      });
  }

  finish(_choice: number, reason: FinishReason): void {
    this.finishReason = reason;
  }

  usage(event: UsageEvent): void {
    this.lastUsage = event;
  }

  end(): void {
    this.start();
    this.closeOpen();
    this.out.json({ type: 'finish-step' });
    const usage = this.options.sendUsage === true ? usageMetadata(this.lastUsage) : undefined;
    this.out.json({ type: 'finish', ...(this.finishReason === undefined ? {} : { finishReason: this.finishReason }), ...(usage === undefined ? {} : { messageMetadata: { usage } }) });
    this.out.data('[DONE]');
  }

  error(error: ProviderErrorInfo): void {
    this.closeOpen();
    this.out.json({ type: 'error', errorText: error.message });
    this.out.data('[DONE]');
  }

  take(): string {
    return this.out.take();
  }

  /** `start` and `start-step`, once, before anything else. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    const messageId = this.options.id ?? this.sourceId;
    this.out.json(messageId === undefined ? { type: 'start' } : { type: 'start', messageId });
    this.out.json({ type: 'start-step' });
  }

  /** The open part of `kind`, starting one (and ending the other kind) when needed. */
  private part(kind: 'text' | 'reasoning'): OpenPart {
    if (this.open?.kind === kind) return this.open;
    this.start();
    this.closeOpen();
    const id = `${kind}-${this.parts++}`;
    this.out.json({ type: `${kind}-start`, id });
    return (this.open = { kind, id, prefix: `data: {"type":"${kind}-delta","id":"${id}","delta":` });
  }

  private closeOpen(): void {
    if (this.open === undefined) return;
    this.out.json({ type: `${this.open.kind}-end`, id: this.open.id });
    this.open = undefined;
  }

  /** `tool-input-start` (text and reasoning parts end first); returns the prefix of the call's deltas. */
  private startCall(call: EncodedCall): string {
    this.start();
    this.closeOpen();
    this.out.json({ type: 'tool-input-start', toolCallId: call.id, toolName: call.name, ...(call.kind === 'custom' ? { inputEncoding: 'text' } : {}) });
    const prefix = `data: {"type":"tool-input-delta","toolCallId":${JSON.stringify(call.id)},"inputTextDelta":`;
    this.calls.set(call.seq, prefix);
    return prefix;
  }
}

/** The usage as the AI SDK names its counts (`LanguageModelUsage`), for the message metadata. */
function usageMetadata(usage: UsageEvent | undefined): Record<string, unknown> | undefined {
  if (usage === undefined) return undefined;
  const total = totalOf(usage);
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: total,
    ...(usage.reasoningTokens === undefined ? {} : { outputTokenDetails: { reasoningTokens: usage.reasoningTokens } }),
    ...(usage.cachedInputTokens === undefined && usage.cacheWriteInputTokens === undefined
      ? {}
      : { inputTokenDetails: { cacheReadTokens: usage.cachedInputTokens, cacheWriteTokens: usage.cacheWriteInputTokens } }),
  };
}
