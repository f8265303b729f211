/**
 * `encodeGeminiInteractions()`: any provider's {@link StreamEvent}s → Gemini Interactions API SSE,
 * and its writer (resolved events → `interaction.created`, steps, the final status and
 * `interaction.completed`).
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, MetadataEvent, ProviderToolEvent, ReasoningPart, StreamEvent, UsageEvent } from '../../events';
import type { OptionChecks } from '../../internal/options';
import { aChoice, encodeWith, type EncodeOptions } from './encodeWith';
import { ResponseIdentity, SseWriter, totalOf, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from './encoding';

/** The checks of the keys only {@link encodeGeminiInteractions} takes. */
const GEMINI_INTERACTIONS_OPTION_CHECKS: OptionChecks = { choice: aChoice };

/** Options of {@link encodeGeminiInteractions}. */
export interface EncodeGeminiInteractionsOptions extends EncoderOptions, EncodeOptions {
  /** The one choice written (an interaction has one output). Default 0; events of other choices are left out. */
  readonly choice?: number;
}

/**
 * Write any provider's stream as Gemini Interactions API SSE, live: steps numbered in order,
 * `step.start` / `step.stop` around each, every argument fragment as an `arguments_delta`.
 *
 * <span class="informal">Normalised events in, `event: interaction.created` … `event:
 * interaction.completed` strings out; thought, text and function-call steps share one sequence of
 * indices.</span>
 *
 * ```text
 * --m--r--t--x--x--e--f--u--d|     m: metadata, r: reasoning, t: text-delta, x: fragments of call X,
 *                                  e: X's end, f: finish (tool-calls), u: usage, d: done
 *   encodeGeminiInteractions()
 * -----a--b--c--g--h--------k|     a: interaction.created + status_update (in_progress) + thought step 0
 *                                  + thought_summary, b: step 0 stopped + model_output step 1 + text,
 *                                  c: step 1 stopped + function_call step 2 (id, name) + arguments_delta,
 *                                  g: arguments_delta, h: step 2 stopped, k: status_update (requires_action,
 *                                  usage) + interaction.completed
 *
 * --t--x--#                        #: a provider error (`provider-error` error)
 *   encodeGeminiInteractions()
 * --a--b--(e|)                     e: event: error {"error":{"code","message"},"event_type":"error"}, then complete
 *
 * --t--x--#                        #: truncated, or any other error
 *   encodeGeminiInteractions()
 * --a--b--#                        the same error: no interaction.completed is ever written
 * ```
 *
 * 1. Live: text (`text` deltas of a `model_output` step), reasoning (`thought_summary` deltas of a
 *    `thought` step, its signature as a `thought_signature` delta) and argument fragments
 *    (`arguments_delta`) are written as they arrive. A `function_call` step starts once its name is
 *    known (or its first arguments arrive), with its id, name, the source's thought signature and
 *    `arguments: {}`; a whole value (`replace`) is written with the call's next event.
 * 2. Identity: calls are resolved by the readers' tracker (see `encodeOpenAIChat()`). Steps are
 *    numbered 0, 1, 2, … in the order they start; a text or thought step is stopped when another
 *    step starts; calls may stay open side by side. The step's `id` is the source's call id, or the
 *    generated one.
 * 3. A call ends with `step.stop`; a call the source cut gets none, so readers report it
 *    `incomplete` (the interaction then ends `incomplete`: `requires_action` and `completed` would
 *    complete it). An Interactions source's server tool steps (`google_search_call`, …) are written
 *    back whole, in stream order; other sources' provider-run tools are left out.
 * 4. The end: `interaction.status_update` with the final status and the usage, then
 *    `interaction.completed` (the terminator) with them: `requires_action` after tool calls (their
 *    results are awaited), `completed`, `incomplete` for a cut (`length`, `content-filter`, `error`),
 *    or an Interactions source's own status. Usage: `total_input_tokens`, `total_output_tokens`
 *    (without the thoughts), `total_thought_tokens`, `total_cached_tokens`, `total_tokens`.
 * 5. Errors: a `provider-error` error becomes `event: error` with `{"error":{"code","message"}}`
 *    (an Interactions source's own code, else one from its status: `resource_exhausted`,
 *    `unavailable`, `internal`, `invalid_argument`, …) and the output completes; any other error is
 *    passed on without `interaction.completed` (destroy the response: a client sees a cut).
 *    Arguments a source replaces after others were written cannot be taken back: that ends the
 *    output with `invalid-event`. Only `choice` (default 0) is written.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { type StreamEvent } from 'rxjs-tool-calls';
 * import { encodeGeminiInteractions } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":' },
 *   { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeGeminiInteractions({ id: 'v1_1', model: 'gemini-3-flash-preview' })).subscribe((sse) => console.log(sse));
 * // displays: event: interaction.created … event: step.start
 * //           data: {"index":0,"step":{"id":"call_1","signature":"","type":"function_call","name":"get_weather","arguments":{}},"event_type":"step.start"} …
 * //           data: {"interaction":{"id":"v1_1","status":"requires_action",…},"event_type":"interaction.completed"}
 * ```
 *
 * @param options `model`, `id` (the interaction's id), `choice`, `reasoning`, and the tracker's
 *   `generateId`, `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeGeminiInteractions(options: EncodeGeminiInteractionsOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith('encodeGeminiInteractions', GEMINI_INTERACTIONS_OPTION_CHECKS, () => new GeminiInteractionsEncoder(options), options);
}

// ---- The writer ------------------------------------------------------------------------------------

/** The status each normalised finish reason ends an interaction with (a cut of any kind is `incomplete`: its open calls read as cut). */
const STATUS: Record<FinishReason, string> = {
  stop: 'completed',
  'tool-calls': 'requires_action',
  length: 'incomplete',
  'content-filter': 'incomplete',
  error: 'incomplete',
  other: 'completed',
};

