/**
 * `encodeOpenAIChat()`: any provider's {@link StreamEvent}s → OpenAI Chat Completions SSE, and
 * its writer (resolved events → `chat.completion.chunk` SSE, `[DONE]`).
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, MetadataEvent, StreamEvent, UsageEvent } from '../../events';
import { aTimeInSeconds, encodeWith, type EncodeOptions } from './encodeWith';
import { ResponseIdentity, SseWriter, totalOf, type EncodedCall, type EncoderOptions, type WireEncoder } from './encoding';
import { aBoolean, oneOf, type OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link encodeOpenAIChat} takes. */
const OPENAI_CHAT_OPTION_CHECKS: OptionChecks = { created: aTimeInSeconds, reasoningField: /* @__PURE__ */ oneOf(['reasoning_content', 'reasoning']), includeUsage: aBoolean };

/** Options of {@link encodeOpenAIChat}. */
export interface EncodeOpenAIChatOptions extends EncoderOptions, EncodeOptions {
  /** The `created` time to write, in seconds since the epoch. Default: the time of subscription. */
  readonly created?: number;
  /** The delta field reasoning goes in: `reasoning_content` (DeepSeek, xAI, Qwen, vLLM; the default) or `reasoning` (Groq, OpenRouter, Ollama). */
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
  /** Write the usage chunk (`choices: []`) before `[DONE]`, as `stream_options.include_usage` asks. Default `true`. */
  readonly includeUsage?: boolean;
}

/**
 * Write any provider's stream as OpenAI Chat Completions SSE, live: what a gateway sends to clients
 * of the OpenAI API (or of any OpenAI-compatible one).
 *
 * <span class="informal">Normalised events in, `data: {"object":"chat.completion.chunk",…}` strings
 * out, one per event that has something to say, ready for `response.write()`.</span>
 *
 * ```text
 * --m--t--x--y--x--f--u--d|      m: metadata, t: text-delta, x, y: fragments of calls X and Y,
 *                                f: finish (tool-calls), u: usage, d: done
 *   encodeOpenAIChat()
 * -----a--b--c--e--g-----h|      a: role and content, b: X's first delta (index 0, id, type, name),
 *                                c: Y's first delta (index 1), e: X's next fragment (index 0 only),
 *                                g: finish_reason "tool_calls", h: usage chunk (choices: []) and [DONE]
 *
 * --t--x--#                      #: a provider error (`provider-error` error)
 *   encodeOpenAIChat()
 * --a--b--(e|)                   e: data: {"error":{"message","type","param","code"}}, then complete
 *
 * --t--x--#                      #: truncated, or any other error
 *   encodeOpenAIChat()
 * --a--b--#                      the same error: no [DONE] is ever written
 * ```
 *
 * 1. Live: text, reasoning and argument fragments are written as they arrive. A whole value
 *    (`replace`: Gemini parts, Anthropic `input`) is written with the call's next event.
 * 2. Identity: which call a fragment belongs to is decided by the same tracker the readers use
 *    (wire index, then id, then continuation), so streams without an index (Mistral) or reusing one
 *    (Copilot) come out right. `tool_calls[].index` is 0, 1, 2, … per choice in order of first
 *    sight; `id`, `type: "function"` and the name go on a call's first delta only (a name that arrives
 *    later goes on the delta where it arrives). The id is the source's (`toolu_…`, `call_…`), or the
 *    tracker's generated one when the source has none (Gemini).
 * 3. Reasoning goes in `reasoning_content` (or `reasoning`, with `reasoningField`); signatures have
 *    no place in a chat delta and are left out; `reasoning: 'drop'` leaves reasoning out.
 *    A Gemini thought signature of a call goes in `extra_content.google.thought_signature`.
 * 4. Finish: `stop`, `tool_calls`, `length`, `content_filter`, `error`; for `other` the source's own
 *    string. A choice the source never finished gets `tool_calls` (it had calls) or `stop` when the
 *    stream ends, as clients require one. The first delta of each choice carries `role: "assistant"`.
 * 5. Usage: at the end, a chunk with `choices: []` and `usage` (`prompt_tokens`, `completion_tokens`,
 *    `total_tokens` (input + output when the source sent no total), `prompt_tokens_details.cached_tokens`,
 *    `completion_tokens_details.reasoning_tokens` when known); `includeUsage: false` leaves it out.
 *    Then `data: [DONE]`. The end is written at the source's `done`, or when it completes after
 *    sending anything.
 * 6. Errors: a `provider-error` error from the source becomes a `data: {"error":{…}}` event (the provider's
 *    message, type and code) and the output completes. Any other error (`truncated`,
 *    `idle-timeout`, …) is passed on without writing `[DONE]`: destroy the response then (a
 *    client sees a cut, never a clean end). Arguments a source replaces after others were written
 *    cannot be taken back in chat: that ends the output with `invalid-event`.
 * 7. Chat has no end of a single call: a call the source cut reads back `incomplete` only when its
 *    choice finishes with `length`, `content_filter` or `error`.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { fromResponse, readStreamEvents } from 'rxjs-tool-calls';
 * import { encodeOpenAIChat } from 'rxjs-tool-calls/gateway';
 *
 * declare const anthropicInit: RequestInit; // the upstream request: method, headers, body with stream: true
 *
 * http.createServer(async (req, res) => {
 *   const upstream = await fetch('https://api.anthropic.com/v1/messages', anthropicInit);
 *   res.writeHead(200, { 'content-type': 'text/event-stream' });
 *   const subscription = fromResponse(upstream)
 *     .pipe(readStreamEvents(), encodeOpenAIChat({ model: 'claude-sonnet-4-5' }))
 *     .subscribe({ next: (sse) => res.write(sse), complete: () => res.end(), error: () => res.destroy() });
 *   res.on('close', () => subscription.unsubscribe()); // a client that goes away aborts the upstream
 * }).listen(8080);
 * ```
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { type StreamEvent } from 'rxjs-tool-calls';
 * import { encodeOpenAIChat } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 1, id: 'toolu_1', name: 'get_weather', argumentsDelta: '{"city":' },
 *   { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '"Paris"}' },
 * ];
 * from(events).pipe(encodeOpenAIChat({ id: 'chatcmpl-1', model: 'gpt-4o', created: 0 })).subscribe((sse) => console.log(sse));
 * // displays: data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"toolu_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]},"finish_reason":null}]}
 * //           data: {"id":"chatcmpl-1",…,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]},"finish_reason":null}]}
 * //           data: {"id":"chatcmpl-1",…,"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
 * //           data: [DONE]
 * ```
 *
 * @param options `model`, `id`, `created` (seconds), `reasoning`, `reasoningField`, `includeUsage`,
 *   and the tracker's `generateId`, `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeOpenAIChat(options: EncodeOpenAIChatOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith('encodeOpenAIChat', OPENAI_CHAT_OPTION_CHECKS, () => new OpenAIChatEncoder(options), options);
}

// ---- The writer ------------------------------------------------------------------------------------

/** What the chat wire calls each normalised finish reason. */
const FINISH: Record<FinishReason, string | undefined> = {
  stop: 'stop',
  'tool-calls': 'tool_calls',
  length: 'length',
  'content-filter': 'content_filter',
  error: 'error',
  other: undefined,
};

