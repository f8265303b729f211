/**
 * The Bedrock `ConverseStream` writer: resolved events → `messageStart`, content blocks,
 * `messageStop`, `metadata`, and the AWS event-stream frames that carry them.
 *
 * The encoder writes text, as every {@link WireEncoder} does: one line per frame,
 * `<message-type>:<name> <payload JSON>\n` (`event:contentBlockDelta {…}`,
 * `exception:throttlingException {…}`); {@link converseFrames} turns those lines into the binary
 * frames (`:message-type`, `:event-type` or `:exception-type`, `:content-type: application/json`).
 *
 * @module
 */
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, ReasoningPart, UsageEvent } from '../../events';
import type { EventStreamHeaderValue, EventStreamWriter } from '../../framing/eventStream';
import { totalOf, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from '../encoding';

/** Options of the Converse encoder. */
export interface BedrockConverseEncoderOptions extends EncoderOptions {
  /** The one choice written (a Converse answer has one). Default 0; events of other choices are left out. */
  readonly choice?: number;
}

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
export function converseExceptionType(error: ProviderErrorInfo): string {
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
export class BedrockConverseEncoder implements WireEncoder {
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
  constructor(options: BedrockConverseEncoderOptions = {}) {
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
export function converseFrames(writer: EventStreamWriter, text: string): Uint8Array {
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
