/**
 * Read a Chat Completions request once, checking every field, into the plain structure the
 * request translators (`toAnthropicRequest()`, `toResponsesRequest()`, `toGeminiRequest()`) write
 * from. What no target can express (images, audio, custom tools, `n > 1`, …) throws here; what
 * only some targets lack is left to them.
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import type { JsonSchema } from '../../providers/openaiChat/wire';
import type { RequestReader } from './requestReader';

/** Text as the request gave it: one string, or the texts of its parts. */
export type TextContent = string | string[];

/** One tool call of an assistant message. */
export interface ReadCall {
  /** The call's id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The arguments text, as sent. */
  readonly arguments: string;
  /** The JSON path of the call (`messages[3].tool_calls[0]`). */
  readonly path: string;
  /** Gemini's thought signature (`extra_content.google.thought_signature`), when present. */
  readonly thoughtSignature?: string;
}

/** One message after the leading system messages, with its JSON path. */
export type ChatTurn =
  | { readonly kind: 'system'; readonly role: 'system' | 'developer'; readonly content: TextContent; readonly path: string }
  | { readonly kind: 'user'; readonly content: TextContent; readonly path: string }
  | { readonly kind: 'assistant'; readonly content: TextContent | null; readonly calls: readonly ReadCall[]; readonly path: string }
  | { readonly kind: 'tool'; readonly call: ReadCall; readonly content: TextContent; readonly path: string };

/** A system (or developer) message. */
export type SystemTurn = Extract<ChatTurn, { kind: 'system' }>;

/** One function tool. */
export interface ReadTool {
  readonly name: string;
  readonly description: string | undefined;
  readonly parameters: JsonSchema | undefined;
  readonly strict: boolean | undefined;
  /** The JSON path of the tool (`tools[0]`). */
  readonly path: string;
}

/** A tool choice: a mode, or one named function. */
export type ReadToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/** A checked Chat Completions request. */
export interface ReadChatRequest {
  readonly model: string;
  /** The system / developer messages before the first other message. */
  readonly system: readonly SystemTurn[];
  /** Every message after them, in order. */
  readonly turns: readonly ChatTurn[];
  readonly tools: readonly ReadTool[] | undefined;
  readonly toolChoice: ReadToolChoice | undefined;
  readonly parallelToolCalls: boolean | undefined;
  /** `max_completion_tokens`, or `max_tokens`. */
  readonly maxTokens: number | undefined;
  readonly temperature: number | undefined;
  readonly topP: number | undefined;
  /** `stop`, as a list (`undefined` when absent, `null` or empty). */
  readonly stop: readonly string[] | undefined;
  readonly stream: boolean;
  readonly includeObfuscation: boolean | undefined;
  readonly user: string | undefined;
  readonly store: boolean | undefined;
  /** `n` when it is not 1. */
  readonly n: number | undefined;
}

const TOP_KEYS = /* @__PURE__ */ new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_completion_tokens',
  'max_tokens',
  'temperature',
  'top_p',
  'stop',
  'stream',
  'stream_options',
  'user',
  'store',
  'n',
  'logprobs',
  'presence_penalty',
  'frequency_penalty',
]);
/** The fields of each role's message, looked up with `Object.hasOwn` (a role named `constructor` or `__proto__` is not in it). */
const MESSAGE_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  system: /* @__PURE__ */ new Set(['role', 'content']),
  developer: /* @__PURE__ */ new Set(['role', 'content']),
  user: /* @__PURE__ */ new Set(['role', 'content']),
  assistant: /* @__PURE__ */ new Set(['role', 'content', 'tool_calls', 'refusal', 'audio', 'function_call']),
  tool: /* @__PURE__ */ new Set(['role', 'tool_call_id', 'content']),
};
const CALL_KEYS = /* @__PURE__ */ new Set(['id', 'type', 'function', 'extra_content']);
const FUNCTION_KEYS = /* @__PURE__ */ new Set(['name', 'arguments']);
const TOOL_KEYS = /* @__PURE__ */ new Set(['type', 'function']);
const DEFINITION_KEYS = /* @__PURE__ */ new Set(['name', 'description', 'parameters', 'strict']);
const STREAM_OPTION_KEYS = /* @__PURE__ */ new Set(['include_usage', 'include_obfuscation']);

