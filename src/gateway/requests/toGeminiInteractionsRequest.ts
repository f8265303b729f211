/**
 * Translate an OpenAI Chat Completions request into a Gemini Interactions API request (the whole
 * conversation as `input` steps: the API's stateless form, no server-side history needed).
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import { aString, type OptionChecks } from '../../internal/options';
import type * as GeminiInteractionsWire from '../../providers/geminiInteractions/wire';
import type { RequestInput as ChatRequestInput } from '../../providers/openaiChat/wire';
import { argumentsObject, readChatRequest, type ChatTurn, type ReadTool, type ReadToolChoice, type TextContent } from './readChatRequest';
import { joinText, RequestReader, type TranslateRequestOptions } from './requestReader';

/** The checks of the keys only {@link toGeminiInteractionsRequest} takes. */
const INTERACTIONS_REQUEST_OPTION_CHECKS: OptionChecks = { thoughtSignature: aString };

/** Options of {@link toGeminiInteractionsRequest}. */
export interface ToGeminiInteractionsRequestOptions extends TranslateRequestOptions {
  /**
   * A thought signature for the first function call of an assistant turn that carries none
   * (Gemini 3 rejects a history of calls without signatures, e.g. calls another model made).
   */
  readonly thoughtSignature?: string;
}

/**
 * Translate an OpenAI Chat Completions request into a Gemini Interactions API request
 * (`POST /v1beta/interactions`), the conversation sent whole as `input` steps.
 *
 * Leading `system` / `developer` messages become `system_instruction` (joined by blank lines);
 * user messages become `user_input` steps; an assistant message becomes a `model_output` step
 * (its text) and one `function_call` step per call (`id`, `name`, the arguments parsed from their
 * JSON text, and Gemini's thought signature from `extra_content.google.thought_signature` as its
 * `signature`); each `tool` message becomes a `function_result` step naming the call it answers
 * (`call_id`, `name`, the content as `result`); function tools become `{ type: 'function', name,
 * description, parameters }` with the JSON Schema as it is (a tool's `strict` is left out: the
 * API has no strict flag); `tool_choice` becomes `tool_choice` (`auto`, `none`, `required` →
 * `any`, one function → `{ allowed_tools: { mode: 'any', tools: [name] } }`);
 * `max_completion_tokens`, `temperature`, `top_p` and `stop` go to `generation_config`; `store`
 * and `stream` are kept. Anything else (a later system message, `n`, `parallel_tool_calls: false`,
 * `user`, …) throws `unsupported-request`.
 *
 * @example
 * ```ts
 * import { toGeminiInteractionsRequest } from 'rxjs-tool-calls/gateway';
 *
 * declare const key: string; // the Gemini API key
 *
 * const { path, body } = toGeminiInteractionsRequest({ model: 'gemini-3-flash-preview', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
 * console.log(path, JSON.stringify(body.input));
 * // displays: /v1beta/interactions [{"type":"user_input","content":[{"type":"text","text":"Hi"}]}]
 * await fetch(`https://generativelanguage.googleapis.com${path}`, { method: 'POST', headers: { 'x-goog-api-key': key }, body: JSON.stringify(body) });
 * ```
 *
 * @param request The chat request (any `ChatCompletionCreateParams` value, or a parsed JSON body).
 * @param options `thoughtSignature`, `ignore`, `maxDepth`.
 * @return The model, the stream flag, the API path and the body.
 * @throws {ToolStreamError} `unsupported-request` for any field, part or value the Interactions API
 *   cannot express, or a JSON value nested deeper than `maxDepth` (default 512); `invalid-option`
 *   for an option it does not take or a value it cannot use.
 */
