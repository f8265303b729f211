/**
 * Anthropic Messages streaming (also via Bedrock / Vertex passthrough and Anthropic-compatible
 * servers) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason } from '../../events';
import { asNumber, asRecord, asString, providerError, type EventSink } from '../decoder';
import { normalizeChatFinishReason } from '../openaiChat/mapping';
import { countAt, stringifyJson, sumOf, toolCallDelta, TypedEventDecoder, usageEvent, wireString, type UsageCounts } from '../wire';

/**
 * Map an Anthropic `stop_reason` to the normalised {@link FinishReason}; a reason Anthropic does not
 * send (an Anthropic-compatible server's `tool_calls`, `length`, `error`, …) is read as chat reads it.
 */
export function normalizeAnthropicStopReason(raw: string): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
    case 'compaction': // paused after a compaction block: send the turn back to go on
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return normalizeChatFinishReason(raw);
  }
}

/**
 * Anthropic `usage` → token counts: `input_tokens` excludes the cache reads and writes, so the input
 * is all three; `output_tokens` includes thinking.
 */
export function anthropicUsage(usage: Record<string, unknown>): UsageCounts {
  const cacheRead = asNumber(usage['cache_read_input_tokens']);
  const cacheWrite = asNumber(usage['cache_creation_input_tokens']);
  return {
    inputTokens: sumOf(asNumber(usage['input_tokens']), cacheRead, cacheWrite),
    outputTokens: asNumber(usage['output_tokens']),
    reasoningTokens: countAt(usage, 'output_tokens_details', 'thinking_tokens'),
    cachedInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
  };
}

/** One open tool-use content block. */
interface ToolBlock {
  readonly index: number;
  readonly id: string | undefined;
  /** The block start carried a non-empty `input` that was emitted as a replace delta. */
  prefilled: boolean;
  stopped: boolean;
}

/** One open `thinking` or `redacted_thinking` block: what its `reasoning-end` carries. */
interface ThinkingBlock {
  text: string;
  signature: string;
  readonly redacted: string | undefined;
}

/** One server-run tool block (`server_tool_use`, `mcp_tool_use`): its input JSON as it streams. */
interface ServerToolBlock {
  readonly block: Record<string, unknown>;
  readonly id: string;
  readonly tool: string;
  json: string;
}

/** One open `compaction` block (server-side context compaction): the block, whole once its delta came. */
interface CompactionBlock {
  readonly block: Record<string, unknown>;
}

/** Whether a result block says the run failed (`is_error`, or content of an `*_error` type). */
function failedResult(block: Record<string, unknown>): boolean {
  const type = asString(asRecord(block['content'])?.['type']);
  return block['is_error'] === true || (type !== undefined && type.endsWith('_error'));
}

/** Decoder state for one Anthropic Messages stream. */
export class AnthropicMessagesDecoder extends TypedEventDecoder {
  /** The wire format this decoder reads: always `'anthropic'`. */
  readonly provider = 'anthropic' as const;
  private metadataSent = false;
  private readonly tools = new Map<number, ToolBlock>();
  /** Open thinking blocks by content-block index (each ends with a whole `reasoning-end`). */
  private readonly thinking = new Map<number, ThinkingBlock>();
  private startUsage: Record<string, unknown> | undefined;
  /** Open server-run tool blocks by content-block index. */
  private readonly serverTools = new Map<number, ServerToolBlock>();
  /** The tool of each server-run tool id, for its result block. */
  private readonly serverToolNames = new Map<string, string>();
  /** Open compaction blocks by content-block index. */
  private compactions: Map<number, CompactionBlock> | undefined;
  /** How many tool blocks are started and not stopped (so a message_delta per block costs O(1)). */
  private unstopped = 0;
  /** A `message_start` arrived (and no `message_stop` yet): the message being read, by its id. */
  private messageOpen = false;
  private messageId: string | undefined;

  /** The events whose data Anthropic's decoder must read (`ping` is a keep-alive: its data may be anything). */
  protected parses(name: string): boolean {
    // A switch, not a Set: the name is a new string per event, and comparing it to the most common
    // name first is cheaper than hashing it.
    switch (name) {
      case 'content_block_delta':
      case 'content_block_start':
      case 'content_block_stop':
      case 'message_start':
      case 'message_delta':
      case 'message_stop':
        return true;
      default:
        return false;
    }
  }

