/**
 * `encodeOpenAIResponses()`: any provider's {@link StreamEvent}s → OpenAI Responses API SSE, and
 * its writer (resolved events → `response.created` … output items … `response.completed`, or
 * `response.incomplete`, or `error` + `response.failed`).
 *
 * @module
 */
import type { OperatorFunction } from 'rxjs';
import type { ProviderErrorInfo } from '../../errors';
import type { FinishReason, MetadataEvent, ProviderToolEvent, ReasoningPart, StreamEvent, UsageEvent } from '../../events';
import { aChoice, aTimeInSeconds, encodeWith, type EncodeOptions } from './encodeWith';
import { ResponseIdentity, SseWriter, totalOf, type CallJudge, type EncodedCall, type EncoderOptions, type WireEncoder } from './encoding';
import { oneOf, type OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link encodeOpenAIResponses} takes. */
const OPENAI_RESPONSES_OPTION_CHECKS: OptionChecks = { created: aTimeInSeconds, choice: aChoice, reasoningAs: /* @__PURE__ */ oneOf(['text', 'summary']) };

/** Options of {@link encodeOpenAIResponses}. */
export interface EncodeOpenAIResponsesOptions extends EncoderOptions, EncodeOptions {
  /** The `created_at` time to write, in seconds since the epoch. Default: the time of subscription. */
  readonly created?: number;
  /** The one choice written (a response has one). Default 0; events of other choices are left out. */
  readonly choice?: number;
  /**
   * How reasoning is written: as `reasoning_text` content (`'text'`, the default: the model's own
   * reasoning, as open-weight models stream it) or as a `summary_text` summary (`'summary'`, what
   * OpenAI's reasoning models stream).
   */
  readonly reasoningAs?: 'text' | 'summary';
}

/**
 * Write any provider's stream as OpenAI Responses API SSE, live: output items with their
 * `output_index`, item ids, `call_id`s and a `sequence_number` on every event.
 *
 * <span class="informal">Normalised events in, `event: response.…` strings out, from
 * `response.created` to `response.completed` with the final `output` array.</span>
 *
 * ```text
 * --m--t--x--x--e--f--u--d|      m: metadata, t: text-delta, x: fragments of call X, e: X's end,
 *                                f: finish, u: usage, d: done
 *   encodeOpenAIResponses()
 * --c--a--b--g--h--------k|      c: response.created + response.in_progress, a: a message item
 *                                (output_item.added, content_part.added, output_text.delta), b: the message
 *                                closed (…done events) + X's function_call item added (call_id, name) +
 *                                its first arguments.delta, g: the next delta, h: arguments.done +
 *                                output_item.done, k: response.completed (final output, usage)
 *
 * --t--x--#                      #: a provider error (`provider-error` error)
 *   encodeOpenAIResponses()
 * --a--b--(e|)                   e: event: error (code, message) + response.failed, then complete
 *
 * --t--x--#                      #: truncated, or any other error
 *   encodeOpenAIResponses()
 * --a--b--#                      the same error: no response.completed is ever written
 * ```
 *
 * 1. Live: text, reasoning and argument fragments are written as they arrive
 *    (`response.output_text.delta`, `response.reasoning_text.delta` or, with `reasoningAs: 'summary'`,
 *    `response.reasoning_summary_text.delta`, `response.function_call_arguments.delta`). A
 *    `function_call` item is added once its name is known (or its first arguments arrive).
 * 2. Identity: calls are resolved by the readers' tracker (see `encodeOpenAIChat()`); each call, text
 *    run and reasoning run is one output item, numbered by `output_index` in the order added; text
 *    after a call (or reasoning) starts a new message item. Item ids are the source's `fc_…` when it
 *    is a Responses stream, else `fc_…`, `msg_…`, `rs_…` built from the response id; `call_id` is the
 *    source's call id (or the generated one).
 * 3. A call ends with `function_call_arguments.done` (the whole arguments: they are restated, so a
 *    source's `replace` is always carried) and `output_item.done`. A call the source cut gets
 *    neither: it stays `incomplete` in the final output.
 * 4. The end: open items are closed, then `response.completed` (finish `stop`, `tool-calls`, `error`,
 *    `other`) or `response.incomplete` with `incomplete_details.reason` `max_output_tokens` (`length`)
 *    or `content_filter`, carrying the final `output` and `usage` (`input_tokens`, `output_tokens`,
 *    `total_tokens` (input + output when the source sent none), `input_tokens_details.cached_tokens`,
 *    `output_tokens_details.reasoning_tokens` when known). Written at the source's `done`, or when
 *    it completes after sending anything.
 * 5. Errors: a `provider-error` error becomes an `error` event (its code and message) then
 *    `response.failed`, and the output completes; any other error is passed on without
 *    `response.completed` (destroy the response: a client sees a cut). Signatures have no place in a
 *    Responses stream and are left out. Only `choice` (default 0) is written: a response has one.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { type StreamEvent } from 'rxjs-tool-calls';
 * import { encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
 *
 * const events: StreamEvent[] = [
 *   { type: 'tool-call-delta', choice: 0, index: 0, id: 'toolu_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
 *   { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' },
 *   { type: 'done' },
 * ];
 * from(events).pipe(encodeOpenAIResponses({ id: 'resp_1', model: 'gpt-4.1', created: 0 })).subscribe((sse) => console.log(sse));
 * // displays: event: response.created … event: response.output_item.added
 * //           data: {"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1_0","type":"function_call","status":"in_progress","arguments":"","call_id":"toolu_1","name":"get_weather"},"sequence_number":2} …
 * //           event: response.completed …
 * ```
 *
 * @param options `model`, `id`, `created` (seconds), `choice`, `reasoning`, `reasoningAs`, and the
 *   tracker's `generateId`, `maxToolCalls`, `maxArgumentsSize`, `repairArguments`.
 * @return An operator from {@link StreamEvent}s to SSE text (one or more whole events per string).
 */
