/**
 * `encodeAgUi()`: any format's {@link StreamEvent}s → AG-UI events (what an AG-UI client such as
 * `HttpAgent`, CopilotKit or TanStack AI reads), and its writer.
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { MetadataEvent, ReasoningPart, StreamEvent, ToolApprovalRequestEvent, ToolResultEvent, UsageEvent } from '../../events';
import { safeStringify } from '../../internal/json';
import { aString, type OptionChecks } from '../../internal/options';
import { aChoice, encodeWith, type EncodeOptions } from './encodeWith';
import { randomTag, SseWriter, totalOf, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from './encoding';

/** The checks of the keys only {@link encodeAgUi} takes. */
const AG_UI_OPTION_CHECKS: OptionChecks = { choice: aChoice, threadId: aString, runId: aString };

/** Options of {@link encodeAgUi}. */
export interface EncodeAgUiOptions extends EncoderOptions, EncodeOptions {
  /** The run's `threadId` (`RUN_STARTED`, `RUN_FINISHED`): the `RunAgentInput`'s. Default: a generated one. */
  readonly threadId?: string;
  /** The run's `runId`: the `RunAgentInput`'s. Default: the source's response id, else a generated one. */
  readonly runId?: string;
  /** The one choice written (a run has one answer). Default 0; events of other choices are left out. */
  readonly choice?: number;
}

/**
 * Write any format's stream as AG-UI events, live: what a backend sends to an AG-UI client, from any
 * provider's stream.
 *
 * <span class="informal">Normalised events in, `data: {"type":"TEXT_MESSAGE_CONTENT",…}` strings
 * out; the run's text and calls belong to one assistant message.</span>
 *
 * ```text
 * --m--t--x--x--e--r--f--d|      m: metadata, t: text-delta, x: fragments of call X, e: X's end,
 *                                r: X's tool-result, f: finish, d: done
 *   encodeAgUi()
 * -----a--b--c--g--h-----k|      a: RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT;
 *                                b: TEXT_MESSAGE_END, TOOL_CALL_START, TOOL_CALL_ARGS; c: TOOL_CALL_ARGS;
 *                                g: TOOL_CALL_END; h: TOOL_CALL_RESULT; k: RUN_FINISHED
 *
 * --t--x--#                      #: a provider error (`provider-error` error)
 *   encodeAgUi()
 * --a--b--(e|)                   e: RUN_ERROR {message, code}, then complete
 * ```
 *
 * 1. Live: text (`TEXT_MESSAGE_CONTENT`), reasoning (`REASONING_MESSAGE_CONTENT`, inside
 *    `REASONING_START` … `REASONING_END`) and argument fragments (`TOOL_CALL_ARGS`) are written as
 *    they arrive. The text and the calls share one assistant message (`messageId`, each call's
 *    `parentMessageId`), as the client's reducer builds it; a text or reasoning message ends when a
 *    call or the other kind starts.
 * 2. Arguments are only ever appended, and AG-UI clients read them as written: a call the readers
 *    repair is written as its repaired text (copies of one document once, cumulative resends as the
 *    last); a custom tool's text is written as `{"input": text}`; arguments that arrive whole before
 *    any text of the call (Anthropic `input` in the block start) are written with the call's next
 *    event, as the source may still replace them. Every call ends with
 *    `TOOL_CALL_END` before the run does (the protocol has no cut call: one the source cut is read as
 *    complete).
 * 3. `tool-result` events are written as `TOOL_CALL_RESULT` (an output that is not text as JSON; an
 *    error or a denial as its text; progress values are left out), on the call they name; approval
 *    requests become the run's interrupt outcome (`reason: 'tool_approval'`, the call's id); a tool
 *    the provider ran is left out.
 * 4. The end: `RUN_FINISHED` with the usage (one `TokenUsage` entry: the model and the source's
 *    format) and, when approvals were asked for, the interrupt outcome. AG-UI has no finish reason.
 * 5. Errors: a `provider-error` becomes `RUN_ERROR` (the provider's message and code) and the output
 *    completes; any other error is passed on without `RUN_FINISHED` (destroy the response: the
 *    client sees a cut). Arguments a source replaces after others were written cannot be taken
 *    back: that ends the output with `invalid-event`. Only `choice` (default 0) is written.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { type StreamEvent } from 'rxjs-tool-calls';
 * import { encodeAgUi } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":' },
 *   { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeAgUi({ threadId: 'thread_1', runId: 'run_1', id: 'msg_1' })).subscribe((sse) => console.log(sse));
 * // displays: data: {"type":"RUN_STARTED","threadId":"thread_1","runId":"run_1"} …
 * //           data: {"type":"TOOL_CALL_START","toolCallId":"call_1","toolCallName":"get_weather","parentMessageId":"msg_1"} …
 * //           data: {"type":"TOOL_CALL_END","toolCallId":"call_1"} … data: {"type":"RUN_FINISHED","threadId":"thread_1","runId":"run_1"}
 * ```
 *
 * @param options `threadId`, `runId`, `id` (the assistant message's id), `model` (named in the
 *   usage), `choice`, `reasoning`, and the tracker's `generateId`, `maxToolCalls`,
 *   `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeAgUi(options: EncodeAgUiOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith('encodeAgUi', AG_UI_OPTION_CHECKS, () => new AgUiEncoder(options), options);
}

// ---- The writer ------------------------------------------------------------------------------------

/** The open text or reasoning message. */
interface OpenMessage {
  readonly kind: 'text' | 'reasoning';
  readonly id: string;
  /** The SSE text of a content event of this message up to its JSON text (built once, for the hot path). */
  readonly prefix: string;
}

