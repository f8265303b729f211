/**
 * `encodeAnthropicMessages()`: any provider's {@link StreamEvent}s → Anthropic Messages SSE, and
 * its writer (resolved events → `message_start`, content blocks, `message_delta`, `message_stop`).
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, MetadataEvent, ProviderToolEvent, ReasoningPart, StreamEvent, UsageEvent } from '../../events';
import { aChoice, encodeWith, type EncodeOptions } from './encodeWith';
import { ResponseIdentity, SseWriter, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from './encoding';
import type { OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link encodeAnthropicMessages} takes. */
const ANTHROPIC_MESSAGES_OPTION_CHECKS: OptionChecks = { choice: aChoice };

/** Options of {@link encodeAnthropicMessages}. */
export interface EncodeAnthropicMessagesOptions extends EncoderOptions, EncodeOptions {
  /** The one choice written (a message has one). Default 0; events of other choices are left out. */
  readonly choice?: number;
}

/**
 * Write any provider's stream as Anthropic Messages SSE, live: content blocks numbered in order,
 * `content_block_start` / `content_block_stop` around each.
 *
 * <span class="informal">Normalised events in, `event: message_start` … `event: message_stop`
 * strings out; text, thinking and tool_use blocks share one sequence of indices.</span>
 *
 * ```text
 * --m--u--r--t--x--x--e--t--f--d|     m: metadata, u: usage, r: reasoning, t: text-delta,
 *                                     x: fragments of call X, e: X's end, f: finish, d: done
 *   encodeAnthropicMessages()
 * --------a--b--c--g--h--i-----k|     a: message_start (input usage) + thinking block 0 + thinking_delta,
 *                                     b: block 0 stopped + text block 1 + text_delta, c: block 1 stopped +
 *                                     tool_use block 2 (id, name) + input_json_delta, g: input_json_delta,
 *                                     h: block 2 stopped, i: text block 3 + text_delta,
 *                                     k: block 3 stopped + message_delta (stop_reason, usage) + message_stop
 *
 * --t--x--#                           #: a provider error (`provider-error` error)
 *   encodeAnthropicMessages()
 * --a--b--(e|)                        e: event: error {"type":"error","error":{"type","message"}}, then complete
 *
 * --t--x--#                           #: truncated, or any other error
 *   encodeAnthropicMessages()
 * --a--b--#                           the same error: no message_stop is ever written
 * ```
 *
 * 1. Live: text (`text_delta`), thinking (`thinking_delta`, signatures as `signature_delta`) and
 *    argument fragments (`input_json_delta`) are written as they arrive. A tool_use block starts once
 *    its name is known (or its first arguments arrive), with `input: {}`; a whole value (`replace`) is
 *    written with the call's next event.
 * 2. Identity: calls are resolved by the readers' tracker (see `encodeOpenAIChat()`). Blocks are
 *    numbered 0, 1, 2, … in the order they start, text, thinking and tool_use alike; a text or
 *    thinking block is stopped when another block starts, so text after a tool block opens a new
 *    text block; calls may stay open side by side (interleaved fragments keep their own block index).
 *    The `tool_use` id is the source's (`call_…`, `toolu_…`: any string is accepted), or the
 *    generated one; an Anthropic source's `server_tool_use` / `mcp_tool_use` type and `caller` are kept.
 * 3. A call ends with `content_block_stop`; a call the source cut gets none (as Anthropic does at
 *    `max_tokens`), so readers report it `incomplete`.
 * 4. `message_start` is written before the first block, with the input usage known by then (an
 *    Anthropic source's), else 0. The end writes `message_delta` with `stop_reason` (`end_turn`,
 *    `tool_use`, `max_tokens`, `refusal`; the source's own string for `error` and `other`; a choice
 *    the source never finished gets `tool_use` or `end_turn`) and the whole-message usage
 *    (`output_tokens`, and `input_tokens`, `cache_read_input_tokens`, `output_tokens_details.thinking_tokens`
 *    when known), then `message_stop`: at the source's `done`, or when it completes after sending anything.
 * 5. Errors: a `provider-error` error becomes `event: error` with `{"type":"error","error":{"type","message"}}`
 *    (its own Anthropic type, else one from its status: `overloaded_error`, `rate_limit_error`,
 *    `api_error`, `invalid_request_error`, …) and the output completes; any other error is passed on
 *    without `message_stop` (destroy the response: a client sees a cut). Arguments a source replaces
 *    after others were written cannot be taken back: that ends the output with `invalid-event`. Only
 *    `choice` (default 0) is written: a message has one.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { type StreamEvent } from 'rxjs-tool-calls';
 * import { encodeAnthropicMessages } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'text-delta', choice: 0, text: 'Checking.' },
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeAnthropicMessages({ id: 'msg_1', model: 'claude-sonnet-4-5' })).subscribe((sse) => console.log(sse));
 * // displays: event: message_start … event: content_block_start
 * //           data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}} …
 * //           data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_1","name":"get_weather","input":{}}} …
 * //           data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":0}} …
 * ```
 *
 * @param options `model`, `id`, `choice`, `reasoning`, and the tracker's `generateId`,
 *   `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeAnthropicMessages(options: EncodeAnthropicMessagesOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith('encodeAnthropicMessages', ANTHROPIC_MESSAGES_OPTION_CHECKS, () => new AnthropicMessagesEncoder(options), options);
}

// ---- The writer ------------------------------------------------------------------------------------

/** What Anthropic calls each normalised finish reason (`error` and `other` keep the source's own string). */
const STOP: Record<FinishReason, string | undefined> = {
  stop: 'end_turn',
  'tool-calls': 'tool_use',
  length: 'max_tokens',
  'content-filter': 'refusal',
  error: undefined,
  other: undefined,
};

