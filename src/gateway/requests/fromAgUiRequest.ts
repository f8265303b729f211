/**
 * Translate what an AG-UI client posts (a `RunAgentInput`) into an OpenAI Chat Completions request,
 * for a gateway that answers AG-UI clients from any upstream.
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import type * as AgUiWire from '../../providers/agUi/wire';
import type * as OpenAIChatWire from '../../providers/openaiChat/wire';
import type { RequestReader } from './requestReader';
import { chatRequest, type StreamingChatRequest, uiRequestReader, type FromUiRequestOptions } from './uiRequest';

const INPUT_KEYS = /* @__PURE__ */ new Set(['threadId', 'runId', 'protocolVersion', 'parentRunId', 'state', 'messages', 'tools', 'context', 'forwardedProps', 'resume']);
const MESSAGE_KEYS = /* @__PURE__ */ new Set(['id', 'role', 'content', 'name', 'toolCalls', 'toolCallId', 'error', 'metadata', 'encryptedValue', 'subagentRunId']);
const CALL_KEYS = /* @__PURE__ */ new Set(['id', 'type', 'function', 'encryptedValue', 'metadata']);
const TOOL_KEYS = /* @__PURE__ */ new Set(['name', 'description', 'parameters', 'metadata']);

/**
 * Translate an AG-UI `RunAgentInput` into an OpenAI Chat Completions request.
 *
 * `developer`, `system` and `user` messages become chat messages of their role (a user message's
 * text parts its content); an `assistant` message its text and `toolCalls`; a `tool` message a tool
 * message (its `content` is what the model is shown; `error` marks the failure for the app and is
 * not sent). `activity` and `reasoning` messages are the client's own and are left out, as the
 * protocol allows. The client's `tools` become function tools (after `options.tools`, the server's;
 * a name in both throws), its `context` one `system` message after the leading instructions
 * (`description: value` per line). `threadId`, `runId`, `parentRunId`, `protocolVersion` and
 * `forwardedProps` (the app's own) are not translated. Media parts, agent `state` other than empty,
 * `resume` answers, participant names and unknown fields throw `unsupported-request` unless named in
 * `ignore`. The request names `options.model`, puts `options.system` first; it streams, with the
 * usage chunk.
 *
 * @example
 * ```ts
 * import { fromAgUiRequest, toGeminiRequest } from 'rxjs-tool-calls/gateway';
 *
 * declare const input: unknown; // the parsed RunAgentInput an AG-UI client posted
 *
 * const chat = fromAgUiRequest(input as never, { model: 'gemini-2.5-flash' });
 * const { path, body } = toGeminiRequest(chat);
 * ```
 *
 * @param input The `RunAgentInput` the client posted.
 * @param options `model` (required), `system`, `tools`; `ignore`: field names and part types that may be dropped; `maxDepth`.
 * @return The chat request, with `stream: true`.
 * @throws {ToolStreamError} `unsupported-request` for a field, message or part Chat Completions cannot express (naming its path, e.g.
 *   `messages[2].content[0].type`), or a JSON value nested deeper than `maxDepth`; `invalid-option` for an option it does not take or a value
 *   it cannot use (a `model` that is not a non-empty string).
 */
export function fromAgUiRequest(input: AgUiWire.RunAgentInput, options: FromUiRequestOptions): StreamingChatRequest {
  const reader = uiRequestReader('fromAgUiRequest', options);
  const body = reader.record(input, '(request)');
  reader.rejectUnknown(body, '', INPUT_KEYS);
  reader.untranslatable(body['state'], 'state', 'state', 'the agent state has no place in a chat request', isEmpty);
  reader.untranslatable(body['resume'], 'resume', 'resume', 'answers to interrupts need the agent that asked', (value) => Array.isArray(value) && value.length === 0);
  const messages: OpenAIChatWire.Message[] = [];
  const callIds = new Set<string>();
  reader.array(body['messages'], 'messages').forEach((item, i) => {
    const message = messageOf(reader, item, fieldPath('messages', i), callIds);
    if (message !== undefined) messages.push(message);
  });
  const context = contextOf(reader, body['context']);
  if (context !== undefined) {
    let at = 0;
    while (at < messages.length && (messages[at]?.role === 'system' || messages[at]?.role === 'developer')) at++;
    messages.splice(at, 0, { role: 'system', content: context });
  }
  const tools = body['tools'] === undefined || body['tools'] === null ? [] : reader.array(body['tools'], 'tools').map((tool, i) => toolOf(reader, tool, fieldPath('tools', i)));
  return chatRequest(reader, options, messages, tools);
}

