/**
 * Readable builders for provider wire events, as the SSE text a server sends.
 *
 * @module
 */
import { ToolStreamError } from '../src/errors';
import { aCount, anObject, aString, checkOptions, checkOptionsAt, type OptionCheck, type OptionChecks } from '../src/internal/options';

/** An array (its members are checked one by one where they have keys). */
const anArray: OptionCheck = (value) => (Array.isArray(value) ? undefined : 'an array');

/** An index or a count: a whole number, 0 or more. */
const anIndex: OptionCheck = aCount(0, false);

/** The fields of one Server-Sent Event. */
export interface SseEventFields {
  /** The `event:` field; omitted when absent (the event is then a `message`). */
  readonly event?: string;
  /** The data; each line becomes one `data:` line. */
  readonly data: string;
  /** The `id:` field (the stream's last event id); omitted when absent. */
  readonly id?: string;
  /** The `retry:` field, the reconnection delay in milliseconds; omitted when absent. */
  readonly retry?: number;
}

/** The checks of {@link SseEventFields}' keys. */
const SSE_EVENT_CHECKS: OptionChecks = { event: aString, data: aString, id: aString, retry: anIndex };

/**
 * One Server-Sent Event as text: `event:`, `id:`, `retry:` and one `data:` line per data line,
 * then a blank line.
 *
 * ```ts
 * sseEvent({ event: 'ping', data: 'a\nb' }) // 'event: ping\ndata: a\ndata: b\n\n'
 * ```
 */
