/**
 * `encodeBedrockConverse()`: any provider's {@link StreamEvent}s → AWS Bedrock `ConverseStream`
 * event-stream frames, and its writer (resolved events → `messageStart`, content blocks,
 * `messageStop`, `metadata`). The writer writes text, as every `WireEncoder` does: one line per
 * frame, `<message-type>:<name> <payload JSON>\n` (`event:contentBlockDelta {…}`,
 * `exception:throttlingException {…}`); `converseFrames()` turns those lines into the binary frames
 * (`:message-type`, `:event-type` or `:exception-type`, `:content-type: application/json`).
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, ReasoningPart, StreamEvent, UsageEvent } from '../../events';
import type { EventStreamHeaderValue } from '../../framing/eventStream';
import { operate } from '../../internal/operate';
import { aChoice, encodeWith, type EncodeOptions } from './encodeWith';
import { EventStreamWriter } from './eventStreamWriter';
import { totalOf, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from './encoding';
import type { OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link encodeBedrockConverse} takes. */
const BEDROCK_CONVERSE_OPTION_CHECKS: OptionChecks = { choice: aChoice };

/** Options of {@link encodeBedrockConverse}. */
export interface EncodeBedrockConverseOptions extends EncoderOptions, EncodeOptions {
  /** The one choice written (a Converse answer has one). Default 0; events of other choices are left out. */
  readonly choice?: number;
}

/**
 * Write any provider's stream as an AWS Bedrock `ConverseStream` answer, live: the
 * `application/vnd.amazon.eventstream` frames an AWS SDK client (`BedrockRuntimeClient` with
 * `ConverseStreamCommand`) reads, for a gateway that speaks Bedrock to its clients.
 *
 * <span class="informal">Normalised events in, binary frames out (one `Uint8Array` per event that
 * has something to say, ready for `response.write()`), each frame checksummed.</span>
 *
 * ```text
 * --t--x--x--e--f--u--d|     t: text-delta, x: fragments of call X, e: X's end, f: finish (tool-calls), u: usage, d: done
 *   encodeBedrockConverse()
 * --a--b--c--g--------h|     a: messageStart + contentBlockDelta (text, block 0), b: contentBlockStop 0 +
 *                            contentBlockStart 1 (toolUse: toolUseId, name) + contentBlockDelta (toolUse.input),
 *                            c: contentBlockDelta (toolUse.input), g: contentBlockStop 1,
 *                            h: messageStop (stopReason tool_use) + metadata (usage)
 *
 * --t--x--#                  #: a provider error (`provider-error` error)
 *   encodeBedrockConverse()
 * --a--b--(e|)               e: an exception frame (throttlingException, …, {"message"}), then complete
 * ```
 *
 * 1. Every frame has `:message-type: event`, its `:event-type` and `:content-type:
 *    application/json`; the payload is the event's JSON. Blocks are numbered 0, 1, 2, … in the
 *    order they start (`contentBlockIndex`); a text or reasoning block is stopped when another block
 *    starts; text blocks have no `contentBlockStart` (as Bedrock sends them), tool blocks open with
 *    `start.toolUse` (`toolUseId`: the source's id, or the generated one; `name`).
 * 2. Live: text (`delta.text`), reasoning (`delta.reasoningContent.text`, signatures as
 *    `reasoningContent.signature`, a redacted part as `reasoningContent.redactedContent`) and
 *    argument fragments (`delta.toolUse.input`) are written as they arrive; a whole value
 *    (`replace`) with the call's next event. A call ends with `contentBlockStop`; a call the source
 *    cut gets none, so readers report it `incomplete`.
 * 3. The end: `messageStop` with `stopReason` (`end_turn`, `tool_use`, `max_tokens`,
 *    `content_filtered`; the source's own string for `error` and `other`; a choice the source never
 *    finished gets `tool_use` or `end_turn`), then `metadata` with `usage` when the source reported
 *    any (`inputTokens` without the cache, `cacheReadInputTokens`, `cacheWriteInputTokens`,
 *    `outputTokens`, `totalTokens`): at the source's `done`, or when it completes after sending
 *    anything. Converse carries no model, response id or metrics: none are written.
 * 4. Errors: a `provider-error` error becomes an exception frame (`:message-type: exception`) of
 *    the union's exceptions (its own when it is one; else by status: 429 `throttlingException`,
 *    424 `modelStreamErrorException`, 503 `serviceUnavailableException`, 5xx
 *    `internalServerException`, 4xx `validationException`; without a status by `retryable`) with
 *    `{"message"}`, and the output completes; the AWS SDK throws it as that exception. Any other
 *    error is passed on without `messageStop` (destroy the response: a client sees a cut).
 *    Arguments a source replaces after others were written cannot be taken back: that ends the
 *    output with `invalid-event`. Only `choice` (default 0) is written.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { fromResponse, readStreamEvents } from 'rxjs-tool-calls';
 * import { encodeBedrockConverse } from 'rxjs-tool-calls/gateway';
 *
 * declare const openaiInit: RequestInit; // the upstream request: method, headers, body with stream: true
 *
 * http.createServer(async (req, res) => {
 *   const upstream = await fetch('https://api.openai.com/v1/chat/completions', openaiInit);
 *   res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
 *   const subscription = fromResponse(upstream)
 *     .pipe(readStreamEvents(), encodeBedrockConverse())
 *     .subscribe({ next: (frames) => res.write(frames), complete: () => res.end(), error: () => res.destroy() });
 *   res.on('close', () => subscription.unsubscribe());
 * }).listen(8080);
 * ```
 *
 * @param options `choice`, `reasoning`, and the tracker's `generateId`, `maxToolCalls`,
 *   `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to event-stream bytes (one or more whole frames per chunk).
 */
