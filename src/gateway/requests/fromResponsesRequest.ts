/**
 * Translate an OpenAI Responses request into an OpenAI Chat Completions request (for a gateway that
 * accepts Responses clients, over HTTP or the WebSocket mode, and routes to any upstream through
 * the chat translators).
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import type * as OpenAIChatWire from '../../providers/openaiChat/wire';
import type { RequestInput as ResponsesRequestInput } from '../../providers/openaiResponses/wire';
import { joinText, RequestReader, type TranslateRequestOptions, type WithStream } from './requestReader';

const TOP_KEYS = /* @__PURE__ */ new Set(['model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens', 'temperature', 'top_p', 'stream', 'user', 'store']);
const MESSAGE_KEYS = /* @__PURE__ */ new Set(['type', 'role', 'content', 'id', 'status']);
const CALL_KEYS = /* @__PURE__ */ new Set(['type', 'call_id', 'name', 'arguments', 'id', 'status']);
const CUSTOM_CALL_KEYS = /* @__PURE__ */ new Set(['type', 'call_id', 'name', 'input', 'id', 'status']);
const OUTPUT_KEYS = /* @__PURE__ */ new Set(['type', 'call_id', 'output', 'id', 'status']);
const TOOL_KEYS = /* @__PURE__ */ new Set(['type', 'name', 'description', 'parameters', 'strict']);
const TEXT_PART_KEYS = /* @__PURE__ */ new Set(['type', 'text', 'annotations', 'logprobs']);

/** The text part types of each role's messages. */
const TEXT_PARTS: Readonly<Record<string, string>> = { user: 'input_text', system: 'input_text', developer: 'input_text', assistant: 'output_text' };

/** The chat request being written, with the calls its assistant turns made (for their outputs). */
interface Writing {
  readonly out: OpenAIChatWire.Request;
  readonly calls: Set<string>;
}

/**
 * Translate an OpenAI Responses request into an OpenAI Chat Completions request.
 *
 * `instructions` becomes the first `system` message; `input` text becomes a user message; input
 * items become messages in order: a `user`, `system` or `developer` message keeps its role (its
 * `input_text` parts as text), an `assistant` message its text (`output_text` parts); `function_call`
 * (and `custom_tool_call`) items join the assistant turn before them as its `tool_calls` (or start
 * one with `content: null`); a `function_call_output` (`custom_tool_call_output`) becomes a `tool`
 * message, which must answer an earlier call. Function tools become chat function tools (`strict`
 * kept when `true`); `tool_choice` keeps its mode or named function; `max_output_tokens` becomes
 * `max_completion_tokens`; `stream: true` also asks for the usage chunk; `store: false` is dropped.
 * Anything else (`reasoning` items, images, server tools, `previous_response_id`, `store: true`,
 * `include`, `text`, `reasoning`, …)
 * throws `unsupported-request` naming it unless named in `ignore` (a field, or an item, part or tool
 * type): a gateway that resolves `previous_response_id` itself drops it first.
 *
 * @example
 * ```ts
 * import { fromResponsesRequest, toAnthropicRequest } from 'rxjs-tool-calls/gateway';
 *
 * const chat = fromResponsesRequest({ model: 'claude-sonnet-4-5', stream: true, input: [{ role: 'user', content: 'Hi' }], store: false }, { ignore: ['store', 'reasoning'] });
 * const anthropic = toAnthropicRequest(chat);
 * console.log(anthropic.messages); // [{ role: 'user', content: 'Hi' }]
 * ```
 *
 * @param request The Responses request (a `ResponseCreateParams` value, a parsed body or a WebSocket turn without its `type`).
 * @param options `ignore`: field names and item, part or tool types that may be dropped; `maxDepth`.
 * @return The chat request (`stream: true` kept as a literal when the input has it).
 * @throws {ToolStreamError} `unsupported-request` for any field, item or value Chat Completions cannot express, or a JSON value nested deeper
 *   than `maxDepth` (default 512); `invalid-option` for an option it does not take or a value it cannot use.
 */