export function encodeOpenAIResponses(options: EncodeOpenAIResponsesOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith('encodeOpenAIResponses', OPENAI_RESPONSES_OPTION_CHECKS, () => new OpenAIResponsesEncoder(options), options);
}

// ---- The writer ------------------------------------------------------------------------------------

/** An output item: its `output_index`, id and the snapshot written in the final `output`. */
interface Item {
  readonly index: number;
  readonly id: string;
  readonly snapshot: Record<string, unknown>;
  /** The finished snapshot as JSON, once the item is done (serialised once, written twice). */
  json?: string;
  /** Per delta event type, its SSE text up to the delta's own fields (built once, for the hot path). */
  prefixes?: Map<string, string>;
}

/** An open message or reasoning item and its text so far. */
interface TextItem extends Item {
  readonly kind: 'text' | 'reasoning';
  text: string;
}

/** Writes one Responses stream: items in order of `output_index`, `sequence_number` on every event. */
class OpenAIResponsesEncoder implements WireEncoder {
  readonly provider = 'openai-responses' as const;
  readonly choices: number;
  readonly restatesArguments = true;
  readonly customCalls = true;
  private readonly out = new SseWriter();
  private readonly identity: ResponseIdentity;
  private readonly created: number;
  private readonly summary: boolean;
  private sequence = 0;
  private started = false;
  private readonly items: Item[] = [];
  private open: TextItem | undefined;
  private readonly calls = new Map<number, Item>();
  /** The provider-run tools' items written (a source may report one finished item twice). */
  private providerItems: Set<string> | undefined;
  private lastUsage: UsageEvent | undefined;
  private reason: FinishReason = 'stop';

  /** @param options Model, id, `created`, the choice to write, how reasoning is written. */
  constructor(options: EncodeOpenAIResponsesOptions = {}) {
    this.identity = new ResponseIdentity(options, 'resp_');
    this.created = options.created ?? Math.floor(Date.now() / 1000);
    this.choices = options.choice ?? 0;
    this.summary = options.reasoningAs === 'summary';
  }

