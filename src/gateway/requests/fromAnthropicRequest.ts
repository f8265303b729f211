/**
 * Translate an Anthropic Messages request into an OpenAI Chat Completions request (for a gateway
 * that accepts Anthropic clients and routes to an OpenAI-compatible upstream).
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import type { RequestInput as AnthropicRequestInput } from '../../providers/anthropic/wire';
import type * as OpenAIChatWire from '../../providers/openaiChat/wire';
import { RequestReader, type TranslateRequestOptions, type WithStream } from './requestReader';

const TOP_KEYS = /* @__PURE__ */ new Set(['model', 'max_tokens', 'messages', 'system', 'tools', 'tool_choice', 'stop_sequences', 'stream', 'metadata', 'temperature', 'top_p']);
const TEXT_KEYS = /* @__PURE__ */ new Set(['type', 'text']);
const TOOL_USE_KEYS = /* @__PURE__ */ new Set(['type', 'id', 'name', 'input']);
const TOOL_RESULT_KEYS = /* @__PURE__ */ new Set(['type', 'tool_use_id', 'content', 'is_error']);
const TOOL_KEYS = /* @__PURE__ */ new Set(['name', 'description', 'input_schema', 'type', 'strict', 'eager_input_streaming']);
const CHOICE_KEYS = /* @__PURE__ */ new Set(['type', 'name', 'disable_parallel_tool_use']);
/** The tool choice modes, looked up with `Object.hasOwn` (a type named `constructor` or `__proto__` is not one). */
const CHOICE_MODES: Readonly<Record<string, OpenAIChatWire.ToolChoice>> = { auto: 'auto', any: 'required', none: 'none' };

/**
 * Translate an Anthropic Messages request into an OpenAI Chat Completions request.
 *
 * `system` (and mid-conversation `system` messages) become `system` messages; `tool_use` blocks
 * become `tool_calls` (input as JSON text); each `tool_result` block becomes a `tool` message
 * (placed before the text of its user message); tools become function tools (`input_schema` →
 * `parameters`); `tool_choice` `auto` / `any` / `tool` / `none` becomes `auto` / `required` /
 * named / `none`, and `disable_parallel_tool_use` becomes `parallel_tool_calls: false`;
 * `max_tokens` becomes `max_completion_tokens`, `stop_sequences` `stop`, `metadata.user_id`
 * `user`; `stream: true` also asks for the usage chunk (`stream_options.include_usage`), since
 * Anthropic streams always report usage. Anything else (images, documents, thinking blocks,
 * `is_error`, `cache_control`, server tools, `top_k`, …) throws `unsupported-request` unless
 * named in `ignore`.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { fromAnthropicRequest } from 'rxjs-tool-calls/gateway';
 *
 * const params = fromAnthropicRequest({ model: 'gpt-4o', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
 * const stream = await new OpenAI().chat.completions.create(params);
 * ```
 *
 * @param request The Anthropic request (any `MessageCreateParams` value, or a parsed JSON body).
 * @param options `ignore`: field names and block types that may be dropped; `maxDepth`.
 * @return The chat request (`stream: true` kept as a literal when the input has it).
 * @throws {ToolStreamError} `unsupported-request` for any field, block or value Chat Completions cannot express, or a JSON value nested deeper
 *   than `maxDepth` (default 512); `invalid-option` for an option it does not take or a value it cannot use.
 */
