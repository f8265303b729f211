/**
 * `encodeGemini()`: any provider's {@link StreamEvent}s → Gemini `streamGenerateContent?alt=sse`,
 * and its writer (resolved events → `GenerateContentResponse` chunks, one per event).
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, MetadataEvent, StreamEvent, UsageEvent } from '../../events';
import { encodeWith, type EncodeOptions } from './encodeWith';
import { ResponseIdentity, SseWriter, totalOf, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from './encoding';
import type { OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link encodeGemini} takes. */
const GEMINI_OPTION_CHECKS: OptionChecks = {};

/** Options of {@link encodeGemini}. */
export interface EncodeGeminiOptions extends EncoderOptions, EncodeOptions {}

/**
 * Write any provider's stream as Gemini `streamGenerateContent?alt=sse` chunks: text and thoughts
 * live, each function call whole when it completes.
 *
 * <span class="informal">Normalised events in, `data: {"candidates":[…],"modelVersion":…}`
 * strings out; Gemini's public `functionCall` parts only carry whole values.</span>
 *
 * ```text
 * --m--t--x--x--y--y--f--u--d|     m: metadata, t: text-delta, x, y: fragments of calls X and Y,
 *                                  f: finish (tool-calls), u: usage, d: done
 *   encodeGemini()
 * -----a--------------b-----h|     a: a text part, b: X and Y as whole functionCall parts (the finish
 *                                  closed them) + a chunk with finishReason STOP, h: usageMetadata
 *
 * --t--x--#                        #: a provider error (`provider-error` error)
 *   encodeGemini()
 * --a-----(e|)                     e: data: {"error":{"code","message","status"}}, then complete
 *
 * --t--x--#                        #: truncated, or any other error
 *   encodeGemini()
 * --a-----#                        the same error
 * ```
 *
 * 1. Live: text parts (`{ text }`) and thought parts (`{ text, thought: true }`, with the
 *    `thoughtSignature` of the reasoning) are written as they arrive. A call is written whole
 *    (`{ functionCall: { name, args } }`) when it completes: at its end, its choice's finish or the end
 *    of the stream. Nothing of a call is written before (argument fragments have no place in a part).
 * 2. Identity: calls are resolved by the readers' tracker (see `encodeOpenAIChat()`). Parts come in
 *    the order calls complete. `functionCall.id` is written only when the source sent an id (Gemini
 *    itself sends none: none is invented); a call's `thoughtSignature` (Gemini 3) stays on its part.
 *    Each choice is a candidate (`index` written when not 0).
 * 3. Only a call that can run is written: arguments that are not a JSON object, a call without a
 *    name or a call the source cut are left out (the candidate's `finishReason`, e.g. `MAX_TOKENS`,
 *    says why).
 * 4. Finish: a chunk with `finishReason` when the source finishes a choice: `STOP` (also for tool
 *    calls, as Gemini does), `MAX_TOKENS`, `SAFETY`; the source's own string for `error` and `other`.
 *    A choice the source never finished gets `STOP` at the end. The end writes a last chunk with
 *    `usageMetadata` (`promptTokenCount`, `candidatesTokenCount`, `totalTokenCount` (input +
 *    output when the source sent none), `thoughtsTokenCount`, `cachedContentTokenCount`). Gemini
 *    has no terminator.
 * 5. Errors: a `provider-error` error becomes `data: {"error":{"code","message","status"}}` (its HTTP status,
 *    else 503 when retryable or 400, and the matching Google status) and the output completes; any
 *    other error is passed on (destroy the response: a client sees a cut).
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { type StreamEvent } from 'rxjs-tool-calls';
 * import { encodeGemini } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, name: 'get_capital', argumentsDelta: '{"country":' },
 *   { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"France"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
 * ];
 * from(events).pipe(encodeGemini({ id: 'r1', model: 'gemini-2.5-flash' })).subscribe((sse) => console.log(sse));
 * // displays: data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_capital","args":{"country":"France"}}}]}}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}
 * //
 * //           data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}
 * ```
 *
 * @param options `model`, `id` (the `responseId`), `reasoning`, and the tracker's `generateId`,
 *   `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeGemini(options: EncodeGeminiOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith('encodeGemini', GEMINI_OPTION_CHECKS, () => new GeminiEncoder(options), options);
}

// ---- The writer ------------------------------------------------------------------------------------

/** What Gemini calls each normalised finish reason (Gemini ends a turn with tool calls with `STOP` too). */
const FINISH: Record<FinishReason, string | undefined> = {
  stop: 'STOP',
  'tool-calls': 'STOP',
  length: 'MAX_TOKENS',
  'content-filter': 'SAFETY',
  error: undefined,
  other: undefined,
};