  metadata(event: MetadataEvent): void {
    this.identity.metadata(event);
    this.start();
  }

  text(_choice: number, text: string): void {
    if (text === '') return; // a text part's signature (Gemini) has no Responses form
    const item = this.textItem('text');
    item.text += text;
    this.delta('response.output_text.delta', item, `"content_index":0,"delta":${JSON.stringify(text)},"logprobs":[]`);
  }

  reasoning(_choice: number, text: string): void {
    // A signature (Anthropic, Gemini) is not a Responses `encrypted_content`: it is left out.
    if (text === '') return;
    const item = this.textItem('reasoning');
    item.text += text;
    const where = this.summary ? { summary_index: 0 } : { content_index: 0 };
    this.emit(this.summary ? 'response.reasoning_summary_text.delta' : 'response.reasoning_text.delta', { item_id: item.id, output_index: item.index, ...where, delta: text });
  }

  reasoningEnd(_choice: number, part: ReasoningPart): void {
    const open = this.open?.kind === 'reasoning' ? this.open : undefined;
    if (open !== undefined) {
      // Its text went out as deltas; the source's encrypted content goes into the done item.
      if (part.encryptedContent !== undefined) open.snapshot['encrypted_content'] = part.encryptedContent;
      this.closeOpen();
      return;
    }
    // A part without deltas (an encrypted-only item): one whole item, with the source's id. An
    // Anthropic redacted block has no Responses form.
    const summary = part.summary ?? [];
    if (part.itemId === undefined && part.encryptedContent === undefined && part.text === '' && summary.length === 0) return;
    const item = this.add(
      'rs',
      { type: 'reasoning', summary: summary.map((text) => ({ type: 'summary_text', text })), ...(part.text === '' ? {} : { content: [{ type: 'reasoning_text', text: part.text }] }) },
      part.itemId,
    );
    if (part.encryptedContent !== undefined) item.snapshot['encrypted_content'] = part.encryptedContent;
    this.itemDone(item);
  }

  /** A Responses source's server-run tool item (web search, MCP, …), written back whole once it is finished. */
  providerTool(event: ProviderToolEvent): void {
    const raw = event.raw;
    if (event.provider !== 'openai-responses' || raw === undefined || event.status === 'running') return;
    const seen = (this.providerItems ??= new Set());
    if (seen.has(event.id)) return;
    seen.add(event.id);
    const { id: _id, ...fields } = raw;
    const item = this.add('pt', fields, typeof raw['id'] === 'string' && raw['id'] !== '' ? raw['id'] : undefined);
    item.json = JSON.stringify(item.snapshot);
    this.itemDone(item);
  }

  toolCallDelta(call: EncodedCall, append: string): void {
    let item = this.calls.get(call.seq);
    if (item === undefined) {
      // A function_call item is added with its name: wait for it unless arguments come first.
      if (call.name === '' && append === '') return;
      item = this.addCall(call);
    }
    if (append !== '') this.delta(call.kind === 'custom' ? 'response.custom_tool_call_input.delta' : 'response.function_call_arguments.delta', item, `"delta":${JSON.stringify(append)}`);
  }

