/**
 * The Ollama `/api/chat` writer: resolved events → NDJSON lines, as Ollama streams them.
 *
 * @module
 */
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, MetadataEvent, UsageEvent } from '../../events';
import { ResponseIdentity, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from '../encoding';

/** Options of the Ollama encoder. */
export interface OllamaEncoderOptions extends EncoderOptions {
  /** The one choice written (Ollama answers with one). Default 0; events of other choices are left out. */
  readonly choice?: number;
  /** The `created_at` of every line (an ISO 8601 time). Default: the time of the stream's first line. */
  readonly createdAt?: string;
}

/** Whether a value can be a call's `arguments` (a JSON object). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes one Ollama chat stream: a line per text or thinking piece, each call whole when it
 * completes, and the last line (`"done": true`, `done_reason`, the counts).
 */
export class OllamaChatEncoder implements WireEncoder {
  readonly provider = 'ollama' as const;
  readonly choices: number;
  readonly restatesArguments = true;
  private out = '';
  private readonly response: ResponseIdentity;
  private createdAt: string | undefined;
  private doneReason = 'stop';
  private lastUsage: UsageEvent | undefined;

  /** @param options Model, the choice to write, `createdAt`, reasoning. */
  constructor(options: OllamaEncoderOptions = {}) {
    this.response = new ResponseIdentity(options, '');
    this.choices = options.choice ?? 0;
    this.createdAt = options.createdAt;
  }

  metadata(event: MetadataEvent): void {
    this.response.metadata(event);
  }

  text(_choice: number, text: string): void {
    if (text !== '') this.line({ role: 'assistant', content: text });
  }

  reasoning(_choice: number, text: string): void {
    // Ollama's `thinking` has no signature: a signature-only piece has nothing to write.
    if (text !== '') this.line({ role: 'assistant', content: '', thinking: text });
  }

  reasoningEnd(): void {
    // The thinking went out as it came; Ollama has no end of a part (nor redacted parts).
  }

  toolCallDelta(): void {
    // Ollama's tool calls are whole: each is written when it completes.
  }

  toolCallEnd(call: EncodedCall, judge: CallJudge): void {
    // Only a runnable call can be written (arguments as an object): a call that failed or was cut
    // is left out (the `done_reason` says why, e.g. `length`).
    const outcome = judge.outcome();
    if (outcome.status !== 'complete' || !isObject(outcome.value)) return;
    // The id only when the source sent one (Ollama's own lines often carry none).
    const entry = { ...(call.wireId === undefined ? {} : { id: call.id }), function: { name: call.name, arguments: outcome.value } };
    this.line({ role: 'assistant', content: '', tool_calls: [entry] });
  }

  finish(_choice: number, reason: FinishReason, rawReason: string): void {
    // Ollama says `stop` for a turn that called tools too; `length` for a token limit.
    this.doneReason = reason === 'stop' || reason === 'tool-calls' ? 'stop' : reason === 'length' ? 'length' : rawReason || reason;
  }

  usage(event: UsageEvent): void {
    this.lastUsage = event;
  }

  end(): void {
    const usage = this.lastUsage;
    this.out += `${JSON.stringify({
      model: this.response.model,
      created_at: this.time(),
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: this.doneReason,
      ...(usage?.inputTokens === undefined ? {} : { prompt_eval_count: usage.inputTokens }),
      ...(usage?.outputTokens === undefined ? {} : { eval_count: usage.outputTokens }),
    })}\n`;
  }

  error(error: ProviderErrorInfo): void {
    this.out += `${JSON.stringify({ error: error.message })}\n`;
  }

  take(): string {
    const out = this.out;
    this.out = '';
    return out;
  }

  private time(): string {
    return (this.createdAt ??= new Date().toISOString());
  }

  private line(message: Record<string, unknown>): void {
    this.out += `${JSON.stringify({ model: this.response.model, created_at: this.time(), message, done: false })}\n`;
  }
}
