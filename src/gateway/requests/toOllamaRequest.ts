/**
 * Translate an OpenAI Chat Completions request into an Ollama `/api/chat` request.
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import type * as OllamaWire from '../../providers/ollama/wire';
import type { RequestInput as ChatRequestInput } from '../../providers/openaiChat/wire';
import { argumentsObject, readChatRequest, type ChatTurn, type ReadTool } from './readChatRequest';
import { joinText, RequestReader, type TranslateRequestOptions } from './requestReader';

/**
 * Translate an OpenAI Chat Completions request into an Ollama `/api/chat` request.
 *
 * Messages keep their order (`system` and `developer` messages become `system` messages wherever
 * they are); text parts are joined; assistant tool calls become `tool_calls` with their arguments
 * parsed into objects; `tool` messages carry `tool_name` (the name of the call they answer);
 * `parameters` go to `tools[].function.parameters`; `max_completion_tokens` (or `max_tokens`)
 * becomes `options.num_predict`, `temperature`, `top_p` and `stop` go to `options`; `stream` is
 * always written. Anything else (a `tool_choice` other than `auto`, `parallel_tool_calls: false`,
 * strict tools, `user`, `n`, …) throws `unsupported-request` naming the field.
 *
 * @example
 * ```ts
 * import { toOllamaRequest } from 'rxjs-tool-calls/gateway';
 *
 * const { path, body } = toOllamaRequest({ model: 'qwen3:8b', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
 * await fetch(`http://127.0.0.1:11434${path}`, { method: 'POST', body: JSON.stringify(body) });
 * ```
 *
 * @param request The chat request (any `ChatCompletionCreateParams` value, or a parsed JSON body).
 * @param options `ignore`: names that may be dropped instead of throwing; `maxDepth`.
 * @return The model, the stream flag, the path and the body.
 * @throws {ToolStreamError} `unsupported-request` for any field, part or value Ollama cannot express, or a JSON value nested deeper
 *   than `maxDepth` (default 512); `invalid-option` for an option it does not take or a value it cannot use.
 */
export function toOllamaRequest(request: ChatRequestInput, options: TranslateRequestOptions = {}): OllamaWire.Request {
  const reader: RequestReader = new RequestReader('ollama', 'toOllamaRequest', options);
  const chat = readChatRequest(reader, request);
  const body: OllamaWire.ChatRequestBody = { model: chat.model, messages: [...chat.system, ...chat.turns].map((turn) => messageOf(reader, turn)), stream: chat.stream };
  if (chat.tools !== undefined && chat.tools.length > 0) {
    body.tools = chat.tools.map((tool) => toolOf(reader, tool));
    reader.untranslatable(chat.toolChoice, 'tool_choice', 'tool_choice', 'Ollama has no tool choice (the model always decides)', (v) => v === 'auto');
    reader.untranslatable(chat.parallelToolCalls, 'parallel_tool_calls', 'parallel_tool_calls', 'Ollama cannot limit a turn to one tool call', (v) => v === true);
  }
  const config: NonNullable<OllamaWire.ChatRequestBody['options']> = {};
  if (chat.temperature !== undefined) config.temperature = chat.temperature;
  if (chat.topP !== undefined) config.top_p = chat.topP;
  if (chat.maxTokens !== undefined) config.num_predict = chat.maxTokens;
  if (chat.stop !== undefined) config.stop = [...chat.stop];
  if (Object.keys(config).length > 0) body.options = config;
  reader.untranslatable(chat.user, 'user', 'user', 'Ollama has no end-user id');
  reader.untranslatable(chat.store, 'store', 'store', 'Ollama does not store completions', (v) => v === false);
  reader.untranslatable(chat.n, 'n', 'n', 'Ollama returns one choice');
  reader.untranslatable(chat.includeObfuscation, 'stream_options.include_obfuscation', 'include_obfuscation', 'Ollama has no stream obfuscation', (v) => v === false);
  return { model: chat.model, stream: chat.stream, path: '/api/chat', body };
}

function messageOf(reader: RequestReader, turn: ChatTurn): OllamaWire.Message {
  switch (turn.kind) {
    case 'system':
      return { role: 'system', content: joinText(turn.content) };
    case 'user':
      return { role: 'user', content: joinText(turn.content) };
    case 'assistant': {
      const out: OllamaWire.AssistantMessage = { role: 'assistant', content: turn.content === null ? '' : joinText(turn.content) };
      if (turn.calls.length > 0) out.tool_calls = turn.calls.map((call) => ({ function: { name: call.name, arguments: argumentsObject(reader, call) } }));
      return out;
    }
    case 'tool':
      return { role: 'tool', content: joinText(turn.content), tool_name: turn.call.name };
  }
}

function toolOf(reader: RequestReader, tool: ReadTool): OllamaWire.Tool {
  reader.untranslatable(tool.strict, fieldPath(fieldPath(tool.path, 'function'), 'strict'), 'strict', 'Ollama has no strict tool schemas', (v) => v === false);
  const out: OllamaWire.Tool = { type: 'function', function: { name: tool.name } };
  if (tool.description !== undefined) out.function.description = tool.description;
  if (tool.parameters !== undefined) out.function.parameters = tool.parameters;
  return out;
}
