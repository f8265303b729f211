/**
 * Translate an OpenAI Chat Completions request into a Gemini `generateContent` request.
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import type * as GeminiWire from '../../providers/gemini/wire';
import type { RequestInput as ChatRequestInput } from '../../providers/openaiChat/wire';
import { toGeminiSchema, type GeminiSchemaDrop } from '../../tools';
import { argumentsObject, readChatRequest, type ChatTurn, type ReadTool, type ReadToolChoice, type TextContent } from './readChatRequest';
import { joinText, RequestReader, type TranslateRequestOptions } from './requestReader';
import { aBoolean, aFunction, aString, oneOf, type OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link toGeminiRequest} takes. */
const GEMINI_REQUEST_OPTION_CHECKS: OptionChecks = {
  schemaField: /* @__PURE__ */ oneOf(['parameters', 'parametersJsonSchema']),
  onSchemaDrop: aFunction,
  callIds: aBoolean,
  thoughtSignature: aString,
};

/** Options of {@link toGeminiRequest}. */
export interface ToGeminiRequestOptions extends TranslateRequestOptions {
  /**
   * Where tool schemas go: `'parameters'` (default) cleans them with `toGeminiSchema()`;
   * `'parametersJsonSchema'` sends the JSON Schema unchanged (recursive schemas need it).
   */
  readonly schemaField?: 'parameters' | 'parametersJsonSchema';
  /**
   * Called for every schema keyword `toGeminiSchema()` leaves out, and for a tool's `strict: true`
   * (Gemini has no strict schemas; `toolSpecs(tools, 'openai-chat')` writes it), which is left out too.
   */
  readonly onSchemaDrop?: (drop: GeminiSchemaDrop) => void;
  /** Send the chat call ids as `functionCall.id` / `functionResponse.id` (not every Gemini endpoint accepts them). Default `false`. */
  readonly callIds?: boolean;
  /**
   * A thought signature for the first function call of an assistant turn that carries none
   * (Gemini 3 rejects a history of calls without signatures, e.g. calls another model made).
   */
  readonly thoughtSignature?: string;
}

/**
 * Translate an OpenAI Chat Completions request into a Gemini `generateContent` request.
 *
 * Leading `system` / `developer` messages become `systemInstruction`; assistant turns become
 * `model` contents with `functionCall` parts (arguments parsed from their JSON text; Gemini's
 * thought signature from `extra_content.google.thought_signature`); consecutive `tool` messages
 * become `functionResponse` parts of one `user` content, each named after the call it answers;
 * tools become `functionDeclarations` with their schema cleaned by `toGeminiSchema()` (a tool's
 * `strict: true` is left out, reported to `onSchemaDrop` like the schema keywords); `tool_choice` becomes `toolConfig.functionCallingConfig`; `max_completion_tokens`,
 * `temperature`, `top_p`, `stop` and `n` go to `generationConfig`. Anything else (a later system
 * message, `parallel_tool_calls: false`, `user`, …) throws `unsupported-request`.
 *
 * @example
 * ```ts
 * import { toGeminiRequest } from 'rxjs-tool-calls/gateway';
 *
 * declare const key: string; // the Gemini API key
 *
 * const { path, body } = toGeminiRequest({ model: 'gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
 * console.log(path);
 * // displays: /v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse
 * await fetch(`https://generativelanguage.googleapis.com${path}`, { method: 'POST', headers: { 'x-goog-api-key': key }, body: JSON.stringify(body) });
 * ```
 *
 * @param request The chat request (any `ChatCompletionCreateParams` value, or a parsed JSON body).
 * @param options `schemaField`, `onSchemaDrop`, `callIds`, `thoughtSignature`, `ignore`, `maxDepth`.
 * @return The model, the stream flag, the API path and the body.
 * @throws {ToolStreamError} `unsupported-request` for any field, part or value Gemini cannot express, or a JSON value nested deeper
 *   than `maxDepth` (default 512); `invalid-option` for an option it does not take or a value it cannot use.
 */
