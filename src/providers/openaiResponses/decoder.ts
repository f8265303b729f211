/**
 * OpenAI Responses API streaming (also Azure OpenAI, AWS Bedrock Mantle, LM Studio and other
 * Open Responses servers) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, ProviderToolEvent } from '../../events';
import { asNumber, asRecord, asString, providerError, type EventSink } from '../decoder';
import { openaiUsage } from '../openaiChat/mapping';
import { countAt, toolCallDelta, TypedEventDecoder, usageEvent, wireString, type UsageCounts } from '../wire';

/** One `function_call` (or custom tool's `custom_tool_call`) output item, keyed by its `output_index`. */
interface FunctionCallState {
  readonly index: number;
  /** A `custom_tool_call`: its `input` is text, not JSON. */
  readonly custom: boolean;
  /** The wire's `call_id`; an adapter that opens the item with `call_id: ""` fills it in `output_item.done`. */
  callId: string | undefined;
  readonly itemId: string | undefined;
  /** The item's name so far (an adapter that opens it with `name: ""` names it in `output_item.done`). */
  name: string | undefined;
  /** Whether any non-empty argument text was handed on (deltas, `.done` or the item). */
  hasText: boolean;
  /** The last full text handed on as a replace (`.done`, then the item), to skip an identical resend. */
  final: string | undefined;
  /** The item arrived done with empty arguments: its end waits for `response.completed`, which may carry them. */
  held: boolean;
  ended: boolean;
  /** Its `caller` (a programmatic call's program) was handed on. */
  caller: boolean;
}

/** Responses `usage` → token counts (OpenAI's counting: cached inside input, reasoning inside output). */
export function responsesUsage(usage: Record<string, unknown>): UsageCounts {
  return openaiUsage(
    asNumber(usage['input_tokens']),
    asNumber(usage['output_tokens']),
    asNumber(usage['total_tokens']),
    countAt(usage, 'output_tokens_details', 'reasoning_tokens'),
    countAt(usage, 'input_tokens_details', 'cached_tokens'),
  );
}

/** Responses has no finish reason field: a response's final status stands for it. */
export function responsesFinishReason(raw: string): FinishReason {
  return raw === 'completed' ? 'stop' : raw === 'incomplete' ? 'length' : raw === 'failed' ? 'error' : 'other';
}

/** The finish of a `response.incomplete`: `content-filter` or (token limits) `length`. */
function incompleteReason(response: Record<string, unknown> | undefined): FinishReason {
  return asString(asRecord(response?.['incomplete_details'])?.['reason']) === 'content_filter' ? 'content-filter' : 'length';
}

/** The item types the decoder reads as calls to run: `function_call` and a custom tool's `custom_tool_call`. */
function isCallItem(type: unknown): type is 'function_call' | 'custom_tool_call' {
  return type === 'function_call' || type === 'custom_tool_call';
}

/** A call item's whole text: `arguments` (JSON) of a `function_call`, `input` (text) of a `custom_tool_call`. */
function textOf(item: Record<string, unknown>): string | undefined {
  return asString(item['type'] === 'custom_tool_call' ? item['input'] : item['arguments']);
}

/**
 * The output items of tools the provider runs (or the app, for shell calls and client-run tool
 * searches), by item type: never calls to run. Also the items a loop must carry back as they came:
 * a programmatic tool call's `program` and `program_output`, a tool search's `tool_search_call` and
 * `tool_search_output`, a `compaction`.
 */
const PROVIDER_TOOLS: Readonly<Record<string, string>> = {
  web_search_call: 'web_search',
  file_search_call: 'file_search',
  code_interpreter_call: 'code_interpreter',
  mcp_call: 'mcp',
  image_generation_call: 'image_generation',
  local_shell_call: 'local_shell',
  shell_call: 'shell',
  tool_search_call: 'tool_search',
  tool_search_output: 'tool_search',
  program: 'program',
  program_output: 'program',
  compaction: 'compaction',
};