/** Google API status names by HTTP status. */
const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** A part's thought signature from a call's metadata (Gemini 3 needs it sent back), if any. */
function signatureOf(call: EncodedCall): string | undefined {
  const value = call.metadata?.['thoughtSignature'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Whether a value can be a `functionCall.args` (a JSON object). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes one Gemini stream: a chunk per text or thought piece, each call whole when it completes,
 * a chunk per candidate's `finishReason`, the usage last. There is no terminator.
 */
class GeminiEncoder implements WireEncoder {
  readonly provider = 'gemini' as const;
  readonly choices = 'all' as const;
  readonly restatesArguments = true;
  private readonly out = new SseWriter();
  private readonly response: ResponseIdentity;
  private lastUsage: UsageEvent | undefined;

  /** @param options Model, response id, reasoning. */
  constructor(options: EncodeGeminiOptions = {}) {
    this.response = new ResponseIdentity(options, '');
  }

  metadata(event: MetadataEvent): void {
    this.response.metadata(event);
  }

  text(choice: number, text: string, signature: string | undefined): void {
    this.parts(choice, [{ text, ...(signature === undefined ? {} : { thoughtSignature: signature }) }]);
  }

  reasoning(choice: number, text: string, signature: string | undefined): void {
    this.parts(choice, [{ text, thought: true, ...(signature === undefined ? {} : { thoughtSignature: signature }) }]);
  }

  reasoningEnd(): void {
    // Gemini parts have no end: thoughts and their signatures went out as they came (a redacted
    // Anthropic block or an encrypted Responses item has no Gemini form).
  }

  toolCallDelta(): void {
    // `functionCall` parts carry whole values only: each call is written when it completes.
  }

  toolCallEnd(call: EncodedCall, judge: CallJudge): void {
    // Only a runnable call can be a part: a call that failed or was cut is left out (its candidate's
    // finish reason says why, e.g. MAX_TOKENS).
    const outcome = judge.outcome();
    if (outcome.status !== 'complete' || !isObject(outcome.value)) return;
    // The id only when the source sent one: Gemini itself sends none, so none is invented.
    const functionCall = { ...(call.wireId === undefined ? {} : { id: call.id }), name: call.name, args: outcome.value };
    const signature = signatureOf(call);
    this.parts(call.choice, [{ functionCall, ...(signature === undefined ? {} : { thoughtSignature: signature }) }]);
  }

  finish(choice: number, reason: FinishReason, rawReason: string): void {
    this.chunk({ candidates: [{ content: { role: 'model', parts: [] }, finishReason: FINISH[reason] ?? (rawReason || 'OTHER'), ...(choice === 0 ? {} : { index: choice }) }] });
  }

  usage(event: UsageEvent): void {
    this.lastUsage = event;
  }

  end(): void {
    const usage = this.lastUsage;
    if (usage === undefined) return;
    this.chunk({
      usageMetadata: {
        promptTokenCount: usage.inputTokens,
        // Gemini's candidates count leaves the thoughts out (normalised output holds both).
        candidatesTokenCount: usage.outputTokens === undefined ? undefined : Math.max(0, usage.outputTokens - (usage.reasoningTokens ?? 0)),
        totalTokenCount: totalOf(usage),
        thoughtsTokenCount: usage.reasoningTokens,
        cachedContentTokenCount: usage.cachedInputTokens,
      },
    });
  }

  error(error: ProviderErrorInfo): void {
    const code = error.status ?? (error.retryable ? 503 : 400);
    this.out.json({ error: { code, message: error.message, status: STATUS[code] ?? (code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } });
  }

  take(): string {
    return this.out.take();
  }

  private parts(choice: number, parts: unknown[]): void {
    this.chunk({ candidates: [{ content: { role: 'model', parts }, ...(choice === 0 ? {} : { index: choice }) }] });
  }

  /** One chunk, with the model and response id every Gemini chunk carries. */
  private chunk(body: Record<string, unknown>): void {
    this.out.json({ ...body, modelVersion: this.response.model, responseId: this.response.id });
  }
}