  toolCallEnd(call: EncodedCall, judge: CallJudge): void {
    const item = this.calls.get(call.seq) ?? this.addCall(call);
    // The whole text is restated, so whatever was streamed, the arguments are the source's (a custom tool's: its `input`).
    const field = call.kind === 'custom' ? 'input' : 'arguments';
    item.snapshot[field] = call.rawArguments;
    // A programmatic call's `caller` (a Responses source's `{ type: 'program', caller_id }`), on the done item.
    const caller = call.metadata?.['caller'] as Record<string, unknown> | undefined;
    if (caller !== undefined && (caller['type'] === 'direct' || (caller['type'] === 'program' && typeof caller['caller_id'] === 'string'))) item.snapshot['caller'] = caller;
    // A name that grew after the item was added (rule `name-pieces`) is restated with it.
    if (call.name !== '') item.snapshot['name'] = call.name;
    // A call left without `.done` / `output_item.done` is read as cut off (`incomplete`) at `response.incomplete`.
    if (judge.incomplete()) return;
    item.snapshot['status'] = 'completed';
    const args = JSON.stringify(call.rawArguments); // once: in `.done`, the done item and the final output
    this.delta(call.kind === 'custom' ? 'response.custom_tool_call_input.done' : 'response.function_call_arguments.done', item, `"${field}":${args}`);
    const { [field]: _args, ...rest } = item.snapshot;
    item.json = `${JSON.stringify(rest).slice(0, -1)},"${field}":${args}}`;
    this.itemDone(item);
  }

  finish(_choice: number, reason: FinishReason): void {
    this.reason = reason;
  }

  usage(event: UsageEvent): void {
    this.lastUsage = event;
  }

  end(): void {
    this.start();
    this.closeOpen();
    for (const item of this.calls.values()) if (item.snapshot['status'] === 'in_progress') item.snapshot['status'] = 'incomplete';
    const cut = this.reason === 'length' ? 'max_output_tokens' : this.reason === 'content-filter' ? 'content_filter' : undefined;
    const usage = this.lastUsage;
    const body = this.response(cut === undefined ? 'completed' : 'incomplete', {
      incomplete_details: cut === undefined ? null : { reason: cut },
      usage:
        usage === undefined
          ? null
          : {
              input_tokens: usage.inputTokens,
              input_tokens_details: usage.cachedInputTokens === undefined ? undefined : { cached_tokens: usage.cachedInputTokens },
              output_tokens: usage.outputTokens,
              output_tokens_details: usage.reasoningTokens === undefined ? undefined : { reasoning_tokens: usage.reasoningTokens },
              total_tokens: totalOf(usage),
            },
    });
    this.withResponse(cut === undefined ? 'response.completed' : 'response.incomplete', body);
  }

  error(error: ProviderErrorInfo): void {
    this.start();
    const code = error.providerCode ?? error.type ?? (error.retryable ? 'server_error' : 'invalid_request_error');
    this.emit('error', { code, message: error.message, param: null });
    this.withResponse('response.failed', this.response('failed', { error: { code, message: error.message } }));
  }

  take(): string {
    return this.out.take();
  }

  /** One event: `type`, its fields, and the next `sequence_number`. */
  private emit(type: string, fields: Record<string, unknown>): void {
    this.out.json({ type, ...fields, sequence_number: this.sequence++ }, type);
  }

  /** One delta event of an item, built as text (the hot path): `fields` is the JSON text of the fields after `output_index`. */
  private delta(type: string, item: Item, fields: string): void {
    const prefixes = (item.prefixes ??= new Map());
    let prefix = prefixes.get(type);
    if (prefix === undefined) {
      prefix = `event: ${type}\ndata: {"type":"${type}","item_id":${JSON.stringify(item.id)},"output_index":${item.index},`;
      prefixes.set(type, prefix);
    }
    this.out.raw(`${prefix}${fields},"sequence_number":${this.sequence++}}\n\n`);
  }

  /** The response object as JSON, its `output` last (items done are serialised once, when done). */
  private response(status: string, fields: Record<string, unknown> = {}): string {
    const head = JSON.stringify({
      id: this.identity.id,
      object: 'response',
      created_at: this.created,
      status,
      error: null,
      incomplete_details: null,
      model: this.identity.model,
      usage: null,
      ...fields,
    });
    return `${head.slice(0, -1)},"output":[${this.items.map((item) => item.json ?? JSON.stringify(item.snapshot)).join(',')}]}`;
  }

  /** An event whose one field is the response object (`response` is its JSON). */
  private withResponse(type: string, response: string): void {
    this.out.data(`{"type":"${type}","response":${response},"sequence_number":${this.sequence++}}`, type);
  }