/** The provider tool an item is a run of, if any. */
function providerToolOf(item: Record<string, unknown> | undefined): string | undefined {
  const type = item?.['type'];
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(PROVIDER_TOOLS, type) ? PROVIDER_TOOLS[type] : undefined;
}

/** What a provider tool ran with, as its item says. */
function providerInput(tool: string, item: Record<string, unknown>): unknown {
  switch (tool) {
    case 'file_search':
      return item['queries'];
    case 'code_interpreter':
      return item['code'];
    case 'mcp':
      return { server: item['server_label'], name: item['name'], arguments: item['arguments'] };
    case 'image_generation':
      return item['revised_prompt'];
    case 'tool_search':
      return item['arguments']; // a tool_search_call's (its output item has none)
    case 'program':
      return item['code']; // a program's (its output item has none)
    case 'compaction':
      return undefined;
    default:
      return item['action']; // web_search, local_shell, shell
  }
}

/** A provider tool's result, when its item carries one. */
function providerResult(tool: string, item: Record<string, unknown>): unknown {
  switch (tool) {
    case 'file_search':
      return item['results'];
    case 'code_interpreter':
      return item['outputs'];
    case 'mcp':
      return item['error'] ?? item['output'];
    case 'image_generation':
    case 'program':
      return item['result']; // a program_output's
    case 'tool_search':
      return item['tools']; // a tool_search_output's: the tool definitions it loaded
    default:
      return undefined;
  }
}

/** A provider tool item's status as a {@link ProviderToolEvent} says it (`done`: the item is finished). */
function providerStatus(item: Record<string, unknown>, done: boolean): ProviderToolEvent['status'] {
  const status = item['status'];
  if (status === 'failed' || (item['error'] !== undefined && item['error'] !== null)) return 'failed';
  if (status === 'incomplete') return 'incomplete';
  return done ? 'completed' : 'running';
}

/** Decoder state for one Responses stream. */
export class OpenAIResponsesDecoder extends TypedEventDecoder {
  /** The wire format this decoder reads: always `'openai-responses'`. */
  readonly provider = 'openai-responses' as const;
  private metadataSent = false;
  private readonly calls = new Map<number, FunctionCallState>();
  /** Reasoning items already ended (by item id, else position), so the final output does not repeat them. */
  private readonly reasoningEnded = new Set<string>();
  private readonly indexByItemId = new Map<string, number>();
  /** Provider tool runs by item id (else `#output_index`): their tool, and whether their item is done. */
  private readonly providerRuns = new Map<string, { readonly tool: string; readonly index: number | undefined; done: boolean }>();

  protected parses(name: string): boolean {
    return name.startsWith('response.');
  }

