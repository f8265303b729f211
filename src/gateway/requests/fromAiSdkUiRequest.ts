/**
 * Translate what a `useChat` client posts (its UI messages) into an OpenAI Chat Completions request,
 * for a gateway that answers `useChat` from any upstream.
 *
 * @module
 */
import { asRecord, asString } from '../../internal/json';
import { fieldPath } from '../../internal/jsonDepth';
import type * as AiSdkUiWire from '../../providers/aiSdkUi/wire';
import type * as OpenAIChatWire from '../../providers/openaiChat/wire';
import type { RequestReader } from './requestReader';
import { chatRequest, type StreamingChatRequest, toolContent, uiRequestReader, type FromUiRequestOptions } from './uiRequest';

/** The states of a tool part that carry the call's answer. */
const ANSWERED = /* @__PURE__ */ new Set(['output-available', 'output-error', 'output-denied']);
/** The states of a call without an answer (streaming, waiting for its result or for an approval). */
const UNANSWERED = /* @__PURE__ */ new Set(['input-streaming', 'input-available', 'approval-requested']);

/**
 * Translate a `useChat` request (the body `DefaultChatTransport` posts: `{ id, messages, trigger,
 * … }`, or the UI messages themselves) into an OpenAI Chat Completions request.
 *
 * As the AI SDK's own `convertToModelMessages()` reads them: `system` messages' text parts become
 * `system` messages; a `user` message's text parts its content; an `assistant` message becomes one
 * assistant message per step (`step-start` parts divide them) with its text and the step's tool
 * calls (`tool-NAME` and `dynamic-tool` parts, their input as JSON arguments), each followed by a
 * `tool` message with the call's answer (its output, as JSON unless text; the error text of an
 * `output-error`; the denial's reason, or "Tool call execution denied."). Left out, as the AI SDK
 * leaves them out or as an upstream cannot take them: `data-*` parts, sources, reasoning, calls
 * without an answer yet (still streaming, waiting for a result or an approval), and calls the
 * provider ran (`providerExecuted`). A `file` part, a call whose approval was answered but that no
 * one ran (`approval-responded`) and anything unknown throw `unsupported-request` unless named in
 * `ignore`. The request names `options.model`, puts `options.system` first and offers
 * `options.tools`; it streams, with the usage chunk. The body's other fields (the app's own, set
 * with the transport's `body`) are not read: pick the model from them yourself if you let clients
 * choose.
 *
 * @example
 * ```ts
 * import { fromAiSdkUiRequest, toAnthropicRequest } from 'rxjs-tool-calls/gateway';
 * import { toolSpecs, tool } from 'rxjs-tool-calls/tools';
 * import { z } from 'zod';
 *
 * declare const body: unknown; // the parsed body useChat posted
 *
 * const tools = { get_weather: tool({ description: 'The weather in a city', schema: z.object({ city: z.string() }) }) };
 * const chat = fromAiSdkUiRequest(body as never, { model: 'claude-sonnet-4-5', system: 'Be brief.', tools: toolSpecs(tools, 'openai-chat') });
 * const anthropic = toAnthropicRequest(chat, { defaultMaxTokens: 1024 });
 * ```
 *
 * @param request The body `useChat` posted (or its `messages`).
 * @param options `model` (required), `system`, `tools`; `ignore`: field names and part types that may be dropped; `maxDepth`.
 * @return The chat request, with `stream: true`.
 * @throws {ToolStreamError} `unsupported-request` for a message or part Chat Completions cannot express (naming its path, e.g.
 *   `messages[0].parts[1].type`), or a JSON value nested deeper than `maxDepth`; `invalid-option` for an option it does not take or a value
 *   it cannot use (a `model` that is not a non-empty string).
 */
export function fromAiSdkUiRequest(request: AiSdkUiWire.ChatRequest | ReadonlyArray<AiSdkUiWire.UIMessage>, options: FromUiRequestOptions): StreamingChatRequest {
  const reader = uiRequestReader('fromAiSdkUiRequest', options);
  const list = Array.isArray(request) ? { messages: request, path: 'messages' } : { messages: reader.record(request, '(request)')['messages'], path: 'messages' };
  const messages: OpenAIChatWire.Message[] = [];
  const callIds = new Set<string>();
  reader.array(list.messages, list.path).forEach((item, i) => {
    for (const message of messagesOf(reader, item, fieldPath(list.path, i), callIds)) messages.push(message);
  });
  return chatRequest(reader, options, messages, []);
}

