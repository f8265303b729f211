/**
 * Translate an OpenAI Chat Completions request into an OpenAI Responses request.
 *
 * @module
 */
import type { JsonSchema, RequestInput as ChatRequestInput } from '../../providers/openaiChat/wire';
import type * as ResponsesWire from '../../providers/openaiResponses/wire';
import { readChatRequest, type ChatTurn, type ReadToolChoice, type TextContent } from './readChatRequest';
import { joinText, RequestReader, type TranslateRequestOptions, type WithStream } from './requestReader';
import { aBoolean, type OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link toResponsesRequest} takes. */
const RESPONSES_REQUEST_OPTION_CHECKS: OptionChecks = { instructions: aBoolean };

/** Options of {@link toResponsesRequest}. */
export interface ToResponsesRequestOptions extends TranslateRequestOptions {
  /**
   * Move the leading system / developer messages into `instructions` (joined with a blank line).
   * Default `false`: they stay input messages with their role, like every later system message.
   */
  readonly instructions?: boolean;
}

/**
 * Translate an OpenAI Chat Completions request into an OpenAI Responses request.
 *
 * Messages become input items (system / developer / user messages keep their role and parts;
 * an assistant turn becomes a message with its text, then one `function_call` item per call; a
 * `tool` message becomes a `function_call_output`); tools become flat function tools with an
 * explicit `strict`; `max_completion_tokens` becomes `max_output_tokens`; `store` is written
 * (`false` unless the chat request says `true`). `stop` has no Responses equivalent and throws
 * `unsupported-request`, like anything else it cannot express.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { toResponsesRequest } from 'rxjs-tool-calls/gateway';
 *
 * const params = toResponsesRequest({ model: 'gpt-5', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
 * const stream = new OpenAI().responses.stream(params);
 * ```
 *
 * @param request The chat request (any `ChatCompletionCreateParams` value, or a parsed JSON body).
 * @param options `instructions`, `ignore`, `maxDepth`.
 * @return The Responses request (`stream: true` kept as a literal when the input has it).
 * @throws {ToolStreamError} `unsupported-request` for any field, part or value the Responses API cannot express, or a JSON value nested deeper
 *   than `maxDepth` (default 512); `invalid-option` for an option it does not take or a value it cannot use.
 */
export function toResponsesRequest<R extends ChatRequestInput>(request: R, options: ToResponsesRequestOptions = {}): WithStream<R, ResponsesWire.Request> {
  const reader: RequestReader = new RequestReader('openai-responses', 'toResponsesRequest', options, RESPONSES_REQUEST_OPTION_CHECKS);
  const chat = readChatRequest(reader, request);
  const out: ResponsesWire.Request = { model: chat.model, input: [], store: chat.store ?? false };
  if (options.instructions === true && chat.system.length > 0) out.instructions = chat.system.map((turn) => joinText(turn.content)).join('\n\n');
  else for (const turn of chat.system) addItems(out.input, turn);
  for (const turn of chat.turns) addItems(out.input, turn);
  if (chat.tools !== undefined && chat.tools.length > 0) {
    out.tools = chat.tools.map((tool): ResponsesWire.FunctionTool => {
      const parameters: JsonSchema = tool.parameters ?? { type: 'object', properties: {} };
      return { type: 'function', name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), parameters: { ...parameters }, strict: tool.strict ?? false };
    });
  }
  if (chat.toolChoice !== undefined) out.tool_choice = toolChoiceOf(chat.toolChoice);
  if (chat.parallelToolCalls !== undefined) out.parallel_tool_calls = chat.parallelToolCalls;
  if (chat.maxTokens !== undefined) out.max_output_tokens = chat.maxTokens;
  if (chat.temperature !== undefined) out.temperature = chat.temperature;
  if (chat.topP !== undefined) out.top_p = chat.topP;
  if (chat.stream) out.stream = true;
  if (chat.includeObfuscation !== undefined) out.stream_options = { include_obfuscation: chat.includeObfuscation };
  if (chat.user !== undefined) out.user = chat.user;
  reader.untranslatable(chat.stop, 'stop', 'stop', 'the Responses API has no stop sequences');
  reader.untranslatable(chat.n, 'n', 'n', 'the Responses API returns one output');
  return out as WithStream<R, ResponsesWire.Request>;
}

function partsOf(text: TextContent): string | ResponsesWire.InputText[] {
  return typeof text === 'string' ? text : text.map((t) => ({ type: 'input_text', text: t }));
}

/** Append the input items of one turn to `input` (one by one: a turn may hold any number of calls). */
function addItems(input: ResponsesWire.InputItem[], turn: ChatTurn): void {
  switch (turn.kind) {
    case 'system':
      input.push({ role: turn.role, content: partsOf(turn.content) });
      return;
    case 'user':
      input.push({ role: 'user', content: partsOf(turn.content) });
      return;
    case 'assistant': {
      const text = turn.content === null ? '' : joinText(turn.content);
      if (text !== '' || turn.calls.length === 0) input.push({ role: 'assistant', content: text });
      for (const call of turn.calls) input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments } satisfies ResponsesWire.FunctionCallItem);
      return;
    }
    case 'tool':
      input.push({ type: 'function_call_output', call_id: turn.call.id, output: partsOf(turn.content) });
      return;
  }
}

function toolChoiceOf(choice: ReadToolChoice): NonNullable<ResponsesWire.Request['tool_choice']> {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}
