/**
 * `encodeOllamaChat()`: any provider's {@link StreamEvent}s → Ollama `/api/chat` NDJSON, and its
 * writer (resolved events → NDJSON lines, as Ollama streams them).
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, MetadataEvent, StreamEvent, UsageEvent } from '../../events';
import { aChoice, encodeWith, type EncodeOptions } from './encodeWith';
import { ResponseIdentity, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from './encoding';
import { aString, type OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link encodeOllamaChat} takes. */
const OLLAMA_CHAT_OPTION_CHECKS: OptionChecks = { choice: aChoice, createdAt: aString };

/** Options of {@link encodeOllamaChat}. */
export interface EncodeOllamaChatOptions extends EncoderOptions, EncodeOptions {
  /** The one choice written (Ollama answers with one). Default 0; events of other choices are left out. */
  readonly choice?: number;
  /** The `created_at` of every line (an ISO 8601 time). Default: the time of the stream's first line. */
  readonly createdAt?: string;
}

/**
 * Write any provider's stream as Ollama's native `/api/chat` NDJSON, live: what a gateway sends to
 * clients of the Ollama API (the `ollama` npm client, Open WebUI, …).
 *
 * <span class="informal">Normalised events in, `{"model":…,"message":{…},"done":false}\n` lines
 * out, one string per event that has something to say, ready for `response.write()`.</span>
 *
 * ```text
 * --m--t--r--x--x--e--f--u--d|     m: metadata, t: text-delta, r: reasoning-delta, x: fragments of call X,
 *                                  e: X's end, f: finish (tool-calls), u: usage, d: done
 *   encodeOllamaChat()
 * -----a--b--------c--------g|     a: message.content, b: message.thinking, c: message.tool_calls (X whole,
 *                                  arguments as an object), g: done: true, done_reason "stop", counts
 *
 * --t--x--#                        #: a provider error (`provider-error` error)
 *   encodeOllamaChat()
 * --a--(e|)                        e: {"error":"<the provider's message>"}, then complete
 * ```
 *
 * 1. Every line has `model` (the option, else the source's, else `'unknown'`), `created_at` (the
 *    `createdAt` option, else the time of the first line), `message` (`role: "assistant"`) and
 *    `done`. Text goes in `message.content`, reasoning in `message.thinking` (signatures and
 *    redacted parts have no Ollama form; `reasoning: 'drop'` leaves reasoning out).
 * 2. Calls are whole: each is written when it completes, as one `message.tool_calls` entry with
 *    `function.name` and `function.arguments` (the parsed object; `id` only when the source sent
 *    one). A call that failed or was cut is left out, as Ollama cannot express it.
 * 3. The last line: `"done": true`, `done_reason` (`stop`, also for a turn that called tools;
 *    `length`; the source's own string otherwise), `prompt_eval_count` and `eval_count` from the
 *    usage when known. Written at the source's `done`, or when it completes after sending anything.
 * 4. Errors: a `provider-error` error becomes `{"error":"…"}` (what Ollama's clients throw) and the
 *    output completes; any other error is passed on without the last line (destroy the response: a
 *    client sees a cut). Only `choice` (default 0) is written.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import type { StreamEvent } from 'rxjs-tool-calls';
 * import { encodeOllamaChat } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeOllamaChat({ model: 'qwen3', createdAt: '2025-01-01T00:00:00.000Z' })).subscribe((ndjson) => console.log(ndjson));
 * // displays: {"model":"qwen3","created_at":"2025-01-01T00:00:00.000Z","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}
 * //           {"model":"qwen3","created_at":"2025-01-01T00:00:00.000Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}
 * ```
 *
 * @param options `model`, `createdAt`, `choice`, `reasoning`, and the tracker's `generateId`,
 *   `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to NDJSON text (one or more whole lines per string).
 */
export function encodeOllamaChat(options: EncodeOllamaChatOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith('encodeOllamaChat', OLLAMA_CHAT_OPTION_CHECKS, () => new OllamaChatEncoder(options), options);
}

// ---- The writer ------------------------------------------------------------------------------------

/** Whether a value can be a call's `arguments` (a JSON object). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes one Ollama chat stream: a line per text or thinking piece, each call whole when it
 * completes, and the last line (`"done": true`, `done_reason`, the counts).
 */
class OllamaChatEncoder implements WireEncoder {
  readonly provider = 'ollama' as const;
  readonly choices: number;
  readonly restatesArguments = true;
  private out = '';
  private readonly response: ResponseIdentity;
  private createdAt: string | undefined;
  private doneReason = 'stop';
  private lastUsage: UsageEvent | undefined;

  /** @param options Model, the choice to write, `createdAt`, reasoning. */
  constructor(options: EncodeOllamaChatOptions = {}) {
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