/** One call as written so far. */
interface ChatCall {
  /** `tool_calls[].index`: 0, 1, 2, … per choice in order of first sight. */
  readonly index: number;
  /** The name written so far (a name that grows, rule `name-pieces`, is written piece by piece, as chat servers do). */
  nameSent: string;
  signatureSent: boolean;
  /** The SSE text of an arguments-only delta up to the arguments' JSON (built once, for the hot path). */
  prefix?: string;
  /** A custom tool's call: `type: "custom"`, its text in `custom.input`. */
  readonly custom: boolean;
}

/** The thought signature a call carries in its metadata (Gemini), if any. */
function signatureOf(call: EncodedCall): string | undefined {
  const value = call.metadata?.['thoughtSignature'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Writes one OpenAI chat stream (`choices[]` per choice, tool calls per choice, `[DONE]`). */
class OpenAIChatEncoder implements WireEncoder {
  readonly provider = 'openai-chat' as const;
  readonly choices = 'all' as const;
  readonly restatesArguments = false;
  readonly customCalls = true;
  private readonly out = new SseWriter();
  private readonly response: ResponseIdentity;
  private readonly created: number;
  private readonly reasoningField: string;
  private prefix: string | undefined;
  /** Choices whose `role` was written. */
  private readonly started = new Set<number>();
  /** Per choice, how many calls were opened. */
  private readonly callCount = new Map<number, number>();
  private readonly calls = new Map<number, ChatCall>();
  private lastUsage: UsageEvent | undefined;

  /** @param options Model, id, `created`, reasoning field and usage chunk. */
  constructor(private readonly options: EncodeOpenAIChatOptions = {}) {
    this.response = new ResponseIdentity(options, 'chatcmpl-');
    this.created = options.created ?? Math.floor(Date.now() / 1000);
    this.reasoningField = options.reasoningField ?? 'reasoning_content';
  }

  metadata(event: MetadataEvent): void {
    this.response.metadata(event);
  }

  text(choice: number, text: string): void {
    // A text part's signature (Gemini) has no place in a chat delta: it is left out.
    if (text !== '') this.chunk(choice, `{"content":${JSON.stringify(text)}}`);
  }

  reasoning(choice: number, text: string): void {
    // A signature has no place in a chat delta: it is left out.
    if (text !== '') this.chunk(choice, `{${JSON.stringify(this.reasoningField)}:${JSON.stringify(text)}}`);
  }

  reasoningEnd(): void {
    // A chat delta has no reasoning parts: their text went out as it came.
  }

  toolCallDelta(call: EncodedCall, append: string): void {
    let state = this.calls.get(call.seq);
    const signature = signatureOf(call);
    if (state !== undefined && state.nameSent === call.name && (state.signatureSent || signature === undefined)) {
      // The hot path: only argument text can be new (the choice's role went out with the call's first delta).
      if (append === '') return;
      state.prefix ??= `data: ${this.head()}{"index":${call.choice},"delta":{"tool_calls":[{"index":${state.index},${state.custom ? '"custom":{"input":' : '"function":{"arguments":'}`;
      this.out.raw(`${state.prefix}${JSON.stringify(append)}}}]},"finish_reason":null}]}\n\n`);
      return;
    }
    const entry: Record<string, unknown> = {};
    const fn: Record<string, string> = {};
    const created = state === undefined;
    if (state === undefined) {
      // The first delta of a call carries its id and type (and its name when known).
      const index = this.callCount.get(call.choice) ?? 0;
      this.callCount.set(call.choice, index + 1);
      state = { index, nameSent: '', signatureSent: false, custom: call.kind === 'custom' };
      this.calls.set(call.seq, state);
      entry['id'] = call.id;
      entry['type'] = state.custom ? 'custom' : 'function';
    }
    if (state.nameSent !== call.name && call.name.startsWith(state.nameSent)) {
      fn['name'] = call.name.slice(state.nameSent.length);
      state.nameSent = call.name;
    }
    if (created || append !== '') fn[state.custom ? 'input' : 'arguments'] = append;
    if (!state.signatureSent && signature !== undefined) {
      // Where Gemini's OpenAI-compatible endpoint puts it.
      state.signatureSent = true;
      entry['extra_content'] = { google: { thought_signature: signature } };
    }
    if (!created && fn['name'] === undefined && fn['arguments'] === undefined && fn['input'] === undefined && entry['extra_content'] === undefined) return;
    this.chunk(call.choice, JSON.stringify({ tool_calls: [{ index: state.index, ...entry, [state.custom ? 'custom' : 'function']: fn }] }));
  }

  toolCallEnd(call: EncodedCall): void {
    // Chat has no end of a call: calls end with their choice. A call closed unfinished reads back
    // `incomplete` only when its choice finishes with `length`; a failed call reads back failed.
    if (!this.calls.has(call.seq)) this.toolCallDelta(call, '');
  }

  finish(choice: number, reason: FinishReason, rawReason: string): void {
    this.chunk(choice, '{}', FINISH[reason] ?? (rawReason || 'stop'));
  }

  usage(event: UsageEvent): void {
    this.lastUsage = event;
  }

  end(): void {
    const usage = this.lastUsage;
    if (usage !== undefined && this.options.includeUsage !== false) {
      const body = {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: totalOf(usage),
        prompt_tokens_details: usage.cachedInputTokens === undefined ? undefined : { cached_tokens: usage.cachedInputTokens },
        completion_tokens_details: usage.reasoningTokens === undefined ? undefined : { reasoning_tokens: usage.reasoningTokens },
      };
      this.out.data(`${this.head()}],"usage":${JSON.stringify(body)}}`);
    }
    this.out.data('[DONE]');
  }

  error(error: ProviderErrorInfo): void {
    const type = error.type ?? (error.retryable ? 'server_error' : 'invalid_request_error');
    // Groq's `failed_generation` (the rejected output) goes where Groq puts it.
    this.out.json({ error: { message: error.message, type, param: null, code: error.providerCode ?? null, failed_generation: error.failedGeneration } });
  }

  take(): string {
    return this.out.take();
  }

  /** The chunk's fields up to the opening bracket of `choices`, the same on every chunk. */
  private head(): string {
    return (this.prefix ??= `{"id":${JSON.stringify(this.response.id)},"object":"chat.completion.chunk","created":${this.created},"model":${JSON.stringify(this.response.model)},"choices":[`);
  }

  /** One chunk for one choice; `delta` is JSON text of an object. The first delta of a choice carries its `role`. */
  private chunk(choice: number, delta: string, finishReason: string | null = null): void {
    let body = delta;
    if (!this.started.has(choice)) {
      this.started.add(choice);
      body = delta === '{}' ? '{"role":"assistant"}' : `{"role":"assistant",${delta.slice(1)}`;
    }
    this.out.data(`${this.head()}{"index":${choice},"delta":${body},"finish_reason":${finishReason === null ? 'null' : JSON.stringify(finishReason)}}]}`);
  }
}