  protected handle(type: string, data: Record<string, unknown>, emit: EventSink): void {
    switch (type) {
      case 'message_start':
        this.messageStart(asRecord(data['message']), emit);
        return;
      case 'content_block_start':
        this.blockStart(data, emit);
        return;
      case 'content_block_delta':
        this.blockDelta(data, emit);
        return;
      case 'content_block_stop': {
        const index = asNumber(data['index']) ?? -1;
        this.thinkingEnd(index, emit);
        this.serverToolEnd(index, emit);
        this.compactionEnd(index, emit);
        const tool = this.tools.get(index);
        if (tool !== undefined && !tool.stopped) {
          tool.stopped = true;
          this.unstopped--;
          emit({ type: 'tool-call-end', choice: 0, index: tool.index, ...(tool.id === undefined ? {} : { id: tool.id }) });
        }
        return;
      }
      case 'message_delta':
        this.messageDelta(data, emit);
        return;
      case 'message_stop':
        this.closeUnstopped(emit);
        this.messageOpen = false;
        this.done = true;
        emit({ type: 'done' });
        return;
      case 'error':
        throw providerError(this.provider, data);
      default:
        return; // ping and event types added later
    }
  }

  /**
   * A message starts. A second `message_start` while the message is open is one of two things: the
   * same message announced again (same id: ignored), or another generation an intermediary spliced
   * into the response after losing its upstream mid-message (vercel/ai#18331): the message being read
   * was cut, so the stream is `truncated` there (its open calls `incomplete`; what completed before
   * stays); the turn must be asked for again, never merged with the other generation.
   */
  private messageStart(message: Record<string, unknown> | undefined, emit: EventSink): void {
    if (message === undefined) return;
    const id = wireString(message['id']);
    if (this.messageOpen) {
      if (id === this.messageId) return;
      throw new ToolStreamError('truncated', {
        provider: this.provider,
        detail: `message ${this.messageId ?? '(no id)'} was cut: message_start of ${id ?? 'another message'} arrived before its message_stop (a second generation spliced into the response)`,
      });
    }
    this.messageOpen = true;
    this.messageId = id;
    if (!this.metadataSent) {
      const responseId = wireString(message['id']);
      const model = wireString(message['model']);
      if (responseId !== undefined || model !== undefined) {
        this.metadataSent = true;
        emit({ type: 'metadata', provider: this.provider, ...(responseId === undefined ? {} : { responseId }), ...(model === undefined ? {} : { model }) });
      }
    }
    const usage = asRecord(message['usage']);
    if (usage !== undefined) {
      this.startUsage = usage;
      this.usage(usage, emit);
    }
    // A message may start whole: programmatic tool calling sends a deferred `tool_use` in `message.content`
    // (its input complete) and its `stop_reason` here, then `message_stop` with nothing between.
    const content = message['content'];
    if (Array.isArray(content)) content.forEach((value, index) => this.wholeBlock(asRecord(value), index, emit));
    const rawReason = asString(message['stop_reason']);
    if (rawReason) emit({ type: 'finish', choice: 0, reason: normalizeAnthropicStopReason(rawReason), rawReason });
  }

  /** A content block given whole in `message_start`: a `tool_use` is a call, complete; text is text. */
  private wholeBlock(block: Record<string, unknown> | undefined, index: number, emit: EventSink): void {
    const type = asString(block?.['type']);
    if (block === undefined) return;
    if (type === 'text') {
      const text = asString(block['text']);
      if (text) emit({ type: 'text-delta', choice: 0, text });
      return;
    }
    if (type !== 'tool_use') return;
    const id = wireString(block['id']);
    const name = wireString(block['name']);
    const input = block['input'];
    const caller = block['caller'];
    emit({
      type: 'tool-call-delta',
      choice: 0,
      index,
      argumentsDelta: input === undefined || input === null ? '{}' : stringifyJson(input),
      replace: true,
      ...(id === undefined ? {} : { id }),
      ...(name === undefined ? {} : { name }),
      metadata: caller === undefined || caller === null ? { type } : { type, caller },
    });
    emit({ type: 'tool-call-end', choice: 0, index, ...(id === undefined ? {} : { id }) });
  }