/** Anthropic error types by HTTP status. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** The Anthropic error type for a provider error: its own when it is one, else from the status and retryability. */
function errorType(error: ProviderErrorInfo): string {
  if (error.type !== undefined && /_error$/.test(error.type)) return error.type;
  const byStatus = error.status === undefined ? undefined : ERROR_TYPES[error.status];
  if (byStatus !== undefined) return byStatus;
  if (error.status === 503) return 'overloaded_error';
  return error.retryable ? 'api_error' : 'invalid_request_error';
}

/**
 * Anthropic's input fields from normalised usage: `input_tokens` counts the uncached input only,
 * beside the cache reads and writes (normalised `inputTokens` counts all three).
 */
function inputUsage(usage: UsageEvent | undefined): Record<string, number> {
  if (usage === undefined) return {};
  const read = usage.cachedInputTokens;
  const write = usage.cacheWriteInputTokens;
  const fields: Record<string, number> = {};
  if (usage.inputTokens !== undefined) fields['input_tokens'] = Math.max(0, usage.inputTokens - (read ?? 0) - (write ?? 0));
  if (read !== undefined) fields['cache_read_input_tokens'] = read;
  if (write !== undefined) fields['cache_creation_input_tokens'] = write;
  return fields;
}

/** A call's `caller` when it is Anthropic's (`direct`, or a server tool's with its `tool_id`); another format's (Responses' `program`) has no Anthropic form. */
function anthropicCaller(caller: unknown): unknown {
  if (typeof caller !== 'object' || caller === null) return undefined;
  const fields = caller as Record<string, unknown>;
  return fields['type'] === 'direct' || (typeof fields['type'] === 'string' && fields['type'] !== 'program' && typeof fields['tool_id'] === 'string') ? caller : undefined;
}

/** Writes one Anthropic Messages stream: blocks numbered in order of their start, text and thinking closed when another block starts. */
class AnthropicMessagesEncoder implements WireEncoder {
  readonly provider = 'anthropic' as const;
  readonly choices: number;
  readonly restatesArguments = false;
  private readonly out = new SseWriter();
  private readonly response: ResponseIdentity;
  private started = false;
  private blocks = 0;
  /** The open text or thinking block (`signed`: a thinking block whose signature was written). */
  private open: { readonly kind: 'text' | 'thinking'; readonly index: number; signed: boolean } | undefined;
  /** Tool blocks by call, with their content-block index. */
  private readonly tools = new Map<number, number>();
  /** Per tool block, the SSE text of an `input_json_delta` up to its JSON (built once, for the hot path). */
  private readonly prefixes = new Map<number, string>();
  private lastUsage: UsageEvent | undefined;
  private stopReason: string | null = null;
  /** An Anthropic source's server tool blocks (`server_tool_use`, `mcp_tool_use`) by id, held until their input is whole (the next block). */
  private serverUses: Map<string, Readonly<Record<string, unknown>>> | undefined;