  protected handle(type: string, data: Record<string, unknown>, emit: EventSink): void {
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        this.metadata(asRecord(data['response']), emit);
        return;
      case 'response.output_item.added':
        this.itemAdded(data, emit);
        return;
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        this.argumentsDelta(data, emit);
        return;
      case 'response.function_call_arguments.done':
      case 'response.custom_tool_call_input.done': {
        const call = this.callFor(data);
        if (call !== undefined) this.argumentsDone(call, asString(type === 'response.custom_tool_call_input.done' ? data['input'] : data['arguments']), emit);
        return;
      }
      case 'response.output_item.done':
        this.itemDone(data, emit);
        return;
      case 'response.mcp_call_arguments.delta':
      case 'response.code_interpreter_call_code.delta':
        this.providerDelta(data, emit);
        return;
      case 'response.output_text.delta':
        this.text('text-delta', data, emit);
        return;
      case 'response.reasoning_text.delta':
      case 'response.reasoning_summary_text.delta':
        this.text('reasoning-delta', data, emit);
        return;
      case 'response.completed':
        this.terminate(asRecord(data['response']), 'completed', emit);
        return;
      case 'response.incomplete':
        this.terminate(asRecord(data['response']), 'incomplete', emit);
        return;
      case 'response.failed': {
        const response = asRecord(data['response']);
        throw providerError(this.provider, response ?? data, 'the response failed');
      }
      case 'error':
        throw providerError(this.provider, data);
      default:
        return; // content_part, output_text.done, refusal, annotations, …: nothing to emit
    }
  }

  private metadata(response: Record<string, unknown> | undefined, emit: EventSink): void {
    if (this.metadataSent || response === undefined) return;
    const responseId = wireString(response['id']);
    const model = wireString(response['model']);
    if (responseId === undefined && model === undefined) return;
    this.metadataSent = true;
    emit({ type: 'metadata', provider: this.provider, ...(responseId === undefined ? {} : { responseId }), ...(model === undefined ? {} : { model }) });
  }

  private itemAdded(data: Record<string, unknown>, emit: EventSink): void {
    const item = asRecord(data['item']);
    if (item !== undefined && providerToolOf(item) !== undefined) return this.providerItem(item, asNumber(data['output_index']), false, emit);
    if (item === undefined || !isCallItem(item['type'])) return;
    const index = asNumber(data['output_index']) ?? this.calls.size;
    this.open(index, item, textOf(item) ?? '', false, emit);
  }

  /** EventSink the first delta of a call (id, name, item id) and remember it. */
  private open(index: number, item: Record<string, unknown>, args: string, replace: boolean, emit: EventSink): FunctionCallState {
    const callId = wireString(item['call_id']);
    const itemId = wireString(item['id']);
    const name = wireString(item['name']);
    const custom = item['type'] === 'custom_tool_call';
    const caller = asRecord(item['caller']);
    const call: FunctionCallState = { index, custom, callId, itemId, name, hasText: args !== '', final: replace ? args : undefined, held: false, ended: false, caller: caller !== undefined };
    this.calls.set(index, call);
    if (itemId !== undefined) this.indexByItemId.set(itemId, index);
    const metadata = itemId === undefined && caller === undefined ? undefined : { ...(itemId === undefined ? {} : { itemId }), ...(caller === undefined ? {} : { caller }) };
    emit({
      type: 'tool-call-delta',
      choice: 0,
      index,
      argumentsDelta: args,
      ...(callId === undefined ? {} : { id: callId }),
      ...(name === undefined ? {} : { name }),
      ...(replace ? { replace: true } : {}),
      ...(metadata === undefined ? {} : { metadata }),
      ...(custom ? { kind: 'custom' as const } : {}),
    });
    return call;
  }

  /** The call an event refers to, by `output_index` or else by `item_id`. */
  private callFor(data: Record<string, unknown>): FunctionCallState | undefined {
    const index = asNumber(data['output_index']);
    if (index !== undefined) return this.calls.get(index);
    const itemId = wireString(data['item_id']);
    const byItem = itemId === undefined ? undefined : this.indexByItemId.get(itemId);
    return byItem === undefined ? undefined : this.calls.get(byItem);
  }

  private argumentsDelta(data: Record<string, unknown>, emit: EventSink): void {
    const delta = asString(data['delta']);
    if (delta === undefined) return;
    const call = this.callFor(data);
    if (call !== undefined && delta !== '') call.hasText = true;
    const index = call?.index ?? asNumber(data['output_index']);
    emit(toolCallDelta(0, delta, index, call?.callId));
  }

  /**
   * Identity that arrives late: adapters that open a call's item with `call_id: ""` and `name: ""`
   * and fill them only in the finished item (HEXUXIU/M365-Copilot2API#77). The call keeps its
   * position; the id it lacked is handed on (rule `first-sight`: a late id is taken, one already set
   * is never overwritten), and so is a name that it lacked or that grew (rule `name-pieces`).
   */
  private identify(call: FunctionCallState, item: Record<string, unknown>, emit: EventSink): void {
    const callId = call.callId === undefined ? wireString(item['call_id']) : undefined;
    let name = wireString(item['name']);
    if (name === call.name || (call.name !== undefined && name !== undefined && !name.startsWith(call.name))) name = undefined;
    if (callId === undefined && name === undefined) return;
    if (callId !== undefined) call.callId = callId;
    if (name !== undefined) call.name = name;
    emit(toolCallDelta(0, '', call.index, callId, name));
  }

  /**
   * Full arguments arrived (`.done`, or the item in `output_item.done`): the most final non-empty
   * source wins, so non-empty full text replaces what was streamed (once per distinct text; handing
   * the one flat string on is also cheaper than comparing it with the streamed pieces, which would
   * join them first). Empty full text never replaces streamed text.
   */
  private argumentsDone(call: FunctionCallState, full: string | undefined, emit: EventSink): void {
    if (full === undefined || full === '' || full === call.final) return;
    call.final = full;
    call.hasText = true;
    emit(toolCallDelta(0, full, call.index, call.callId, undefined, true));
  }

  private itemDone(data: Record<string, unknown>, emit: EventSink): void {
    const item = asRecord(data['item']);
    if (item?.['type'] === 'reasoning') return this.reasoningDone(item, asNumber(data['output_index']), emit);
    if (item !== undefined && providerToolOf(item) !== undefined) return this.providerItem(item, asNumber(data['output_index']), true, emit);
    if (item === undefined || !isCallItem(item['type'])) return;
    const full = textOf(item);
    let call = this.callFor(data);
    if (call === undefined) {
      // A server that never sent `output_item.added` for this call: open it whole.
      call = this.open(asNumber(data['output_index']) ?? this.calls.size, item, full ?? '', true, emit);
    } else {
      this.identify(call, item, emit);
      this.argumentsDone(call, full, emit);
      this.lateCaller(call, item, emit);
    }
    if (call.ended || call.held) return;
    if (full === undefined || full === '') {
      // Some servers send the item with empty arguments and the real ones only in response.completed.
      call.held = true;
      return;
    }
    this.endCall(call, emit);
  }

  /** A call's `caller` that only its done item carries: metadata of the call (an empty delta). */
  private lateCaller(call: FunctionCallState, item: Record<string, unknown>, emit: EventSink): void {
    const caller = asRecord(item['caller']);
    if (call.caller || caller === undefined) return;
    call.caller = true;
    emit(toolCallDelta(0, '', call.index, call.callId, undefined, undefined, { caller }));
  }

  /** A reasoning item is done: the whole item (id, summaries, `reasoning_text` content, `encrypted_content`), once. */
  private reasoningDone(item: Record<string, unknown>, index: number | undefined, emit: EventSink): void {
    const itemId = wireString(item['id']);
    const key = itemId ?? `#${index ?? this.reasoningEnded.size}`;
    if (this.reasoningEnded.has(key)) return;
    this.reasoningEnded.add(key);
    const texts = (value: unknown): string[] => (Array.isArray(value) ? value.flatMap((p) => asString(asRecord(p)?.['text']) ?? []) : []);
    const summary = texts(item['summary']);
    const encryptedContent = wireString(item['encrypted_content']);
    emit({
      type: 'reasoning-end',
      choice: 0,
      ...(index === undefined ? {} : { index }),
      text: texts(item['content']).join(''),
      ...(itemId === undefined ? {} : { itemId }),
      ...(encryptedContent === undefined ? {} : { encryptedContent }),
      ...(Array.isArray(item['summary']) ? { summary } : {}),
    });
  }

  /** A provider tool's item started (`done` false) or finished (`done` true, once per run). */
  private providerItem(item: Record<string, unknown>, index: number | undefined, done: boolean, emit: EventSink): void {
    const tool = providerToolOf(item) ?? '';
    const id = wireString(item['id']) ?? '';
    const key = id !== '' ? id : `#${index ?? this.providerRuns.size}`;
    const run = this.providerRuns.get(key);
    if (run?.done === true) return;
    if (run === undefined) this.providerRuns.set(key, { tool, index, done });
    else run.done = done;
    const input = providerInput(tool, item);
    const result = done ? providerResult(tool, item) : undefined;
    emit({
      type: 'provider-tool',
      choice: 0,
      provider: this.provider,
      ...(index === undefined ? {} : { index }),
      id,
      tool,
      status: providerStatus(item, done),
      ...(input === undefined ? {} : { input }),
      ...(result === undefined || result === null ? {} : { result }),
      raw: item,
    });
  }

  /** A piece of a provider tool's input (MCP arguments, code interpreter code) while it streams. */
  private providerDelta(data: Record<string, unknown>, emit: EventSink): void {
    const delta = asString(data['delta']);
    const id = wireString(data['item_id']) ?? '';
    const index = asNumber(data['output_index']);
    const run = this.providerRuns.get(id !== '' ? id : `#${index ?? -1}`);
    if (delta === undefined || delta === '' || run === undefined || run.done) return;
    emit({ type: 'provider-tool', choice: 0, provider: this.provider, ...(index === undefined ? {} : { index }), id, tool: run.tool, status: 'running', inputDelta: delta });
  }

  private endCall(call: FunctionCallState, emit: EventSink, incomplete?: FinishReason): void {
    if (call.ended) return;
    call.ended = true;
    emit({
      type: 'tool-call-end',
      choice: 0,
      index: call.index,
      ...(call.callId === undefined ? {} : { id: call.callId }),
      ...(incomplete === undefined ? {} : { incomplete: true, finishReason: incomplete }),
    });
  }

  private text(type: 'text-delta' | 'reasoning-delta', data: Record<string, unknown>, emit: EventSink): void {
    const text = asString(data['delta']);
    if (text !== undefined && text.length > 0) emit({ type, choice: 0, text });
  }

  private terminate(response: Record<string, unknown> | undefined, status: 'completed' | 'incomplete', emit: EventSink): void {
    this.metadata(response, emit);
    this.done = true;
    const incomplete = status === 'incomplete' ? incompleteReason(response) : undefined;
    // The final response's function calls: the most final source of their arguments, and the only
    // one for calls a server never streamed.
    const output = response?.['output'];
    if (Array.isArray(output)) {
      output.forEach((value, position) => {
        const item = asRecord(value);
        // A reasoning item the stream never finished (a server that only sends the final output).
        if (item?.['type'] === 'reasoning') return this.reasoningDone(item, position, emit);
        // A provider tool's run the stream never finished (or never showed): its final item, once.
        if (item !== undefined && providerToolOf(item) !== undefined) return this.providerItem(item, position, true, emit);
        if (item === undefined || !isCallItem(item['type'])) return;
        const itemId = wireString(item['id']);
        const byItem = itemId === undefined ? undefined : this.indexByItemId.get(itemId);
        const call = this.calls.get(byItem ?? position);
        if (call === undefined) this.itemDone({ output_index: position, item }, emit);
        else if (!call.ended) {
          this.identify(call, item, emit);
          this.argumentsDone(call, textOf(item), emit);
        }
      });
    }
    for (const call of this.calls.values()) this.endCall(call, emit, incomplete);
    const usage = asRecord(response?.['usage']);
    if (usage !== undefined) {
      const event = usageEvent(responsesUsage(usage), usage);
      if (event !== undefined) emit(event);
    }
    if (status === 'completed') {
      emit({ type: 'finish', choice: 0, reason: this.calls.size > 0 ? 'tool-calls' : 'stop', rawReason: 'completed' });
    } else {
      emit({ type: 'finish', choice: 0, reason: incomplete ?? 'length', rawReason: 'incomplete' });
    }
    emit({ type: 'done' });
  }

  end(): void {
    if (this.done) return;
    const open = [...this.calls.values()].filter((c) => !c.ended).length;
    const detail = open > 0 ? ` (${open} function call${open === 1 ? '' : 's'} still open)` : '';
    throw new ToolStreamError('truncated', { provider: this.provider, detail: `no response.completed, response.incomplete or response.failed arrived${detail}` });
  }
}