export function toGeminiRequest(request: ChatRequestInput, options: ToGeminiRequestOptions = {}): GeminiWire.Request {
  const reader: RequestReader = new RequestReader('gemini', 'toGeminiRequest', options, GEMINI_REQUEST_OPTION_CHECKS);
  const chat = readChatRequest(reader, request);
  const body: GeminiWire.GenerateContentRequest = { contents: contentsOf(reader, chat.turns, options) };
  if (chat.system.length > 0) body.systemInstruction = { parts: chat.system.flatMap((turn) => textParts(turn.content)) };
  if (chat.tools !== undefined && chat.tools.length > 0) body.tools = [{ functionDeclarations: chat.tools.map((tool) => declarationOf(reader, tool, options)) }];
  if (chat.toolChoice !== undefined && body.tools !== undefined) body.toolConfig = { functionCallingConfig: callingConfigOf(chat.toolChoice) }; // without tools it says nothing
  const config: NonNullable<GeminiWire.GenerateContentRequest['generationConfig']> = {};
  if (chat.maxTokens !== undefined) config.maxOutputTokens = chat.maxTokens;
  if (chat.temperature !== undefined) config.temperature = chat.temperature;
  if (chat.topP !== undefined) config.topP = chat.topP;
  if (chat.stop !== undefined) config.stopSequences = [...chat.stop];
  if (chat.n !== undefined) config.candidateCount = chat.n;
  if (Object.keys(config).length > 0) body.generationConfig = config;
  reader.untranslatable(chat.parallelToolCalls, 'parallel_tool_calls', 'parallel_tool_calls', 'Gemini cannot limit a turn to one function call', (v) => v === true);
  reader.untranslatable(chat.user, 'user', 'user', 'Gemini has no end-user id');
  reader.untranslatable(chat.store, 'store', 'store', 'Gemini does not store completions', (v) => v === false);
  reader.untranslatable(chat.includeObfuscation, 'stream_options.include_obfuscation', 'include_obfuscation', 'Gemini has no stream obfuscation', (v) => v === false);
  const model = chat.model.startsWith('models/') ? chat.model.slice('models/'.length) : chat.model;
  const path = `/v1beta/models/${encodeURIComponent(model)}:${chat.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
  return { model, stream: chat.stream, path, body };
}

function textParts(text: TextContent): GeminiWire.TextPart[] {
  return (typeof text === 'string' ? [text] : text).map((t) => ({ text: t }));
}

function contentsOf(reader: RequestReader, turns: readonly ChatTurn[], options: ToGeminiRequestOptions): GeminiWire.Content[] {
  const out: GeminiWire.Content[] = [];
  let responses: GeminiWire.Part[] | undefined; // the open user content of function responses
  for (const turn of turns) {
    if (turn.kind !== 'tool') responses = undefined;
    switch (turn.kind) {
      case 'system':
        reader.fail(fieldPath(turn.path, 'role'), 'Gemini takes system instructions only before the conversation');
        break;
      case 'user':
        out.push({ role: 'user', parts: textParts(turn.content) });
        break;
      case 'assistant': {
        const text = turn.content === null ? [] : textParts(turn.content).filter((part) => part.text !== '' || turn.calls.length === 0);
        const calls = turn.calls.map((call, i): GeminiWire.FunctionCallPart => {
          const part: GeminiWire.FunctionCallPart = { functionCall: { name: call.name, args: argumentsObject(reader, call), ...(options.callIds === true ? { id: call.id } : {}) } };
          const signature = call.thoughtSignature ?? (i === 0 ? options.thoughtSignature : undefined);
          if (signature !== undefined) part.thoughtSignature = signature;
          return part;
        });
        out.push({ role: 'model', parts: [...text, ...calls] });
        break;
      }
      case 'tool': {
        const part: GeminiWire.FunctionResponsePart = {
          functionResponse: { name: turn.call.name, response: { output: joinText(turn.content) }, ...(options.callIds === true ? { id: turn.call.id } : {}) },
        };
        if (responses === undefined) {
          responses = [part];
          out.push({ role: 'user', parts: responses });
        } else {
          responses.push(part);
        }
        break;
      }
    }
  }
  return out;
}

function declarationOf(reader: RequestReader, tool: ReadTool, options: ToGeminiRequestOptions): GeminiWire.FunctionDeclaration {
  const out: GeminiWire.FunctionDeclaration = { name: tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  // What toolSpecs() writes for OpenAI is accepted: Gemini has no strict mode, so `strict: true` is a drop like a schema keyword's.
  if (tool.strict === true) options.onSchemaDrop?.({ path: fieldPath(fieldPath(tool.path, 'function'), 'strict'), keyword: 'strict', reason: 'Gemini has no strict function schemas' });
  if (tool.parameters === undefined) return out;
  const path = fieldPath(fieldPath(tool.path, 'function'), 'parameters');
  if (options.schemaField === 'parametersJsonSchema') {
    out.parametersJsonSchema = tool.parameters;
    return out;
  }
  const schema = toGeminiSchema(tool.parameters, { path, maxDepth: reader.maxDepth, ...(options.onSchemaDrop === undefined ? {} : { onDrop: options.onSchemaDrop }) });
  if (schema.type === undefined) schema.type = 'OBJECT';
  if (schema.type !== 'OBJECT') reader.fail(fieldPath(path, 'type'), 'Gemini function parameters must describe an object');
  out.parameters = schema;
  return out;
}

function callingConfigOf(choice: ReadToolChoice): GeminiWire.FunctionCallingConfig {
  if (choice === 'auto') return { mode: 'AUTO' };
  if (choice === 'none') return { mode: 'NONE' };
  if (choice === 'required') return { mode: 'ANY' };
  return { mode: 'ANY', allowedFunctionNames: [choice.name] };
}