export function fromResponsesRequest<R extends ResponsesRequestInput>(request: R, options: TranslateRequestOptions = {}): WithStream<R, OpenAIChatWire.Request> {
  const reader: RequestReader = new RequestReader('openai-chat', 'fromResponsesRequest', options);
  const body = reader.record(request, '(request)');
  reader.rejectUnknown(body, '', TOP_KEYS);
  const writing: Writing = { out: { model: reader.string(body['model'], 'model'), messages: [] }, calls: new Set() };
  const out = writing.out;
  const instructions = reader.optionalString(body['instructions'], 'instructions');
  if (instructions !== undefined && instructions !== '') out.messages.push({ role: 'system', content: instructions });
  const input = body['input'];
  if (typeof input === 'string') out.messages.push({ role: 'user', content: input });
  else reader.array(input, 'input').forEach((item, i) => addItem(reader, writing, item, fieldPath('input', i)));
  if (body['tools'] !== undefined && body['tools'] !== null) {
    const tools: OpenAIChatWire.FunctionTool[] = [];
    reader.array(body['tools'], 'tools').forEach((tool, i) => {
      const written = toolOf(reader, tool, fieldPath('tools', i));
      if (written !== undefined) tools.push(written);
    });
    if (tools.length > 0) out.tools = tools;
  }
  readToolChoice(reader, body['tool_choice'], out);
  const parallel = reader.optionalBoolean(body['parallel_tool_calls'], 'parallel_tool_calls');
  if (parallel !== undefined) out.parallel_tool_calls = parallel;
  const maxTokens = reader.optionalNumber(body['max_output_tokens'], 'max_output_tokens');
  if (maxTokens !== undefined) out.max_completion_tokens = maxTokens;
  const temperature = reader.optionalNumber(body['temperature'], 'temperature');
  if (temperature !== undefined) out.temperature = temperature;
  const topP = reader.optionalNumber(body['top_p'], 'top_p');
  if (topP !== undefined) out.top_p = topP;
  const user = reader.optionalString(body['user'], 'user');
  if (user !== undefined) out.user = user;
  reader.untranslatable(body['store'], 'store', 'store', 'a chat request cannot store its response for later turns', (value) => value === false);
  if (reader.optionalBoolean(body['stream'], 'stream') === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  return out as WithStream<R, OpenAIChatWire.Request>;
}

/** One input item as the chat messages it stands for. */
function addItem(reader: RequestReader, writing: Writing, value: unknown, path: string): void {
  const item = reader.record(value, path);
  const type = reader.optionalString(item['type'], fieldPath(path, 'type')) ?? 'message';
  switch (type) {
    case 'message':
      return addMessage(reader, writing.out, item, path);
    case 'function_call':
    case 'custom_tool_call':
      return addCall(reader, writing, item, type, path);
    case 'function_call_output':
    case 'custom_tool_call_output':
      return addOutput(reader, writing, item, path);
    default:
      if (!reader.isIgnored(type)) reader.fail(fieldPath(path, 'type'), `${type} items are not supported`);
  }
}

function addMessage(reader: RequestReader, out: OpenAIChatWire.Request, item: Record<string, unknown>, path: string): void {
  reader.rejectUnknown(item, path, MESSAGE_KEYS);
  const rolePath = fieldPath(path, 'role');
  const role = reader.string(item['role'], rolePath);
  const partType = Object.prototype.hasOwnProperty.call(TEXT_PARTS, role) ? TEXT_PARTS[role] : undefined;
  if (partType === undefined) return reader.fail(rolePath, `${role} messages are not supported`);
  const text = textOf(reader, item['content'], fieldPath(path, 'content'), partType);
  if (role === 'assistant') out.messages.push({ role: 'assistant', content: joinText(text) });
  else out.messages.push({ role: role as 'user' | 'system' | 'developer', content: typeof text === 'string' ? text : text.map((t) => ({ type: 'text' as const, text: t })) });
}

/** A message's content: a string, or its text parts (`annotations` and `logprobs` of an output text are dropped). */
function textOf(reader: RequestReader, value: unknown, path: string, partType: string): string | string[] {
  if (typeof value === 'string') return value;
  const parts: string[] = [];
  reader.array(value, path).forEach((entry, i) => {
    const partPath = fieldPath(path, i);
    const part = reader.record(entry, partPath);
    const type = reader.string(part['type'], fieldPath(partPath, 'type'));
    if (type !== partType) {
      if (!reader.isIgnored(type)) reader.fail(fieldPath(partPath, 'type'), `${type} parts are not supported (only ${partType})`);
      return;
    }
    reader.rejectUnknown(part, partPath, TEXT_PART_KEYS);
    parts.push(reader.string(part['text'], fieldPath(partPath, 'text')));
  });
  return parts;
}

/** The assistant turn a call joins: the last message when it is an assistant turn no tool answered yet, else a new one. */
function assistantTurn(out: OpenAIChatWire.Request): OpenAIChatWire.AssistantMessage {
  const last = out.messages[out.messages.length - 1];
  if (last !== undefined && last.role === 'assistant') return last;
  const turn: OpenAIChatWire.AssistantMessage = { role: 'assistant', content: null };
  out.messages.push(turn);
  return turn;
}

function addCall(reader: RequestReader, writing: Writing, item: Record<string, unknown>, type: 'function_call' | 'custom_tool_call', path: string): void {
  reader.rejectUnknown(item, path, type === 'function_call' ? CALL_KEYS : CUSTOM_CALL_KEYS);
  const idPath = fieldPath(path, 'call_id');
  const id = reader.string(item['call_id'], idPath);
  if (writing.calls.has(id)) reader.fail(idPath, `the call_id ${JSON.stringify(id)} is used twice`);
  writing.calls.add(id);
  const name = reader.string(item['name'], fieldPath(path, 'name'));
  const turn = assistantTurn(writing.out);
  const call: OpenAIChatWire.FunctionToolCall | OpenAIChatWire.CustomToolCall =
    type === 'function_call'
      ? { id, type: 'function', function: { name, arguments: reader.string(item['arguments'], fieldPath(path, 'arguments')) } }
      : { id, type: 'custom', custom: { name, input: reader.string(item['input'], fieldPath(path, 'input')) } };
  (turn.tool_calls ??= []).push(call);
}

function addOutput(reader: RequestReader, writing: Writing, item: Record<string, unknown>, path: string): void {
  reader.rejectUnknown(item, path, OUTPUT_KEYS);
  const idPath = fieldPath(path, 'call_id');
  const id = reader.string(item['call_id'], idPath);
  if (!writing.calls.has(id)) reader.fail(idPath, `no earlier call has the call_id ${JSON.stringify(id)}`);
  const output = textOf(reader, item['output'], fieldPath(path, 'output'), 'input_text');
  writing.out.messages.push({ role: 'tool', tool_call_id: id, content: joinText(output) });
}

function toolOf(reader: RequestReader, value: unknown, path: string): OpenAIChatWire.FunctionTool | undefined {
  const tool = reader.record(value, path);
  const type = reader.string(tool['type'], fieldPath(path, 'type'));
  if (type !== 'function') {
    if (!reader.isIgnored(type)) reader.fail(fieldPath(path, 'type'), `${type} tools are not supported`);
    return undefined;
  }
  reader.rejectUnknown(tool, path, TOOL_KEYS);
  const fn = reader.flatFunction(tool, path);
  if (reader.optionalBoolean(tool['strict'], fieldPath(path, 'strict')) === true) fn.strict = true;
  return { type: 'function', function: fn };
}

function readToolChoice(reader: RequestReader, value: unknown, out: OpenAIChatWire.Request): void {
  if (value === undefined || value === null) return;
  if (value === 'auto' || value === 'none' || value === 'required') {
    out.tool_choice = value;
    return;
  }
  const choice = reader.record(value, 'tool_choice');
  reader.rejectUnknown(choice, 'tool_choice', new Set(['type', 'name']));
  const type = reader.string(choice['type'], 'tool_choice.type');
  if (type !== 'function') reader.fail('tool_choice.type', `a ${JSON.stringify(type)} tool choice is not supported`);
  out.tool_choice = { type: 'function', function: { name: reader.string(choice['name'], 'tool_choice.name') } };
}