  private blockStart(data: Record<string, unknown>, emit: EventSink): void {
    const block = asRecord(data['content_block']);
    const index = asNumber(data['index']);
    const blockType = asString(block?.['type']);
    if (block === undefined || blockType === undefined) return;
    if (blockType === 'text') {
      const text = asString(block['text']);
      if (text) emit({ type: 'text-delta', choice: 0, text });
      return;
    }
    if (blockType === 'thinking') {
      const text = asString(block['thinking']);
      const signature = asString(block['signature']) ?? '';
      if (index !== undefined) this.thinking.set(index, { text: text ?? '', signature, redacted: undefined });
      if (text) emit({ type: 'reasoning-delta', choice: 0, text });
      if (signature) emit({ type: 'reasoning-delta', choice: 0, text: '', signature });
      return;
    }
    if (blockType === 'redacted_thinking') {
      if (index !== undefined) this.thinking.set(index, { text: '', signature: '', redacted: asString(block['data']) ?? '' });
      return;
    }
    if (blockType === 'server_tool_use' || blockType === 'mcp_tool_use') return this.serverToolStart(block, blockType, index, emit);
    if (blockType === 'compaction') {
      if (index !== undefined) (this.compactions ??= new Map()).set(index, { block: { ...block } });
      return;
    }
    if (blockType.endsWith('_tool_result') && blockType !== 'tool_result') return this.serverToolResult(block, index, emit);
    if (blockType !== 'tool_use' || index === undefined) return;
    const id = wireString(block['id']);
    const name = wireString(block['name']);
    const input = asRecord(block['input']);
    const prefilled = input !== undefined && Object.keys(input).length > 0;
    const previous = this.tools.get(index);
    // A block started again at the index of one the wire never stopped: that one was cut (not-closed).
    if (previous !== undefined && !previous.stopped) {
      previous.stopped = true;
      emit({ type: 'tool-call-end', choice: 0, index, incomplete: true, ...(previous.id === undefined ? {} : { id: previous.id }) });
    } else {
      this.unstopped++;
    }
    this.tools.set(index, { index, id, prefilled, stopped: false });
    const caller = block['caller'];
    emit({
      type: 'tool-call-delta',
      choice: 0,
      index,
      argumentsDelta: prefilled ? stringifyJson(input) : '',
      ...(id === undefined ? {} : { id }),
      ...(name === undefined ? {} : { name }),
      ...(prefilled ? { replace: true } : {}),
      metadata: caller === undefined || caller === null ? { type: blockType } : { type: blockType, caller },
    });
  }

  private blockDelta(data: Record<string, unknown>, emit: EventSink): void {
    const delta = asRecord(data['delta']);
    const index = asNumber(data['index']);
    switch (delta?.['type']) {
      case 'text_delta': {
        const text = asString(delta['text']);
        if (text) emit({ type: 'text-delta', choice: 0, text });
        return;
      }
      case 'thinking_delta': {
        const text = asString(delta['thinking']);
        const block = index === undefined ? undefined : this.thinking.get(index);
        if (text && block !== undefined) block.text += text;
        if (text) emit({ type: 'reasoning-delta', choice: 0, text });
        return;
      }
      case 'signature_delta': {
        const signature = asString(delta['signature']);
        const block = index === undefined ? undefined : this.thinking.get(index);
        if (signature && block !== undefined) block.signature += signature;
        if (signature) emit({ type: 'reasoning-delta', choice: 0, text: '', signature });
        return;
      }
      case 'input_json_delta': {
        const fragment = asString(delta['partial_json']);
        if (fragment === undefined) return;
        const server = index === undefined ? undefined : this.serverTools.get(index);
        if (server !== undefined) {
          if (fragment === '') return;
          server.json += fragment;
          emit({ type: 'provider-tool', choice: 0, provider: this.provider, index: index ?? -1, id: server.id, tool: server.tool, status: 'running', inputDelta: fragment });
          return;
        }
        const tool = index === undefined ? undefined : this.tools.get(index);
        // Streamed JSON wins over an `input` given in the block start: the first real fragment replaces it.
        const replace = tool !== undefined && tool.prefilled && fragment.length > 0;
        if (replace) tool.prefilled = false;
        emit(toolCallDelta(0, fragment, index, undefined, undefined, replace));
        return;
      }
      case 'compaction_delta': {
        // The delta carries the block's final summary (`null` for a failed compaction) and its encrypted content: set, not appended.
        const open = index === undefined ? undefined : this.compactions?.get(index);
        if (open === undefined) return;
        for (const key of ['content', 'encrypted_content', 'signature']) if (key in delta) open.block[key] = delta[key];
        return;
      }
      default:
        return; // citations_delta and later additions
    }
  }

  /**
   * A compaction block stopped (server-side context compaction): a `provider-tool` event (`tool:
   * 'compaction'`) with the whole block as `raw`, which a tool loop must send back first in the
   * next request; its summary is the `result`.
   */
  private compactionEnd(index: number, emit: EventSink): void {
    const open = this.compactions?.get(index);
    if (open === undefined) return;
    this.compactions?.delete(index);
    const content = open.block['content'];
    emit({
      type: 'provider-tool',
      choice: 0,
      provider: this.provider,
      index,
      id: `compaction_${index}`,
      tool: 'compaction',
      status: content === null ? 'failed' : 'completed',
      ...(typeof content === 'string' ? { result: content } : {}),
      raw: open.block,
    });
  }