const TOKEN_COUNTS = ['inputTokens', 'outputTokens', 'reasoningTokens', 'cachedInputTokens', 'cacheWriteInputTokens'] as const;

/** Writes one AG-UI run. */
class AgUiEncoder implements WireEncoder {
  readonly provider = 'ag-ui' as const;
  readonly choices: number;
  readonly restatesArguments = false;
  /** `@ag-ui/client` hands `JSON.parse` of the concatenated `TOOL_CALL_ARGS` to the app. */
  readonly strictArguments = true;
  private readonly out = new SseWriter();
  private readonly options: EncodeAgUiOptions;
  private source: MetadataEvent | undefined;
  private started = false;
  private ids: { readonly threadId: string; readonly runId: string; readonly messageId: string } | undefined;
  private open: OpenMessage | undefined;
  private reasonings = 0;
  private results = 0;
  /** Per call (`seq`) that was started, the SSE text of its `TOOL_CALL_ARGS` up to their JSON text, and whether it ended. */
  private readonly calls = new Map<number, { readonly id: string; readonly prefix: string; ended: boolean }>();
  private readonly interrupts: Array<{ id: string; reason: string; toolCallId: string }> = [];
  private lastUsage: UsageEvent | undefined;

  /** @param options The thread, run and message ids, the model, the choice. */
  constructor(options: EncodeAgUiOptions) {
    this.options = options;
    this.choices = options.choice ?? 0;
  }

  metadata(event: MetadataEvent): void {
    this.source ??= event;
  }

  text(_choice: number, text: string): void {
    if (text === '') return;
    this.out.raw(`${this.message('text').prefix}${JSON.stringify(text)}}\n\n`);
  }

  reasoning(_choice: number, text: string): void {
    if (text === '') return;
    this.out.raw(`${this.message('reasoning').prefix}${JSON.stringify(text)}}\n\n`);
  }

  reasoningEnd(_choice: number, part: ReasoningPart): void {
    const encrypted = part.encryptedContent ?? part.redacted;
    if (this.open?.kind !== 'reasoning') {
      // A part that came whole (no deltas): written whole.
      if (part.text === '' && encrypted === undefined) return;
      const open = this.message('reasoning');
      if (part.text !== '') this.out.raw(`${open.prefix}${JSON.stringify(part.text)}}\n\n`);
    }
    const open = this.open;
    if (open === undefined) return;
    if (encrypted !== undefined) this.out.json({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: open.id, encryptedValue: encrypted });
    this.closeOpen();
  }

  toolCallDelta(call: EncodedCall, append: string): void {
    let entry = this.calls.get(call.seq);
    if (entry === undefined) {
      // A call starts with its name: wait for it unless its arguments come first.
      if (call.name === '' && append === '') return;
      entry = this.startCall(call);
    }
    if (append !== '') this.out.raw(`${entry.prefix}${JSON.stringify(append)}}\n\n`);
  }

  toolCallEnd(call: EncodedCall, judge: CallJudge): void {
    const entry = this.calls.get(call.seq) ?? this.startCall(call);
    // A call the source cut is ended only when the run finishes (a run cannot finish with a call open; a failed one may).
    if (judge.incomplete()) return;
    this.endCall(entry);
  }

  toolResult(event: ToolResultEvent, call: EncodedCall | undefined): void {
    const entry = call === undefined ? undefined : this.calls.get(call.seq);
    // A progress value has no place: a result mints a tool message.
    if (entry === undefined || event.preliminary === true) return;
    const content =
      event.denied === true ? 'The tool call was denied.' : event.error !== undefined ? event.error : typeof event.output === 'string' ? event.output : safeStringify(event.output ?? null);
    this.out.json({ type: 'TOOL_CALL_RESULT', messageId: `${this.identity().messageId}-result-${this.results++}`, toolCallId: entry.id, content, role: 'tool' });
  }