  /** `output_item.done` with the item's finished JSON. */
  private itemDone(item: Item): void {
    this.out.data(
      `{"type":"response.output_item.done","output_index":${item.index},"item":${item.json ?? JSON.stringify(item.snapshot)},"sequence_number":${this.sequence++}}`,
      'response.output_item.done',
    );
  }

  /** `response.created` and `response.in_progress`, once. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    this.withResponse('response.created', this.response('in_progress'));
    this.withResponse('response.in_progress', this.response('in_progress'));
  }

  /** A new output item (after closing the open message or reasoning item). */
  private add(prefix: string, snapshot: Record<string, unknown>, itemId?: string): Item {
    this.start();
    this.closeOpen();
    const index = this.items.length;
    const id = itemId ?? `${prefix}_${this.identity.id.replace(/^resp_/, '')}_${index}`;
    const item = { index, id, snapshot: { id, ...snapshot } };
    this.items.push(item);
    this.emit('response.output_item.added', { output_index: index, item: { ...item.snapshot } });
    return item;
  }

  private addCall(call: EncodedCall): Item {
    const sourceItemId = call.metadata?.['itemId'];
    const custom = call.kind === 'custom';
    const item = this.add(
      custom ? 'ctc' : 'fc',
      custom
        ? { type: 'custom_tool_call', status: 'in_progress', input: '', call_id: call.id, name: call.name }
        : { type: 'function_call', status: 'in_progress', arguments: '', call_id: call.id, name: call.name },
      typeof sourceItemId === 'string' && sourceItemId !== '' ? sourceItemId : undefined,
    );
    this.calls.set(call.seq, item);
    return item;
  }

  /** The open message (`text`) or reasoning item, adding one with its first part when needed. */
  private textItem(kind: 'text' | 'reasoning'): TextItem {
    if (this.open?.kind === kind) return this.open;
    const snapshot = kind === 'text' ? { type: 'message', status: 'in_progress', role: 'assistant', content: [] } : { type: 'reasoning', summary: [], content: [] };
    const item: TextItem = { ...this.add(kind === 'text' ? 'msg' : 'rs', snapshot), kind, text: '' };
    this.open = item;
    const part = this.part(item);
    if (kind === 'reasoning' && this.summary) this.emit('response.reasoning_summary_part.added', { item_id: item.id, output_index: item.index, summary_index: 0, part });
    else this.emit('response.content_part.added', { item_id: item.id, output_index: item.index, content_index: 0, part });
    return item;
  }

  /** The item's one part with its text so far. */
  private part(item: TextItem): Record<string, unknown> {
    if (item.kind === 'text') return { type: 'output_text', text: item.text, annotations: [], logprobs: [] };
    return this.summary ? { type: 'summary_text', text: item.text } : { type: 'reasoning_text', text: item.text };
  }

  /** Close the open message or reasoning item: its `.done` events and the finished snapshot. */
  private closeOpen(): void {
    const item = this.open;
    if (item === undefined) return;
    this.open = undefined;
    const part = this.part(item);
    const at = { item_id: item.id, output_index: item.index };
    if (item.kind === 'text') {
      this.emit('response.output_text.done', { ...at, content_index: 0, text: item.text, logprobs: [] });
      this.emit('response.content_part.done', { ...at, content_index: 0, part });
      Object.assign(item.snapshot, { status: 'completed', content: [part] });
    } else if (this.summary) {
      this.emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: item.text });
      this.emit('response.reasoning_summary_part.done', { ...at, summary_index: 0, part });
      item.snapshot['summary'] = [part];
    } else {
      this.emit('response.reasoning_text.done', { ...at, content_index: 0, text: item.text });
      this.emit('response.content_part.done', { ...at, content_index: 0, part });
      item.snapshot['content'] = [part];
    }
    item.json = JSON.stringify(item.snapshot);
    this.itemDone(item);
  }
}