/** Read and check `request` (a `ChatRequestInput` or any parsed JSON body) for a translator writing `reader.target`. */
export function readChatRequest(reader: RequestReader, request: unknown): ReadChatRequest {
  const body = reader.record(request, '(request)');
  reader.rejectUnknown(body, '', TOP_KEYS);
  reader.untranslatable(body['logprobs'], 'logprobs', 'logprobs', 'log probabilities are not supported', (v) => v === false);
  reader.untranslatable(body['presence_penalty'], 'presence_penalty', 'presence_penalty', 'presence_penalty is not supported', (v) => v === 0);
  reader.untranslatable(body['frequency_penalty'], 'frequency_penalty', 'frequency_penalty', 'frequency_penalty is not supported', (v) => v === 0);
  const n = reader.optionalNumber(body['n'], 'n');
  const maxCompletion = reader.optionalNumber(body['max_completion_tokens'], 'max_completion_tokens');
  const maxTokens = reader.optionalNumber(body['max_tokens'], 'max_tokens');
  if (maxCompletion !== undefined && maxTokens !== undefined && maxCompletion !== maxTokens) reader.fail('max_tokens', 'differs from max_completion_tokens');
  const streamOptions = body['stream_options'] === undefined || body['stream_options'] === null ? undefined : reader.record(body['stream_options'], 'stream_options');
  if (streamOptions !== undefined) {
    reader.rejectUnknown(streamOptions, 'stream_options', STREAM_OPTION_KEYS);
    reader.optionalBoolean(streamOptions['include_usage'], 'stream_options.include_usage');
  }
  const { system, turns } = readMessages(reader, body['messages']);
  return {
    model: reader.string(body['model'], 'model'),
    system,
    turns,
    tools: body['tools'] === undefined || body['tools'] === null ? undefined : reader.array(body['tools'], 'tools').map((tool, i) => readTool(reader, tool, fieldPath('tools', i))),
    toolChoice: readToolChoice(reader, body['tool_choice']),
    parallelToolCalls: reader.optionalBoolean(body['parallel_tool_calls'], 'parallel_tool_calls'),
    maxTokens: maxCompletion ?? maxTokens,
    temperature: reader.optionalNumber(body['temperature'], 'temperature'),
    topP: reader.optionalNumber(body['top_p'], 'top_p'),
    stop: readStop(reader, body['stop']),
    stream: reader.optionalBoolean(body['stream'], 'stream') ?? false,
    includeObfuscation: reader.optionalBoolean(streamOptions?.['include_obfuscation'], 'stream_options.include_obfuscation'),
    user: reader.optionalString(body['user'], 'user'),
    store: reader.optionalBoolean(body['store'], 'store'),
    n: n === 1 ? undefined : n,
  };
}

function readStop(reader: RequestReader, value: unknown): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? [value] : reader.array(value, 'stop').map((s, i) => reader.string(s, fieldPath('stop', i)));
  return list.length === 0 ? undefined : list;
}

function readToolChoice(reader: RequestReader, value: unknown): ReadToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (typeof value === 'string') reader.fail('tool_choice', `unknown tool_choice ${JSON.stringify(value)}`);
  const choice = reader.record(value, 'tool_choice');
  const type = reader.string(choice['type'], 'tool_choice.type');
  if (type !== 'function') reader.fail('tool_choice.type', `${type} tool choices are not supported`);
  reader.rejectUnknown(choice, 'tool_choice', TOOL_KEYS);
  const fn = reader.record(choice['function'], 'tool_choice.function');
  reader.rejectUnknown(fn, 'tool_choice.function', new Set(['name']));
  return { name: reader.string(fn['name'], 'tool_choice.function.name') };
}

function readTool(reader: RequestReader, value: unknown, path: string): ReadTool {
  const tool = reader.record(value, path);
  const type = reader.string(tool['type'], fieldPath(path, 'type'));
  if (type !== 'function') reader.fail(fieldPath(path, 'type'), `${type} tools are not supported`);
  reader.rejectUnknown(tool, path, TOOL_KEYS);
  const fnPath = fieldPath(path, 'function');
  const fn = reader.record(tool['function'], fnPath);
  reader.rejectUnknown(fn, fnPath, DEFINITION_KEYS);
  const parametersPath = fieldPath(fnPath, 'parameters');
  const parameters = fn['parameters'] === undefined || fn['parameters'] === null ? undefined : reader.record(fn['parameters'], parametersPath);
  if (parameters !== undefined) reader.writable(parameters, parametersPath);
  return {
    name: reader.string(fn['name'], fieldPath(fnPath, 'name')),
    description: reader.optionalString(fn['description'], fieldPath(fnPath, 'description')),
    parameters,
    strict: reader.optionalBoolean(fn['strict'], fieldPath(fnPath, 'strict')),
    path,
  };
}