export function toGeminiInteractionsRequest(request: ChatRequestInput, options: ToGeminiInteractionsRequestOptions = {}): GeminiInteractionsWire.Request {
  const reader: RequestReader = new RequestReader('gemini-interactions', 'toGeminiInteractionsRequest', options, INTERACTIONS_REQUEST_OPTION_CHECKS);
  const chat = readChatRequest(reader, request);
  const model = chat.model.startsWith('models/') ? chat.model.slice('models/'.length) : chat.model;
  const body: GeminiInteractionsWire.CreateInteractionBody = { model, input: stepsOf(reader, chat.turns, options) };
  if (chat.system.length > 0) body.system_instruction = chat.system.map((turn) => joinText(turn.content)).join('\n\n');
  if (chat.tools !== undefined && chat.tools.length > 0) {
    body.tools = chat.tools.map(toolOf);
    if (chat.toolChoice !== undefined) body.tool_choice = choiceOf(chat.toolChoice);
  }
  const config: NonNullable<GeminiInteractionsWire.CreateInteractionBody['generation_config']> = {};
  if (chat.maxTokens !== undefined) config.max_output_tokens = chat.maxTokens;
  if (chat.temperature !== undefined) config.temperature = chat.temperature;
  if (chat.topP !== undefined) config.top_p = chat.topP;
  if (chat.stop !== undefined) config.stop_sequences = [...chat.stop];
  if (Object.keys(config).length > 0) body.generation_config = config;
  if (chat.store !== undefined) body.store = chat.store;
  if (chat.stream) body.stream = true;
  reader.untranslatable(chat.n, 'n', 'n', 'an interaction has one output');
  reader.untranslatable(chat.parallelToolCalls, 'parallel_tool_calls', 'parallel_tool_calls', 'the Interactions API cannot limit a turn to one function call', (v) => v === true);
  reader.untranslatable(chat.user, 'user', 'user', 'the Interactions API has no end-user id');
  reader.untranslatable(chat.includeObfuscation, 'stream_options.include_obfuscation', 'include_obfuscation', 'the Interactions API has no stream obfuscation', (v) => v === false);
  return { model, stream: chat.stream, path: '/v1beta/interactions', body };
}

function textContent(text: TextContent): GeminiInteractionsWire.TextContent[] {
  return (typeof text === 'string' ? [text] : text).map((t) => ({ type: 'text', text: t }));
}

function stepsOf(reader: RequestReader, turns: readonly ChatTurn[], options: ToGeminiInteractionsRequestOptions): GeminiInteractionsWire.Step[] {
  const out: GeminiInteractionsWire.Step[] = [];
  for (const turn of turns) {
    switch (turn.kind) {
      case 'system':
        reader.fail(fieldPath(turn.path, 'role'), 'the Interactions API takes a system instruction only before the conversation');
        break;
      case 'user':
        out.push({ type: 'user_input', content: textContent(turn.content) });
        break;
      case 'assistant': {
        const text = turn.content === null ? '' : joinText(turn.content);
        if (text !== '' || turn.calls.length === 0) out.push({ type: 'model_output', content: [{ type: 'text', text }] });
        turn.calls.forEach((call, i) => {
          const signature = call.thoughtSignature ?? (i === 0 ? options.thoughtSignature : undefined);
          out.push({ type: 'function_call', id: call.id, name: call.name, arguments: argumentsObject(reader, call), ...(signature === undefined ? {} : { signature }) });
        });
        break;
      }
      case 'tool':
        out.push({ type: 'function_result', call_id: turn.call.id, name: turn.call.name, result: joinText(turn.content) });
        break;
    }
  }
  return out;
}

function toolOf(tool: ReadTool): GeminiInteractionsWire.FunctionTool {
  const out: GeminiInteractionsWire.FunctionTool = { type: 'function', name: tool.name, parameters: tool.parameters ?? { type: 'object', properties: {} } };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}

function choiceOf(choice: ReadToolChoice): GeminiInteractionsWire.ToolChoice {
  if (choice === 'auto' || choice === 'none') return choice;
  if (choice === 'required') return 'any';
  return { allowed_tools: { mode: 'any', tools: [choice.name] } };
}