/** An absent, `null` or empty state or value (`{}`, `[]`). */
function isEmpty(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** One message as a chat message (`undefined`: a client-side message, left out). */
function messageOf(reader: RequestReader, value: unknown, path: string, callIds: Set<string>): OpenAIChatWire.Message | undefined {
  const message = reader.record(value, path);
  const role = reader.string(message['role'], fieldPath(path, 'role'));
  if (role === 'activity' || role === 'reasoning') return undefined;
  reader.rejectUnknown(message, path, MESSAGE_KEYS);
  reader.untranslatable(message['name'], fieldPath(path, 'name'), 'name', 'participant names are not supported');
  const contentPath = fieldPath(path, 'content');
  switch (role) {
    case 'developer':
    case 'system':
      return { role, content: reader.string(message['content'], contentPath) };
    case 'user':
      return { role: 'user', content: textOf(reader, message['content'], contentPath) };
    case 'assistant': {
      const content = reader.optionalString(message['content'], contentPath);
      const calls =
        message['toolCalls'] === undefined || message['toolCalls'] === null
          ? []
          : reader.array(message['toolCalls'], fieldPath(path, 'toolCalls')).map((call, i) => callOf(reader, call, fieldPath(fieldPath(path, 'toolCalls'), i), callIds));
      return calls.length === 0 ? { role: 'assistant', content: content ?? '' } : { role: 'assistant', content: content === undefined || content === '' ? null : content, tool_calls: calls };
    }
    case 'tool': {
      const idPath = fieldPath(path, 'toolCallId');
      const id = reader.string(message['toolCallId'], idPath);
      if (!callIds.has(id)) reader.fail(idPath, `no earlier assistant message has a tool call with the id ${JSON.stringify(id)}`);
      reader.optionalString(message['error'], fieldPath(path, 'error'));
      return { role: 'tool', tool_call_id: id, content: textOf(reader, message['content'], contentPath) };
    }
    default:
      return reader.fail(fieldPath(path, 'role'), `${role} messages are not supported`);
  }
}

/** Content as text: a string, or text parts (media parts throw unless their type is ignored). */
function textOf(reader: RequestReader, value: unknown, path: string): string | OpenAIChatWire.TextPart[] {
  if (typeof value === 'string') return value;
  const parts: OpenAIChatWire.TextPart[] = [];
  reader.array(value, path).forEach((item, i) => {
    const partPath = fieldPath(path, i);
    const part = reader.record(item, partPath);
    const type = reader.string(part['type'], fieldPath(partPath, 'type'));
    if (type === 'text') parts.push({ type: 'text', text: reader.string(part['text'], fieldPath(partPath, 'text')) });
    else if (!reader.isIgnored(type)) reader.fail(fieldPath(partPath, 'type'), `${type} parts are not supported`);
  });
  return parts;
}

function callOf(reader: RequestReader, value: unknown, path: string, callIds: Set<string>): OpenAIChatWire.FunctionToolCall {
  const call = reader.record(value, path);
  reader.rejectUnknown(call, path, CALL_KEYS);
  const id = reader.string(call['id'], fieldPath(path, 'id'));
  if (callIds.has(id)) reader.fail(fieldPath(path, 'id'), `the tool call id ${JSON.stringify(id)} is used twice`);
  callIds.add(id);
  if (call['type'] !== undefined && call['type'] !== 'function') reader.fail(fieldPath(path, 'type'), 'must be "function"');
  const fn = reader.record(call['function'], fieldPath(path, 'function'));
  return { id, type: 'function', function: { name: reader.string(fn['name'], fieldPath(path, 'function.name')), arguments: reader.string(fn['arguments'], fieldPath(path, 'function.arguments')) } };
}

function toolOf(reader: RequestReader, value: unknown, path: string): OpenAIChatWire.FunctionTool {
  const tool = reader.record(value, path);
  reader.rejectUnknown(tool, path, TOOL_KEYS);
  const fn = reader.flatFunction(tool, path);
  return { type: 'function', function: fn };
}

/** The client's context as one system text (`undefined` when it has none). */
function contextOf(reader: RequestReader, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const lines = reader.array(value, 'context').map((item, i) => {
    const path = fieldPath('context', i);
    const entry = reader.record(item, path);
    reader.rejectUnknown(entry, path, new Set(['description', 'value']));
    return `${reader.string(entry['description'], fieldPath(path, 'description'))}: ${reader.string(entry['value'], fieldPath(path, 'value'))}`;
  });
  return lines.length === 0 ? undefined : lines.join('\n');
}