function readMessages(reader: RequestReader, value: unknown): { system: SystemTurn[]; turns: ChatTurn[] } {
  const system: SystemTurn[] = [];
  const turns: ChatTurn[] = [];
  const calls = new Map<string, ReadCall>();
  const messages = reader.array(value, 'messages');
  if (messages.length === 0) reader.fail('messages', 'must hold at least one message');
  messages.forEach((item, i) => {
    const path = fieldPath('messages', i);
    const message = reader.record(item, path);
    const role = reader.string(message['role'], fieldPath(path, 'role'));
    const known = Object.hasOwn(MESSAGE_KEYS, role) ? MESSAGE_KEYS[role] : undefined;
    if (known === undefined) reader.fail(fieldPath(path, 'role'), `${role} messages are not supported`);
    reader.rejectUnknown(message, path, known);
    const contentPath = fieldPath(path, 'content');
    if (role === 'system' || role === 'developer') {
      const turn: SystemTurn = { kind: 'system', role, content: reader.text(message['content'], contentPath), path };
      (turns.length === 0 ? system : turns).push(turn);
    } else if (role === 'user') {
      turns.push({ kind: 'user', content: reader.text(message['content'], contentPath), path });
    } else if (role === 'assistant') {
      turns.push(readAssistant(reader, message, path, calls));
    } else {
      const idPath = fieldPath(path, 'tool_call_id');
      const id = reader.string(message['tool_call_id'], idPath);
      const call = calls.get(id);
      if (call === undefined) reader.fail(idPath, `no earlier assistant message made a tool call with id ${JSON.stringify(id)}`);
      turns.push({ kind: 'tool', call, content: reader.text(message['content'], contentPath), path });
    }
  });
  return { system, turns };
}

function readAssistant(reader: RequestReader, message: Record<string, unknown>, path: string, calls: Map<string, ReadCall>): ChatTurn {
  reader.untranslatable(message['refusal'], fieldPath(path, 'refusal'), 'refusal', 'refusals are not supported');
  reader.untranslatable(message['audio'], fieldPath(path, 'audio'), 'audio', 'audio is not supported');
  reader.untranslatable(message['function_call'], fieldPath(path, 'function_call'), 'function_call', 'the legacy function_call is not supported (use tool_calls)');
  const content = message['content'] === undefined || message['content'] === null ? null : reader.text(message['content'], fieldPath(path, 'content'));
  const own: ReadCall[] = [];
  const list = message['tool_calls'] === undefined || message['tool_calls'] === null ? [] : reader.array(message['tool_calls'], fieldPath(path, 'tool_calls'));
  list.forEach((item, j) => {
    const callPath = fieldPath(fieldPath(path, 'tool_calls'), j);
    const call = readCall(reader, item, callPath);
    if (calls.has(call.id)) reader.fail(fieldPath(callPath, 'id'), `the tool call id ${JSON.stringify(call.id)} is used twice`);
    calls.set(call.id, call);
    own.push(call);
  });
  if (content === null && own.length === 0) reader.fail(fieldPath(path, 'content'), 'an assistant message needs content or tool_calls');
  return { kind: 'assistant', content, calls: own, path };
}

function readCall(reader: RequestReader, value: unknown, path: string): ReadCall {
  const call = reader.record(value, path);
  const type = reader.string(call['type'], fieldPath(path, 'type'));
  if (type !== 'function') reader.fail(fieldPath(path, 'type'), `${type} tool calls are not supported`);
  reader.rejectUnknown(call, path, CALL_KEYS);
  const fnPath = fieldPath(path, 'function');
  const fn = reader.record(call['function'], fnPath);
  reader.rejectUnknown(fn, fnPath, FUNCTION_KEYS);
  const read: ReadCall = {
    id: reader.string(call['id'], fieldPath(path, 'id')),
    name: reader.string(fn['name'], fieldPath(fnPath, 'name')),
    arguments: reader.string(fn['arguments'], fieldPath(fnPath, 'arguments')),
    path,
  };
  const signature = readThoughtSignature(reader, call['extra_content'], fieldPath(path, 'extra_content'));
  return signature === undefined ? read : { ...read, thoughtSignature: signature };
}

function readThoughtSignature(reader: RequestReader, value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const extra = reader.record(value, path);
  reader.rejectUnknown(extra, path, new Set(['google']));
  if (extra['google'] === undefined || extra['google'] === null) return undefined;
  const google = reader.record(extra['google'], fieldPath(path, 'google'));
  reader.rejectUnknown(google, fieldPath(path, 'google'), new Set(['thought_signature']));
  return reader.optionalString(google['thought_signature'], fieldPath(path, 'google.thought_signature'));
}

/** A call's arguments as the JSON object Anthropic's `input` and Gemini's `args` need (`''` is `{}`), at most `maxDepth` levels deep. */
export function argumentsObject(reader: RequestReader, call: ReadCall): Record<string, unknown> {
  const path = fieldPath(fieldPath(call.path, 'function'), 'arguments');
  if (call.arguments.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    return reader.fail(path, 'is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) reader.fail(path, 'must be a JSON object');
  reader.writable(parsed, path);
  return parsed as Record<string, unknown>;
}