  /**
   * A tool the server runs (`server_tool_use`: web search, code execution, …; `mcp_tool_use`): never
   * a call to run, a `provider-tool` event; its input streams as `input_json_delta`s.
   */
  private serverToolStart(block: Record<string, unknown>, blockType: string, index: number | undefined, emit: EventSink): void {
    const id = wireString(block['id']) ?? '';
    const tool = blockType === 'mcp_tool_use' ? 'mcp' : (wireString(block['name']) ?? '');
    this.serverToolNames.set(id, tool);
    const input = asRecord(block['input']);
    const prefilled = input !== undefined && Object.keys(input).length > 0;
    if (index !== undefined) this.serverTools.set(index, { block, id, tool, json: '' });
    const shown = blockType === 'mcp_tool_use' ? { server: block['server_name'], name: block['name'], arguments: input } : input;
    emit({ type: 'provider-tool', choice: 0, provider: this.provider, ...(index === undefined ? {} : { index }), id, tool, status: 'running', ...(prefilled ? { input: shown } : {}), raw: block });
  }

  /** A server tool block stopped: its whole input (streamed JSON wins over the start's), still running until its result block. */
  private serverToolEnd(index: number, emit: EventSink): void {
    const server = this.serverTools.get(index);
    if (server === undefined) return;
    this.serverTools.delete(index);
    let input: unknown = server.block['input'];
    if (server.json !== '') {
      try {
        input = JSON.parse(server.json) as unknown;
      } catch {
        input = server.json; // not JSON: shown as the text that came
      }
    }
    const raw = { ...server.block, input };
    const shown = server.block['type'] === 'mcp_tool_use' ? { server: server.block['server_name'], name: server.block['name'], arguments: input } : input;
    emit({ type: 'provider-tool', choice: 0, provider: this.provider, index, id: server.id, tool: server.tool, status: 'running', input: shown, raw });
  }

  /** A server tool's result block (`web_search_tool_result`, `code_execution_tool_result`, `mcp_tool_result`, …): whole in its start. */
  private serverToolResult(block: Record<string, unknown>, index: number | undefined, emit: EventSink): void {
    const id = wireString(block['tool_use_id']) ?? '';
    const type = asString(block['type']) ?? '';
    const tool = this.serverToolNames.get(id) ?? (type === 'mcp_tool_result' ? 'mcp' : type.slice(0, -'_tool_result'.length));
    const result = block['content'];
    emit({
      type: 'provider-tool',
      choice: 0,
      provider: this.provider,
      ...(index === undefined ? {} : { index }),
      id,
      tool,
      status: failedResult(block) ? 'failed' : 'completed',
      ...(result === undefined ? {} : { result }),
      raw: block,
    });
  }

  /** A thinking block stopped: the whole part, with its signature or redacted data. */
  private thinkingEnd(index: number, emit: EventSink): void {
    const block = this.thinking.get(index);
    if (block === undefined) return;
    this.thinking.delete(index);
    emit({
      type: 'reasoning-end',
      choice: 0,
      index,
      text: block.text,
      ...(block.signature === '' ? {} : { signature: block.signature }),
      ...(block.redacted === undefined ? {} : { redacted: block.redacted }),
    });
  }

  private messageDelta(data: Record<string, unknown>, emit: EventSink): void {
    const delta = asRecord(data['delta']);
    const rawReason = asString(delta?.['stop_reason']);
    const reason = rawReason ? normalizeAnthropicStopReason(rawReason) : undefined;
    this.closeUnstopped(emit, reason);
    if (rawReason && reason !== undefined) emit({ type: 'finish', choice: 0, reason, rawReason });
    const usage = asRecord(data['usage']);
    if (usage !== undefined) this.usage({ ...this.startUsage, ...usage }, emit, usage);
  }

  /** Tool blocks that never got `content_block_stop` when the message ended were cut: end them incomplete (by `reason`, when known). */
  private closeUnstopped(emit: EventSink, reason?: FinishReason): void {
    if (this.unstopped === 0) return;
    for (const tool of this.tools.values()) {
      if (tool.stopped) continue;
      tool.stopped = true;
      emit({ type: 'tool-call-end', choice: 0, index: tool.index, incomplete: true, ...(tool.id === undefined ? {} : { id: tool.id }), ...(reason === undefined ? {} : { finishReason: reason }) });
    }
    this.unstopped = 0;
  }

  private usage(usage: Record<string, unknown>, emit: EventSink, raw: unknown = usage): void {
    const event = usageEvent(anthropicUsage(usage), raw);
    if (event !== undefined) emit(event);
  }

  end(): void {
    if (this.done) return;
    const open = [...this.tools.values()].filter((t) => !t.stopped).length;
    throw new ToolStreamError('truncated', { provider: this.provider, detail: `no message_stop arrived${open > 0 ? ` (${open} tool_use block${open === 1 ? '' : 's'} still open)` : ''}` });
  }
}