/** The Interactions statuses a source's finish may carry as its raw reason (kept as they are; `failed` is an error, never a finish). */
const OWN_STATUSES = new Set(['completed', 'requires_action', 'incomplete', 'budget_exceeded', 'requires_continuation', 'cancelled']);

/** Error codes by HTTP status (Google's status names, as the API writes them). */
const CODES: Record<number, string> = {
  400: 'invalid_argument',
  401: 'unauthenticated',
  403: 'permission_denied',
  404: 'not_found',
  429: 'resource_exhausted',
  500: 'internal',
  503: 'unavailable',
  529: 'unavailable',
};

/** The error code for a provider error: an Interactions source's own, else from its status and retryability. */
function errorCode(error: ProviderErrorInfo): string {
  if (error.provider === 'gemini-interactions' && error.providerCode !== undefined) return error.providerCode;
  const byStatus = error.status === undefined ? undefined : CODES[error.status];
  if (byStatus !== undefined) return byStatus;
  return error.retryable ? 'unavailable' : 'invalid_argument';
}

/** Interactions usage from normalised counts: the thoughts apart from the output, the cached tokens inside the input. */
function usageOf(usage: UsageEvent): Record<string, number> {
  const fields: Record<string, number> = {};
  if (usage.inputTokens !== undefined) fields['total_input_tokens'] = usage.inputTokens;
  if (usage.cachedInputTokens !== undefined) fields['total_cached_tokens'] = usage.cachedInputTokens;
  if (usage.outputTokens !== undefined) fields['total_output_tokens'] = Math.max(0, usage.outputTokens - (usage.reasoningTokens ?? 0));
  if (usage.reasoningTokens !== undefined) fields['total_thought_tokens'] = usage.reasoningTokens;
  const total = totalOf(usage);
  if (total !== undefined) fields['total_tokens'] = total;
  return fields;
}