export function fromAnthropicRequest<R extends AnthropicRequestInput>(request: R, options: TranslateRequestOptions = {}): WithStream<R, OpenAIChatWire.Request> {
  const reader: RequestReader = new RequestReader('openai-chat', 'fromAnthropicRequest', options);
  const body = reader.record(request, '(request)');
  reader.rejectUnknown(body, '', TOP_KEYS);
  const out: OpenAIChatWire.Request = { model: reader.string(body['model'], 'model'), messages: [] };
  const maxTokens = reader.optionalNumber(body['max_tokens'], 'max_tokens');
  if (maxTokens !== undefined) out.max_completion_tokens = maxTokens;
  if (body['system'] !== undefined && body['system'] !== null) {
    const content = textOf(reader, body['system'], 'system');
    if (typeof content === 'string' || content.length > 0) out.messages.push({ role: 'system', content });
  }
  const toolIds = new Set<string>();
  reader.array(body['messages'], 'messages').forEach((item, i) => {
    for (const message of messagesOf(reader, item, fieldPath('messages', i), toolIds)) out.messages.push(message);
  });
  if (body['tools'] !== undefined && body['tools'] !== null) out.tools = reader.array(body['tools'], 'tools').map((tool, i) => toolOf(reader, tool, fieldPath('tools', i)));
  readToolChoice(reader, body['tool_choice'], out);
  if (body['stop_sequences'] !== undefined && body['stop_sequences'] !== null) {
    const stop = reader.array(body['stop_sequences'], 'stop_sequences').map((s, i) => reader.string(s, fieldPath('stop_sequences', i)));
    if (stop.length > 0) out.stop = stop;
  }
  if (reader.optionalBoolean(body['stream'], 'stream') === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (body['metadata'] !== undefined && body['metadata'] !== null) {
    const metadata = reader.record(body['metadata'], 'metadata');
    reader.rejectUnknown(metadata, 'metadata', new Set(['user_id']));
    const user = reader.optionalString(metadata['user_id'], 'metadata.user_id');
    if (user !== undefined) out.user = user;
  }
  const temperature = reader.optionalNumber(body['temperature'], 'temperature');
  if (temperature !== undefined) out.temperature = temperature;
  const topP = reader.optionalNumber(body['top_p'], 'top_p');
  if (topP !== undefined) out.top_p = topP;
  return out as WithStream<R, OpenAIChatWire.Request>;
}

/** A string, or text blocks as text parts (other blocks throw unless their type is ignored). */
function textOf(reader: RequestReader, value: unknown, path: string): string | OpenAIChatWire.TextPart[] {
  if (typeof value === 'string') return value;
  const parts: OpenAIChatWire.TextPart[] = [];
  reader.array(value, path).forEach((item, i) => {
    const block = blockOf(reader, item, fieldPath(path, i));
    if (block.type !== 'text') return unsupportedBlock(reader, block.type, fieldPath(path, i));
    parts.push({ type: 'text', text: textBlock(reader, block.record, fieldPath(path, i)) });
  });
  return parts;
}

function blockOf(reader: RequestReader, value: unknown, path: string): { type: string; record: Record<string, unknown> } {
  const record = reader.record(value, path);
  const type = reader.string(record['type'], fieldPath(path, 'type'));
  return { type, record };
}

function unsupportedBlock(reader: RequestReader, type: string, path: string): void {
  if (!reader.isIgnored(type)) reader.fail(fieldPath(path, 'type'), `${type} blocks are not supported`);
}

function textBlock(reader: RequestReader, block: Record<string, unknown>, path: string): string {
  reader.rejectUnknown(block, path, TEXT_KEYS);
  return reader.string(block['text'], fieldPath(path, 'text'));
}

function messagesOf(reader: RequestReader, value: unknown, path: string, toolIds: Set<string>): OpenAIChatWire.Message[] {
  const message = reader.record(value, path);
  reader.rejectUnknown(message, path, new Set(['role', 'content']));
  const role = reader.string(message['role'], fieldPath(path, 'role'));
  const contentPath = fieldPath(path, 'content');
  if (role === 'system') return [{ role: 'system', content: textOf(reader, message['content'], contentPath) }];
  if (role !== 'user' && role !== 'assistant') return reader.fail(fieldPath(path, 'role'), `${role} messages are not supported`);
  const content = message['content'];
  if (typeof content === 'string') return [{ role, content }];
  const texts: OpenAIChatWire.TextPart[] = [];
  const calls: OpenAIChatWire.FunctionToolCall[] = [];
  const results: OpenAIChatWire.Message[] = [];
  reader.array(content, contentPath).forEach((item, i) => {
    const blockPath = fieldPath(contentPath, i);
    const block = blockOf(reader, item, blockPath);
    if (block.type === 'text') texts.push({ type: 'text', text: textBlock(reader, block.record, blockPath) });
    else if (block.type === 'tool_use' && role === 'assistant') calls.push(toolCallOf(reader, block.record, blockPath, toolIds));
    else if (block.type === 'tool_result' && role === 'user') results.push(toolResultOf(reader, block.record, blockPath, toolIds));
    else unsupportedBlock(reader, block.type, blockPath);
  });
  if (role === 'user') return texts.length === 0 ? results : [...results, { role: 'user', content: texts }];
  const first = texts[0];
  const text = first === undefined ? (calls.length === 0 ? '' : null) : texts.length === 1 ? first.text : texts;
  return [calls.length === 0 ? { role: 'assistant', content: text } : { role: 'assistant', content: text, tool_calls: calls }];
}

function toolCallOf(reader: RequestReader, block: Record<string, unknown>, path: string, toolIds: Set<string>): OpenAIChatWire.FunctionToolCall {
  reader.rejectUnknown(block, path, TOOL_USE_KEYS);
  const id = reader.string(block['id'], fieldPath(path, 'id'));
  if (toolIds.has(id)) reader.fail(fieldPath(path, 'id'), `the tool_use id ${JSON.stringify(id)} is used twice`);
  toolIds.add(id);
  const input = block['input'] === undefined ? {} : reader.record(block['input'], fieldPath(path, 'input'));
  reader.writable(input, fieldPath(path, 'input'));
  return { id, type: 'function', function: { name: reader.string(block['name'], fieldPath(path, 'name')), arguments: JSON.stringify(input) } };
}

function toolResultOf(reader: RequestReader, block: Record<string, unknown>, path: string, toolIds: ReadonlySet<string>): OpenAIChatWire.Message {
  reader.rejectUnknown(block, path, TOOL_RESULT_KEYS);
  reader.untranslatable(block['is_error'], fieldPath(path, 'is_error'), 'is_error', 'chat tool messages cannot mark an error', (v) => v === false);
  const idPath = fieldPath(path, 'tool_use_id');
  const id = reader.string(block['tool_use_id'], idPath);
  if (!toolIds.has(id)) reader.fail(idPath, `no earlier tool_use block has the id ${JSON.stringify(id)}`);
  const content = block['content'] === undefined || block['content'] === null ? '' : textOf(reader, block['content'], fieldPath(path, 'content'));
  return { role: 'tool', tool_call_id: id, content };
}

function toolOf(reader: RequestReader, value: unknown, path: string): OpenAIChatWire.FunctionTool {
  const tool = reader.record(value, path);
  const type = tool['type'];
  if (type !== undefined && type !== null && type !== 'custom') reader.fail(fieldPath(path, 'type'), `${String(type)} tools are not supported`);
  reader.rejectUnknown(tool, path, TOOL_KEYS);
  const schemaPath = fieldPath(path, 'input_schema');
  const parameters = reader.record(tool['input_schema'], schemaPath);
  reader.writable(parameters, schemaPath);
  const fn: OpenAIChatWire.FunctionTool['function'] = { name: reader.string(tool['name'], fieldPath(path, 'name')), parameters };
  const description = reader.optionalString(tool['description'], fieldPath(path, 'description'));
  if (description !== undefined) fn.description = description;
  if (reader.optionalBoolean(tool['strict'], fieldPath(path, 'strict')) === true) fn.strict = true;
  // Fine-grained tool streaming (the AI SDK's default): chat streams arguments as they are written anyway.
  reader.optionalBoolean(tool['eager_input_streaming'], fieldPath(path, 'eager_input_streaming'));
  return { type: 'function', function: fn };
}

function readToolChoice(reader: RequestReader, value: unknown, out: OpenAIChatWire.Request): void {
  if (value === undefined || value === null) return;
  const choice = reader.record(value, 'tool_choice');
  reader.rejectUnknown(choice, 'tool_choice', CHOICE_KEYS);
  const type = reader.string(choice['type'], 'tool_choice.type');
  const mapped =
    type === 'tool' ? { type: 'function' as const, function: { name: reader.string(choice['name'], 'tool_choice.name') } } : Object.hasOwn(CHOICE_MODES, type) ? CHOICE_MODES[type] : undefined;
  if (mapped === undefined) reader.fail('tool_choice.type', `unknown tool_choice type ${JSON.stringify(type)}`);
  out.tool_choice = mapped;
  if (reader.optionalBoolean(choice['disable_parallel_tool_use'], 'tool_choice.disable_parallel_tool_use') === true) out.parallel_tool_calls = false;
}