/** One UI message as chat messages. */
function messagesOf(reader: RequestReader, value: unknown, path: string, callIds: Set<string>): OpenAIChatWire.Message[] {
  const message = reader.record(value, path);
  const role = reader.string(message['role'], fieldPath(path, 'role'));
  const partsPath = fieldPath(path, 'parts');
  const parts = reader.array(message['parts'], partsPath);
  if (role === 'system' || role === 'user') {
    const texts: string[] = [];
    parts.forEach((item, j) => {
      const partPath = fieldPath(partsPath, j);
      const part = reader.record(item, partPath);
      const type = reader.string(part['type'], fieldPath(partPath, 'type'));
      if (type === 'text') texts.push(reader.string(part['text'], fieldPath(partPath, 'text')));
      else if (!type.startsWith('data-') && !reader.isIgnored(type)) reader.fail(fieldPath(partPath, 'type'), `${type} parts of ${role} messages are not supported`);
    });
    if (role === 'system') return [{ role: 'system', content: texts.join('') }];
    return [{ role: 'user', content: texts.length === 1 ? (texts[0] as string) : texts.map((text) => ({ type: 'text' as const, text })) }];
  }
  if (role !== 'assistant') return reader.fail(fieldPath(path, 'role'), `${role} messages are not supported`);
  const out: OpenAIChatWire.Message[] = [];
  let step: Step = { text: '', calls: [], answers: [] };
  const flush = (): void => {
    if (step.text !== '' || step.calls.length > 0)
      out.push(step.calls.length === 0 ? { role: 'assistant', content: step.text } : { role: 'assistant', content: step.text === '' ? null : step.text, tool_calls: step.calls });
    for (const answer of step.answers) out.push(answer);
    step = { text: '', calls: [], answers: [] };
  };
  parts.forEach((item, j) => {
    const partPath = fieldPath(partsPath, j);
    const part = reader.record(item, partPath);
    const type = reader.string(part['type'], fieldPath(partPath, 'type'));
    if (type === 'step-start') flush();
    else if (type === 'text') step.text += reader.string(part['text'], fieldPath(partPath, 'text'));
    else if (type === 'dynamic-tool' || type.startsWith('tool-')) toolPart(reader, part, type, partPath, step, callIds);
    else if (type === 'reasoning' || type === 'source-url' || type === 'source-document' || type.startsWith('data-')) return;
    else if (!reader.isIgnored(type)) reader.fail(fieldPath(partPath, 'type'), `${type} parts of assistant messages are not supported`);
  });
  flush();
  return out;
}

/** One step of an assistant message: its text, its calls, and the tool messages answering them. */
interface Step {
  text: string;
  readonly calls: OpenAIChatWire.FunctionToolCall[];
  readonly answers: OpenAIChatWire.ToolMessage[];
}

/** A tool part: an answered call, with its answer; an unanswered call or a provider's tool is left out. */
function toolPart(reader: RequestReader, part: Record<string, unknown>, type: string, path: string, step: Step, callIds: Set<string>): void {
  const state = reader.string(part['state'], fieldPath(path, 'state'));
  if (part['providerExecuted'] === true || UNANSWERED.has(state)) return;
  if (!ANSWERED.has(state)) {
    if (reader.isIgnored(state)) return;
    reader.fail(
      fieldPath(path, 'state'),
      state === 'approval-responded' ? 'an approved call no one ran yet: this translator runs no tools' : `the tool part state ${JSON.stringify(state)} is not supported`,
    );
  }
  const name = type === 'dynamic-tool' ? reader.string(part['toolName'], fieldPath(path, 'toolName')) : type.slice('tool-'.length);
  const id = reader.string(part['toolCallId'], fieldPath(path, 'toolCallId'));
  if (callIds.has(id)) reader.fail(fieldPath(path, 'toolCallId'), `the tool call id ${JSON.stringify(id)} is used twice`);
  callIds.add(id);
  // A call whose input failed has its raw input (text that is not JSON, or a value its tool refused).
  const input = part['input'] !== undefined ? part['input'] : part['rawInput'];
  const args = typeof input === 'string' && part['input'] === undefined ? input : toolContent(reader, input ?? {}, fieldPath(path, 'input'));
  step.calls.push({ id, type: 'function', function: { name, arguments: args } });
  let content: string;
  if (state === 'output-available') content = toolContent(reader, part['output'], fieldPath(path, 'output'));
  else if (state === 'output-error') content = reader.string(part['errorText'], fieldPath(path, 'errorText'));
  else content = asString(asRecord(part['approval'])?.['reason']) ?? 'Tool call execution denied.';
  step.answers.push({ role: 'tool', tool_call_id: id, content });
}