/** Writes one interaction: steps numbered in order of their start, text and thought steps stopped when another starts. */
class GeminiInteractionsEncoder implements WireEncoder {
  readonly provider = 'gemini-interactions' as const;
  readonly choices: number;
  readonly restatesArguments = false;
  private readonly out = new SseWriter();
  private readonly response: ResponseIdentity;
  private started = false;
  private steps = 0;
  /** The open text or thought step (`signed`: a thought step whose signature was written). */
  private open: { readonly kind: 'text' | 'thought'; readonly index: number; signed: boolean } | undefined;
  /** Function-call steps by call, with their step index. */
  private readonly calls = new Map<number, number>();
  /** Per call step, the SSE text of an `arguments_delta` up to its JSON (built once, for the hot path). */
  private readonly prefixes = new Map<number, string>();
  private lastUsage: UsageEvent | undefined;
  private status = 'completed';
  /** A call was left without its stop (cut): the interaction cannot end as `requires_action` or `completed`, which would make it complete. */
  private cut = false;
  /** An Interactions source's server tool call steps by id, held until they are whole (the next step). */
  private serverCalls: Map<string, Readonly<Record<string, unknown>>> | undefined;

  /** @param options Model, id, the choice to write, reasoning. */
  constructor(options: EncodeGeminiInteractionsOptions = {}) {
    this.response = new ResponseIdentity(options, 'v1_');
    this.choices = options.choice ?? 0;
  }

  metadata(event: MetadataEvent): void {
    this.response.metadata(event);
  }

  text(_choice: number, text: string): void {
    if (text === '') return; // a text part's signature (Gemini) has no Interactions form
    const index = this.index('text');
    this.out.data(`{"index":${index},"delta":{"text":${JSON.stringify(text)},"type":"text"},"event_type":"step.delta"}`, 'step.delta');
  }

  reasoning(_choice: number, text: string, signature: string | undefined): void {
    const signed = signature !== undefined && signature !== '';
    if (text === '' && !signed) return;
    // A signature ends its thought: more reasoning after it is a new thought step.
    if (this.open?.kind === 'thought' && this.open.signed) this.closeOpen();
    this.index('thought');
    if (text !== '') this.delta({ content: { type: 'text', text }, type: 'thought_summary' });
    if (signed) this.sign(signature);
  }

  reasoningEnd(_choice: number, part: ReasoningPart): void {
    // A part that came whole (no deltas) is written whole; its signature once. A redacted part has no form here.
    if (this.open?.kind !== 'thought') {
      if (part.text === '' && part.signature === undefined) return;
      this.index('thought');
      if (part.text !== '') this.delta({ content: { type: 'text', text: part.text }, type: 'thought_summary' });
    }
    if (this.open?.kind === 'thought') {
      if (!this.open.signed && part.signature !== undefined && part.signature !== '') this.sign(part.signature);
      this.closeOpen();
    }
  }

  toolCallDelta(call: EncodedCall, append: string): void {
    let index = this.calls.get(call.seq);
    if (index === undefined) {
      // A function_call step starts with its name: wait for it unless arguments come first.
      if (call.name === '' && append === '') return;
      index = this.startCall(call);
    }
    if (append === '') return;
    let prefix = this.prefixes.get(index);
    if (prefix === undefined) {
      prefix = `event: step.delta\ndata: {"index":${index},"delta":{"arguments":`;
      this.prefixes.set(index, prefix);
    }
    this.out.raw(`${prefix}${JSON.stringify(append)},"type":"arguments_delta"},"event_type":"step.delta"}\n\n`);
  }

  toolCallEnd(call: EncodedCall, judge: CallJudge): void {
    const index = this.calls.get(call.seq) ?? this.startCall(call);
    // A step left without its stop is read as cut off (`incomplete`), unless the interaction ends as
    // `requires_action` or `completed`, which complete every call: it then ends `incomplete`.
    if (!judge.incomplete()) this.event('step.stop', { index });
    else this.cut = true;
  }