export function encodeBedrockConverse(options: EncodeBedrockConverseOptions = {}): OperatorFunction<StreamEvent, Uint8Array> {
  const lines = encodeWith('encodeBedrockConverse', BEDROCK_CONVERSE_OPTION_CHECKS, () => new BedrockConverseEncoder(options), options);
  const frames = operate<string, Uint8Array>((subscriber) => {
    const writer = new EventStreamWriter();
    return { next: (text) => subscriber.next(converseFrames(writer, text)) };
  });
  return (source) => frames(lines(source));
}

// ---- The writer ------------------------------------------------------------------------------------

/** What Converse calls each normalised finish reason (`error` and `other` keep the source's own string). */
const STOP: Record<FinishReason, string | undefined> = {
  stop: 'end_turn',
  'tool-calls': 'tool_use',
  length: 'max_tokens',
  'content-filter': 'content_filtered',
  error: undefined,
  other: undefined,
};

/** The exceptions a `ConverseStream` answer can carry (the members of its event union). */
const STREAM_EXCEPTIONS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
  'throttlingException',
  'serviceUnavailableException',
]);

/** The Converse exception for a provider error: its own when it is one, else one from its status and retryability. */
function converseExceptionType(error: ProviderErrorInfo): string {
  if (error.type !== undefined && STREAM_EXCEPTIONS.has(error.type)) return error.type;
  const status = error.status;
  if (status === 429) return 'throttlingException';
  if (status === 424) return 'modelStreamErrorException';
  if (status === 503 || status === 529) return 'serviceUnavailableException';
  if (status !== undefined && status >= 500) return 'internalServerException';
  if (status !== undefined && status >= 400) return 'validationException';
  return error.retryable ? 'serviceUnavailableException' : 'validationException';
}

/** Writes one Converse answer: blocks numbered in order of their start, text and reasoning closed when another block starts. */
class BedrockConverseEncoder implements WireEncoder {
  readonly provider = 'bedrock-converse' as const;
  readonly choices: number;
  readonly restatesArguments = false;
  private out = '';
  private started = false;
  private blocks = 0;
  /** The open text or reasoning block (`signed`: a reasoning block whose signature was written). */
  private open: { readonly kind: 'text' | 'reasoning'; readonly index: number; signed: boolean } | undefined;
  /** Tool blocks by call, with their content-block index. */
  private readonly tools = new Map<number, number>();
  private lastUsage: UsageEvent | undefined;
  private stopReason = 'end_turn';

  /** @param options The choice to write, reasoning (`model` and `id`: Converse streams carry neither). */
  constructor(options: EncodeBedrockConverseOptions = {}) {
    this.choices = options.choice ?? 0;
  }

  metadata(): void {
    // A Converse stream names no response id and no model.
  }

  text(_choice: number, text: string): void {
    if (text === '') return; // a text part's signature (Gemini) has no Converse form
    const index = this.index('text');
    this.event('contentBlockDelta', `{"contentBlockIndex":${index},"delta":{"text":${JSON.stringify(text)}}}`);
  }

  reasoning(_choice: number, text: string, signature: string | undefined): void {
    const signed = signature !== undefined && signature !== '';
    if (text === '' && !signed) return;
    // A signature ends its block: more reasoning after it is a new block.
    if (this.open?.kind === 'reasoning' && this.open.signed) this.closeOpen();
    const index = this.index('reasoning');
    if (text !== '') this.delta(index, { text });
    if (signed) this.sign(index, signature);
  }

  reasoningEnd(_choice: number, part: ReasoningPart): void {
    if (part.redacted !== undefined) {
      this.start();
      this.closeOpen();
      const index = this.blocks++;
      this.delta(index, { redactedContent: part.redacted });
      this.event('contentBlockStop', `{"contentBlockIndex":${index}}`);
      return;
    }
    // A part that came whole (no deltas) is written whole; its signature once.
    if (this.open?.kind !== 'reasoning') {
      if (part.text === '' && part.signature === undefined) return;
      const index = this.index('reasoning');
      if (part.text !== '') this.delta(index, { text: part.text });
    }
    const open = this.open;
    if (open?.kind === 'reasoning') {
      if (!open.signed && part.signature !== undefined && part.signature !== '') this.sign(open.index, part.signature);
      this.closeOpen();
    }
  }