  toolApproval(event: ToolApprovalRequestEvent, call: EncodedCall | undefined): void {
    const entry = call === undefined ? undefined : this.calls.get(call.seq);
    if (entry !== undefined) this.interrupts.push({ id: event.approvalId, reason: 'tool_approval', toolCallId: entry.id });
  }

  finish(): void {
    // AG-UI has no finish reason: the run's outcome says what it waits for.
  }

  usage(event: UsageEvent): void {
    this.lastUsage = event;
  }

  end(): void {
    this.start();
    this.closeOpen();
    for (const entry of this.calls.values()) this.endCall(entry);
    const { threadId, runId } = this.identity();
    const usage = this.usageEntries();
    this.out.json({
      type: 'RUN_FINISHED',
      threadId,
      runId,
      ...(this.interrupts.length === 0 ? {} : { outcome: { type: 'interrupt', interrupts: this.interrupts } }),
      ...(usage === undefined ? {} : { usage }),
    });
  }

  error(error: ProviderErrorInfo): void {
    const code = error.providerCode ?? error.type;
    this.out.json({ type: 'RUN_ERROR', message: error.message, ...(code === undefined ? {} : { code }) });
  }

  take(): string {
    return this.out.take();
  }

  /** The run's ids, fixed the first time they are needed: the options', else the source's response id, else generated. */
  private identity(): { readonly threadId: string; readonly runId: string; readonly messageId: string } {
    if (this.ids !== undefined) return this.ids;
    const tag = randomTag();
    const runId = this.options.runId ?? this.source?.responseId ?? `run_${tag}`;
    return (this.ids = { threadId: this.options.threadId ?? `thread_${tag}`, runId, messageId: this.options.id ?? `msg_${runId}` });
  }

  /** `RUN_STARTED`, once, before anything else. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    const { threadId, runId } = this.identity();
    this.out.json({ type: 'RUN_STARTED', threadId, runId });
  }

  /** The open message of `kind`, starting one (and ending the other kind) when needed. */
  private message(kind: 'text' | 'reasoning'): OpenMessage {
    if (this.open?.kind === kind) return this.open;
    this.start();
    this.closeOpen();
    if (kind === 'text') {
      const id = this.identity().messageId;
      this.out.json({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' });
      return (this.open = { kind, id, prefix: `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":${JSON.stringify(id)},"delta":` });
    }
    const id = `${this.identity().messageId}-reasoning-${this.reasonings++}`;
    this.out.json({ type: 'REASONING_START', messageId: id });
    this.out.json({ type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning' });
    return (this.open = { kind, id, prefix: `data: {"type":"REASONING_MESSAGE_CONTENT","messageId":${JSON.stringify(id)},"delta":` });
  }

  private closeOpen(): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    if (open.kind === 'text') return this.out.json({ type: 'TEXT_MESSAGE_END', messageId: open.id });
    this.out.json({ type: 'REASONING_MESSAGE_END', messageId: open.id });
    this.out.json({ type: 'REASONING_END', messageId: open.id });
  }

  /** `TOOL_CALL_START` in the assistant message (text and reasoning messages end first). */
  private startCall(call: EncodedCall): { readonly id: string; readonly prefix: string; ended: boolean } {
    this.start();
    this.closeOpen();
    this.out.json({ type: 'TOOL_CALL_START', toolCallId: call.id, toolCallName: call.name, parentMessageId: this.identity().messageId });
    const entry = { id: call.id, prefix: `data: {"type":"TOOL_CALL_ARGS","toolCallId":${JSON.stringify(call.id)},"delta":`, ended: false };
    this.calls.set(call.seq, entry);
    return entry;
  }

  private endCall(entry: { readonly id: string; ended: boolean }): void {
    if (entry.ended) return;
    entry.ended = true;
    this.out.json({ type: 'TOOL_CALL_END', toolCallId: entry.id });
  }

  /** The usage as one `TokenUsage` entry (whole counts only, as the protocol's schema wants), with the model and the source's format. */
  private usageEntries(): Array<Record<string, unknown>> | undefined {
    const usage = this.lastUsage;
    if (usage === undefined) return undefined;
    const entry: Record<string, unknown> = {};
    const model = this.options.model ?? this.source?.model;
    if (this.source !== undefined) entry['provider'] = this.source.provider;
    if (model !== undefined) entry['model'] = model;
    for (const key of TOKEN_COUNTS) {
      const count = usage[key];
      if (count !== undefined && Number.isSafeInteger(count) && count >= 0) entry[key] = count;
    }
    const total = totalOf(usage);
    if (total !== undefined && Number.isSafeInteger(total) && total >= 0) entry['totalTokens'] = total;
    return [entry];
  }
}