  /**
   * An Interactions source's server tool step, written back whole: a call step is held until it is
   * whole (its last event; written before the next step), a result step written when it arrives.
   */
  providerTool(event: ProviderToolEvent): void {
    const raw = event.raw;
    if (event.provider !== 'gemini-interactions' || raw === undefined) return;
    const type = typeof raw['type'] === 'string' ? raw['type'] : '';
    if (type.endsWith('_call')) {
      (this.serverCalls ??= new Map()).set(event.id, raw); // the last one seen is the whole step
      return;
    }
    if (!type.endsWith('_result') || event.status === 'running') return;
    this.start();
    this.closeOpen();
    this.wholeStep(raw);
  }

  finish(_choice: number, reason: FinishReason, rawReason: string): void {
    this.status = OWN_STATUSES.has(rawReason) ? rawReason : STATUS[reason];
  }

  usage(event: UsageEvent): void {
    this.lastUsage = event;
  }

  end(): void {
    this.start();
    this.closeOpen();
    const usage = this.lastUsage === undefined ? {} : { usage: usageOf(this.lastUsage) };
    const status = this.cut && (this.status === 'requires_action' || this.status === 'completed') ? 'incomplete' : this.status;
    this.event('interaction.status_update', { interaction_id: this.response.id, status, ...usage });
    this.event('interaction.completed', { interaction: { id: this.response.id, status, ...usage, object: 'interaction', model: this.response.model } });
  }

  error(error: ProviderErrorInfo): void {
    this.event('error', { error: { code: errorCode(error), message: error.message } });
  }

  take(): string {
    return this.out.take();
  }

  /** One event: its payload with `event_type` last, as the API writes it. */
  private event(type: string, payload: Record<string, unknown>): void {
    this.out.json({ ...payload, event_type: type }, type);
  }

  /** `interaction.created` and the `in_progress` status, once, before the first step. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    this.event('interaction.created', { interaction: { id: this.response.id, status: 'in_progress', object: 'interaction', model: this.response.model } });
    this.event('interaction.status_update', { interaction_id: this.response.id, status: 'in_progress' });
  }

  /** The index of the open step of `kind`, starting one (and stopping the other kind) when needed. */
  private index(kind: 'text' | 'thought'): number {
    if (this.open?.kind === kind) return this.open.index;
    this.start();
    this.closeOpen();
    const index = this.steps++;
    this.open = { kind, index, signed: false };
    this.event('step.start', { index, step: { type: kind === 'text' ? 'model_output' : 'thought' } });
    return index;
  }

  private sign(signature: string): void {
    this.delta({ signature, type: 'thought_signature' });
    if (this.open !== undefined) this.open.signed = true;
  }

  private delta(delta: Record<string, unknown>): void {
    this.event('step.delta', { index: this.open?.index, delta });
  }

  /** A server tool's step, whole: started and stopped. */
  private wholeStep(step: Readonly<Record<string, unknown>>): void {
    const index = this.steps++;
    this.event('step.start', { index, step });
    this.event('step.stop', { index });
  }

  /** Stop the open text or thought step, then write the server tool calls held after it. */
  private closeOpen(): void {
    if (this.open !== undefined) {
      this.event('step.stop', { index: this.open.index });
      this.open = undefined;
    }
    const held = this.serverCalls;
    if (held === undefined || held.size === 0) return;
    for (const step of held.values()) this.wholeStep(step);
    held.clear();
  }

  /** Start a function_call step (with the source's thought signature); text after it opens a new step. */
  private startCall(call: EncodedCall): number {
    this.start();
    this.closeOpen();
    const index = this.steps++;
    this.calls.set(call.seq, index);
    const signature = call.metadata?.['thoughtSignature'];
    this.event('step.start', { index, step: { id: call.id, signature: typeof signature === 'string' ? signature : '', type: 'function_call', name: call.name, arguments: {} } });
    return index;
  }
}