  toolCallDelta(call: EncodedCall, append: string): void {
    let index = this.tools.get(call.seq);
    if (index === undefined) {
      // A toolUse block starts with its name: wait for it unless arguments come first.
      if (call.name === '' && append === '') return;
      index = this.startTool(call);
    }
    if (append !== '') this.event('contentBlockDelta', `{"contentBlockIndex":${index},"delta":{"toolUse":{"input":${JSON.stringify(append)}}}}`);
  }

  toolCallEnd(call: EncodedCall, judge: CallJudge): void {
    const index = this.tools.get(call.seq) ?? this.startTool(call);
    // A block left without its stop is read as cut off (`incomplete`).
    if (!judge.incomplete()) this.event('contentBlockStop', `{"contentBlockIndex":${index}}`);
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
    this.event('messageStop', JSON.stringify({ stopReason: this.stopReason }));
    const usage = this.lastUsage;
    if (usage === undefined) return;
    // `inputTokens` leaves the cache reads and writes out (normalised input counts all three).
    const read = usage.cachedInputTokens;
    const write = usage.cacheWriteInputTokens;
    const fields: Record<string, number> = {};
    if (usage.inputTokens !== undefined) fields['inputTokens'] = Math.max(0, usage.inputTokens - (read ?? 0) - (write ?? 0));
    if (usage.outputTokens !== undefined) fields['outputTokens'] = usage.outputTokens;
    const total = totalOf(usage);
    if (total !== undefined) fields['totalTokens'] = total;
    if (read !== undefined) fields['cacheReadInputTokens'] = read;
    if (write !== undefined) fields['cacheWriteInputTokens'] = write;
    this.event('metadata', JSON.stringify({ usage: fields }));
  }

  error(error: ProviderErrorInfo): void {
    this.out += `exception:${converseExceptionType(error)} ${JSON.stringify({ message: error.message })}\n`;
  }

  take(): string {
    const out = this.out;
    this.out = '';
    return out;
  }

  private event(name: string, json: string): void {
    this.out += `event:${name} ${json}\n`;
  }

  /** `messageStart`, once, before the first block. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    this.event('messageStart', '{"role":"assistant"}');
  }

  /** The index of the open block of `kind`, starting one (and closing the other kind) when needed; text and reasoning blocks have no `contentBlockStart`. */
  private index(kind: 'text' | 'reasoning'): number {
    if (this.open?.kind === kind) return this.open.index;
    this.start();
    this.closeOpen();
    const index = this.blocks++;
    this.open = { kind, index, signed: false };
    return index;
  }

  private delta(index: number, reasoningContent: Record<string, string>): void {
    this.event('contentBlockDelta', JSON.stringify({ contentBlockIndex: index, delta: { reasoningContent } }));
  }

  private sign(index: number, signature: string): void {
    this.delta(index, { signature });
    if (this.open !== undefined) this.open.signed = true;
  }

  private closeOpen(): void {
    if (this.open === undefined) return;
    this.event('contentBlockStop', `{"contentBlockIndex":${this.open.index}}`);
    this.open = undefined;
  }

  /** Start a tool block; text after it opens a new text block. */
  private startTool(call: EncodedCall): number {
    this.start();
    this.closeOpen();
    const index = this.blocks++;
    this.tools.set(call.seq, index);
    this.event('contentBlockStart', JSON.stringify({ contentBlockIndex: index, start: { toolUse: { toolUseId: call.id, name: call.name } } }));
    return index;
  }
}

const JSON_CONTENT: EventStreamHeaderValue = { type: 'string', value: 'application/json' };
const EVENT: EventStreamHeaderValue = { type: 'string', value: 'event' };
const EXCEPTION: EventStreamHeaderValue = { type: 'string', value: 'exception' };

/**
 * The event-stream frames of the encoder's lines (see the module), joined in one chunk: each
 * `event:` line a frame with `:message-type: event` and `:event-type`, each `exception:` line one
 * with `:message-type: exception` and `:exception-type`, both with `:content-type: application/json`.
 */
function converseFrames(writer: EventStreamWriter, text: string): Uint8Array {
  const frames: Uint8Array[] = [];
  let size = 0;
  let pos = 0;
  while (pos < text.length) {
    const lf = text.indexOf('\n', pos);
    const end = lf === -1 ? text.length : lf;
    const colon = text.indexOf(':', pos);
    const space = text.indexOf(' ', colon);
    const exception = text.startsWith('exception', pos);
    const name: EventStreamHeaderValue = { type: 'string', value: text.slice(colon + 1, space) };
    const headers = exception ? { ':exception-type': name, ':content-type': JSON_CONTENT, ':message-type': EXCEPTION } : { ':event-type': name, ':content-type': JSON_CONTENT, ':message-type': EVENT };
    const frame = writer.frame(headers, text.slice(space + 1, end));
    frames.push(frame);
    size += frame.length;
    pos = end + 1;
  }
  if (frames.length === 1) return frames[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const frame of frames) {
    out.set(frame, at);
    at += frame.length;
  }
  return out;
}