export function sseEvent(fields: SseEventFields): string {
  checkOptionsAt('sseEvent', 'fields', fields, [SSE_EVENT_CHECKS]);
  if (typeof fields.data !== 'string') throw new ToolStreamError('invalid-option', { function: 'sseEvent', option: 'fields.data', value: fields.data, expected: 'a string' });
  let out = '';
  if (fields.event !== undefined) out += `event: ${fields.event}\n`;
  if (fields.id !== undefined) out += `id: ${fields.id}\n`;
  if (fields.retry !== undefined) out += `retry: ${fields.retry}\n`;
  for (const line of fields.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** One tool-call fragment of an OpenAI chat chunk. */
export interface OpenAIToolCallDelta {
  /** Default: the fragment's position in `toolCalls`. */
  readonly index?: number;
  /** Sent on the first fragment of a call (with `type: "function"`). */
  readonly id?: string;
  /** The tool name (`function.name`); usually only on the first fragment of a call. Omitted when absent. */
  readonly name?: string;
  /** The next piece of the JSON arguments text. */
  readonly arguments?: string;
}

/** What {@link openaiChunk} puts in a `chat.completion.chunk`. */
export interface OpenAIChunkOptions {
  /** Tool-call fragments, sent as `delta.tool_calls`. */
  readonly toolCalls?: ReadonlyArray<OpenAIToolCallDelta>;
  /** Visible text, sent as `delta.content`. */
  readonly content?: string;
  /** Sent as `delta.reasoning_content` (DeepSeek, vLLM, …). */
  readonly reasoning?: string;
  /** `delta.role`, e.g. `'assistant'` on the first chunk. */
  readonly role?: string;
  /** The choice's `finish_reason` (e.g. `'tool_calls'`, `'stop'`, `'length'`). Default `null` (still streaming). */
  readonly finishReason?: string | null;
  /** The `usage` object. With nothing else given, the chunk has `choices: []` (as with `include_usage`). */
  readonly usage?: Readonly<Record<string, unknown>>;
  /** The choice index. Default 0. */
  readonly choice?: number;
  /** Default `'chatcmpl-test'`. */
  readonly id?: string;
  /** Default `'gpt-test'`. */
  readonly model?: string;
  /** Default 0. */
  readonly created?: number;
}

/** The checks of {@link OpenAIToolCallDelta}'s keys. */
const TOOL_CALL_DELTA_CHECKS: OptionChecks = { index: anIndex, id: aString, name: aString, arguments: aString };

/** The checks of {@link OpenAIChunkOptions}' keys. */
const OPENAI_CHUNK_CHECKS: OptionChecks = {
  toolCalls: anArray,
  content: aString,
  reasoning: aString,
  role: aString,
  finishReason: (value) => (value === null ? undefined : aString(value)),
  usage: anObject,
  choice: anIndex,
  id: aString,
  model: aString,
  created: anIndex,
};

/**
 * An OpenAI Chat Completions chunk as an SSE `data:` event.
 *
 * ```ts
 * openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '' }] })
 * openaiChunk({ toolCalls: [{ arguments: '{"city":"Paris"}' }] })
 * openaiChunk({ finishReason: 'tool_calls' })
 * openaiChunk({ usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } }) // choices: []
 * ```
 */
export function openaiChunk(options: OpenAIChunkOptions = {}): string {
  return sseEvent({ data: JSON.stringify(chunkObject('openaiChunk', options)) });
}

/** The chunk object {@link openaiChunk} serialises (what the `openai` SDK yields). */
export function openaiChunkObject(options: OpenAIChunkOptions = {}): Record<string, unknown> {
  return chunkObject('openaiChunkObject', options);
}

function chunkObject(fn: string, options: OpenAIChunkOptions): Record<string, unknown> {
  checkOptions(fn, options, OPENAI_CHUNK_CHECKS);
  options.toolCalls?.forEach((call, i) => checkOptionsAt(fn, `options.toolCalls[${i}]`, call, [TOOL_CALL_DELTA_CHECKS]));
  const delta: Record<string, unknown> = {};
  if (options.role !== undefined) delta['role'] = options.role;
  if (options.content !== undefined) delta['content'] = options.content;
  if (options.reasoning !== undefined) delta['reasoning_content'] = options.reasoning;
  if (options.toolCalls !== undefined) {
    delta['tool_calls'] = options.toolCalls.map((call, position) => {
      const fn: Record<string, unknown> = {};
      if (call.name !== undefined) fn['name'] = call.name;
      fn['arguments'] = call.arguments ?? '';
      return { index: call.index ?? position, ...(call.id === undefined ? {} : { id: call.id, type: 'function' }), function: fn };
    });
  }
  const onlyUsage = options.usage !== undefined && Object.keys(delta).length === 0 && options.finishReason === undefined;
  const chunk: Record<string, unknown> = {
    id: options.id ?? 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: options.created ?? 0,
    model: options.model ?? 'gpt-test',
    choices: onlyUsage ? [] : [{ index: options.choice ?? 0, delta, finish_reason: options.finishReason ?? null }],
  };
  if (options.usage !== undefined) chunk['usage'] = options.usage;
  return chunk;
}

/** OpenAI's terminator: `data: [DONE]`. */
export function openaiDone(): string {
  return sseEvent({ data: '[DONE]' });
}

/** An event named `type` whose JSON data has `type` first, then `payload`'s members. */
function typedEvent(type: string, payload: Readonly<Record<string, unknown>>): string {
  return sseEvent({ event: type, data: JSON.stringify({ type, ...payload }) });
}

/**
 * An Anthropic Messages event (`event: <type>` and `{"type": <type>, …payload}`).
 *
 * ```ts
 * anthropicEvent('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } })
 * ```
 */
export function anthropicEvent(type: string, payload: Readonly<Record<string, unknown>> = {}): string {
  return typedEvent(type, payload);
}

/**
 * An OpenAI Responses API event (`event: <type>` and `{"type": <type>, …payload}`).
 *
 * ```ts
 * responsesEvent('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '{"ci' })
 * ```
 */
export function responsesEvent(type: string, payload: Readonly<Record<string, unknown>> = {}): string {
  return typedEvent(type, payload);
}

/**
 * A Cohere v2 chat event (`event: <type>` and `{"type": <type>, …payload}`).
 *
 * ```ts
 * cohereEvent('tool-call-delta', { index: 0, delta: { message: { tool_calls: { function: { arguments: '{"c' } } } } })
 * ```
 */
export function cohereEvent(type: string, payload: Readonly<Record<string, unknown>> = {}): string {
  return typedEvent(type, payload);
}

/**
 * A Gemini Interactions API event (`event: <type>` and `{…payload, "event_type": <type>}`).
 *
 * ```ts
 * geminiInteractionsEvent('step.delta', { index: 1, delta: { type: 'arguments_delta', arguments: '{"ci' } })
 * ```
 */
export function geminiInteractionsEvent(type: string, payload: Readonly<Record<string, unknown>> = {}): string {
  return sseEvent({ event: type, data: JSON.stringify({ ...payload, event_type: type }) });
}

/** One Gemini function call part. */
export interface GeminiFunctionCall {
  /** The function name (e.g. `'get_weather'`). */
  readonly name: string;
  /** The whole arguments object. Default `{}`. */
  readonly args?: Readonly<Record<string, unknown>>;
  /** The call id; omitted when absent (Gemini often sends none, and the library then generates one). */
  readonly id?: string;
  /** The part's `thoughtSignature` (opaque, to be sent back verbatim); omitted when absent. */
  readonly thoughtSignature?: string;
}

/** What {@link geminiChunk} puts in a `GenerateContentResponse`. */
export interface GeminiChunkOptions {
  /** Visible text: a `{ text }` part, after the thought part. */
  readonly text?: string;
  /** A thought part (`{ text, thought: true }`). */
  readonly thought?: string;
  /** One `functionCall` part per entry, after the text part. */
  readonly functionCalls?: ReadonlyArray<GeminiFunctionCall>;
  /** Raw parts, appended after the ones above. */
  readonly parts?: ReadonlyArray<unknown>;
  /** The candidate's `finishReason` (e.g. `'STOP'`, `'MAX_TOKENS'`); omitted when absent (the candidate is still streaming). */
  readonly finishReason?: string;
  /** The chunk's `usageMetadata` (e.g. `{ promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 }`); omitted when absent. */
  readonly usageMetadata?: Readonly<Record<string, unknown>>;
  /** The candidate index. Default 0. */
  readonly index?: number;
  /** The chunk's `modelVersion` (e.g. `'gemini-2.5-flash'`); omitted when absent. */
  readonly modelVersion?: string;
  /** The chunk's `responseId`; omitted when absent. */
  readonly responseId?: string;
}

/** The checks of {@link GeminiFunctionCall}'s keys. */
const FUNCTION_CALL_CHECKS: OptionChecks = { name: aString, args: anObject, id: aString, thoughtSignature: aString };

/** The checks of {@link GeminiChunkOptions}' keys. */
const GEMINI_CHUNK_CHECKS: OptionChecks = {
  text: aString,
  thought: aString,
  functionCalls: anArray,
  parts: anArray,
  finishReason: aString,
  usageMetadata: anObject,
  index: anIndex,
  modelVersion: aString,
  responseId: aString,
};

/**
 * A Gemini `streamGenerateContent?alt=sse` chunk as an SSE `data:` event.
 *
 * ```ts
 * geminiChunk({ functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }], finishReason: 'STOP' })
 * ```
 */
export function geminiChunk(options: GeminiChunkOptions = {}): string {
  checkOptions('geminiChunk', options, GEMINI_CHUNK_CHECKS);
  options.functionCalls?.forEach((call, i) => checkOptionsAt('geminiChunk', `options.functionCalls[${i}]`, call, [FUNCTION_CALL_CHECKS]));
  const parts: unknown[] = [];
  if (options.thought !== undefined) parts.push({ text: options.thought, thought: true });
  if (options.text !== undefined) parts.push({ text: options.text });
  for (const call of options.functionCalls ?? []) {
    const functionCall = { name: call.name, args: call.args ?? {}, ...(call.id === undefined ? {} : { id: call.id }) };
    parts.push({ functionCall, ...(call.thoughtSignature === undefined ? {} : { thoughtSignature: call.thoughtSignature }) });
  }
  parts.push(...(options.parts ?? []));
  const candidate: Record<string, unknown> = { content: { role: 'model', parts }, index: options.index ?? 0 };
  if (options.finishReason !== undefined) candidate['finishReason'] = options.finishReason;
  const chunk: Record<string, unknown> = { candidates: [candidate] };
  if (options.usageMetadata !== undefined) chunk['usageMetadata'] = options.usageMetadata;
  if (options.modelVersion !== undefined) chunk['modelVersion'] = options.modelVersion;
  if (options.responseId !== undefined) chunk['responseId'] = options.responseId;
  return sseEvent({ data: JSON.stringify(chunk) });
}