  /** @param options Model, id, the choice to write, reasoning. */
  constructor(options: EncodeAnthropicMessagesOptions = {}) {
    this.response = new ResponseIdentity(options, 'msg_');
    this.choices = options.choice ?? 0;
  }

  metadata(event: MetadataEvent): void {
    this.response.metadata(event);
  }

  text(_choice: number, text: string): void {
    if (text === '') return; // a text part's signature (Gemini) has no Anthropic form
    const index = this.index('text');
    this.out.data(`{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}`, 'content_block_delta');
  }

  reasoning(_choice: number, text: string, signature: string | undefined): void {
    const signed = signature !== undefined && signature !== '';
    if (text === '' && !signed) return;
    // A signature ends its block: more thinking after it (Gemini's signed thought parts) is a new block.
    if (this.open?.kind === 'thinking' && this.open.signed) this.closeOpen();
    this.index('thinking');
    if (text !== '') this.delta({ type: 'thinking_delta', thinking: text });
    if (signed) this.sign(signature);
  }

  reasoningEnd(_choice: number, part: ReasoningPart): void {
    if (part.redacted !== undefined) {
      this.start();
      this.closeOpen();
      const index = this.blocks++;
      this.out.json({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: part.redacted } }, 'content_block_start');
      this.out.json({ type: 'content_block_stop', index }, 'content_block_stop');
      return;
    }
    // A part that came whole (no deltas) is written whole; its signature once.
    if (this.open?.kind !== 'thinking') {
      if (part.text === '' && part.signature === undefined) return;
      this.index('thinking');
      if (part.text !== '') this.delta({ type: 'thinking_delta', thinking: part.text });
    }
    if (this.open?.kind === 'thinking') {
      if (!this.open.signed && part.signature !== undefined && part.signature !== '') this.sign(part.signature);
      this.closeOpen();
    }
  }

  toolCallDelta(call: EncodedCall, append: string): void {
    let index = this.tools.get(call.seq);
    if (index === undefined) {
      // A tool_use block starts with its name: wait for it unless arguments come first.
      if (call.name === '' && append === '') return;
      index = this.startTool(call);
    }
    if (append === '') return;
    let prefix = this.prefixes.get(index);
    if (prefix === undefined) {
      prefix = `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"input_json_delta","partial_json":`;
      this.prefixes.set(index, prefix);
    }
    this.out.raw(`${prefix}${JSON.stringify(append)}}}\n\n`);
  }

  toolCallEnd(call: EncodedCall, judge: CallJudge): void {
    const index = this.tools.get(call.seq) ?? this.startTool(call);
    // A block left without its stop is read as cut off (`incomplete`), as Anthropic does at max_tokens.
    if (!judge.incomplete()) this.out.json({ type: 'content_block_stop', index }, 'content_block_stop');
  }

  /**
   * An Anthropic source's server-run tool, written back as its blocks: the use block (held until
   * its input is whole, then written before the next block) and its `*_tool_result` block whole;
   * and its `compaction` blocks, whole.
   */
  providerTool(event: ProviderToolEvent): void {
    const raw = event.raw;
    if (event.provider !== 'anthropic' || raw === undefined) return;
    const type = typeof raw['type'] === 'string' ? raw['type'] : '';
    if (type.endsWith('tool_use')) {
      (this.serverUses ??= new Map()).set(event.id, raw); // the last one seen has the whole input
      return;
    }
    // A `*_tool_result` block, or a `compaction` block (whole: its summary and encrypted content in the start).
    if (!type.endsWith('_tool_result') && type !== 'compaction') return;
    this.start();
    this.closeOpen();
    const index = this.blocks++;
    this.out.json({ type: 'content_block_start', index, content_block: raw }, 'content_block_start');
    this.out.json({ type: 'content_block_stop', index }, 'content_block_stop');
  }

  /** Write the held server tool use blocks (before the block that follows them). */
  private flushServerUses(): void {
    const uses = this.serverUses;
    if (uses === undefined || uses.size === 0) return;
    for (const use of uses.values()) {
      const { input, ...block } = use;
      const index = this.blocks++;
      this.out.json({ type: 'content_block_start', index, content_block: { ...block, input: {} } }, 'content_block_start');
      if (input !== undefined && !(typeof input === 'object' && input !== null && Object.keys(input).length === 0)) {
        this.out.json({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } }, 'content_block_delta');
      }
      this.out.json({ type: 'content_block_stop', index }, 'content_block_stop');
    }
    uses.clear();
  }

  finish(_choice: number, reason: FinishReason, rawReason: string): void {
    this.stopReason = STOP[reason] ?? (rawReason || 'end_turn');
  }

  usage(event: UsageEvent): void {
    this.lastUsage = event;
  }

  end(): void {
    this.start();
    this.closeOpen();
    const usage = this.lastUsage;
    this.out.json(
      {
        type: 'message_delta',
        delta: { stop_reason: this.stopReason, stop_sequence: null },
        // Whole-message totals: the output count always, the input counts when known.
        usage: { output_tokens: usage?.outputTokens ?? 0, ...inputUsage(usage), output_tokens_details: usage?.reasoningTokens === undefined ? undefined : { thinking_tokens: usage.reasoningTokens } },
      },
      'message_delta',
    );
    this.out.json({ type: 'message_stop' }, 'message_stop');
  }

  error(error: ProviderErrorInfo): void {
    this.out.json({ type: 'error', error: { type: errorType(error), message: error.message } }, 'error');
  }

  take(): string {
    return this.out.take();
  }

  /** `message_start`, once, before the first block (with the input usage known by then). */
  private start(): void {
    if (this.started) return;
    this.started = true;
    const usage = this.lastUsage;
    const message = {
      id: this.response.id,
      type: 'message',
      role: 'assistant',
      model: this.response.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, ...inputUsage(usage), output_tokens: usage?.outputTokens ?? 0 },
    };
    this.out.json({ type: 'message_start', message }, 'message_start');
  }

  /** The index of the open block of `kind`, starting one (and closing the other kind) when needed. */
  private index(kind: 'text' | 'thinking'): number {
    if (this.open?.kind === kind) return this.open.index;
    this.start();
    this.closeOpen();
    const index = this.blocks++;
    this.open = { kind, index, signed: false };
    const block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
    this.out.json({ type: 'content_block_start', index, content_block: block }, 'content_block_start');
    return index;
  }

  private sign(signature: string): void {
    this.delta({ type: 'signature_delta', signature });
    if (this.open !== undefined) this.open.signed = true;
  }

  private delta(delta: Record<string, string>): void {
    this.out.json({ type: 'content_block_delta', index: this.open?.index, delta }, 'content_block_delta');
  }

  /** Close the open text or thinking block, then write the server tool blocks held after it. */
  private closeOpen(): void {
    if (this.open !== undefined) {
      this.out.json({ type: 'content_block_stop', index: this.open.index }, 'content_block_stop');
      this.open = undefined;
    }
    this.flushServerUses();
  }

  /** Start a tool block; text after it opens a new text block. Keeps `server_tool_use` / `mcp_tool_use` and `caller` of an Anthropic source. */
  private startTool(call: EncodedCall): number {
    this.start();
    this.closeOpen();
    const index = this.blocks++;
    this.tools.set(call.seq, index);
    const sourceType = call.metadata?.['type'];
    const type = typeof sourceType === 'string' && sourceType.endsWith('tool_use') ? sourceType : 'tool_use';
    const caller = anthropicCaller(call.metadata?.['caller']);
    this.out.json({ type: 'content_block_start', index, content_block: { type, id: call.id, name: call.name, input: {}, ...(caller === undefined ? {} : { caller }) } }, 'content_block_start');
    return index;
  }
}
