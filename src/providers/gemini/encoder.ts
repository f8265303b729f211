/**
 * The Gemini writer: resolved events → `streamGenerateContent?alt=sse` chunks
 * (`GenerateContentResponse` JSON per event).
 *
 * @module
 */
import type { FinishReason, MetadataEvent, UsageEvent } from '../../events';
import type { ProviderErrorInfo } from '../../errors';
import { ResponseIdentity, SseWriter, totalOf, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from '../encoding';

/** Options of the Gemini encoder. */
export type GeminiEncoderOptions = EncoderOptions;

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
export class GeminiEncoder implements WireEncoder {
  readonly provider = 'gemini' as const;
  readonly choices = 'all' as const;
  readonly restatesArguments = true;
  private readonly out = new SseWriter();
  private readonly response: ResponseIdentity;
  private lastUsage: UsageEvent | undefined;

  /** @param options Model, response id, reasoning. */
  constructor(options: GeminiEncoderOptions = {}) {
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
