/**
 * What the translators of UI requests share (a `useChat` body, an AG-UI `RunAgentInput`): their
 * options, and the chat request they both write, which names the model, the server's system prompt
 * and tools, and asks for a stream with usage. The gateway sends it to any upstream with the chat
 * request translators (`toAnthropicRequest()`, `toGeminiRequest()`, …).
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import { fieldPath } from '../../internal/jsonDepth';
import { aString, type OptionCheck, type OptionChecks } from '../../internal/options';
import type * as OpenAIChatWire from '../../providers/openaiChat/wire';
import { RequestReader, type TranslateRequestOptions } from './requestReader';

/** Options of `fromAiSdkUiRequest()` and `fromAgUiRequest()`. */
export interface FromUiRequestOptions extends TranslateRequestOptions {
  /** The model the chat request names: a UI request names none (the server decides). */
  readonly model: string;
  /** The server's instructions: a `system` message put first. */
  readonly system?: string;
  /**
   * The tools the server offers the model, as `toolSpecs(tools, 'openai-chat')` writes them (a
   * `useChat` client sends none; an AG-UI client's own tools come after these).
   */
  readonly tools?: ReadonlyArray<OpenAIChatWire.FunctionTool>;
}

/** The chat request a UI request is translated into: it always streams. */
export type StreamingChatRequest = OpenAIChatWire.Request & {
  /** Always `true`: the answer streams. */
  stream: true;
};

/** The check of `tools`: an array (its entries are checked as they are copied). */
const someTools: OptionCheck = (value) => (Array.isArray(value) ? undefined : 'an array of chat function tools (toolSpecs(tools, "openai-chat"))');

/** The checks of the keys {@link FromUiRequestOptions} adds. */
export const UI_REQUEST_OPTION_CHECKS: OptionChecks = { model: aString, system: aString, tools: someTools };

/** A reader for the translator `fn`, after checking its options (`model` is required). */
export function uiRequestReader(fn: string, options: FromUiRequestOptions): RequestReader {
  const reader = new RequestReader('openai-chat', fn, options, UI_REQUEST_OPTION_CHECKS);
  if (typeof options.model !== 'string' || options.model === '')
    throw new ToolStreamError('invalid-option', { function: fn, option: 'options.model', value: options.model, expected: 'the model the chat request names (a non-empty string)' });
  return reader;
}

/**
 * The chat request: the server's system prompt first, then `messages`; the server's tools, then
 * `clientTools`; `stream: true` with the usage chunk.
 */
export function chatRequest(reader: RequestReader, options: FromUiRequestOptions, messages: OpenAIChatWire.Message[], clientTools: OpenAIChatWire.FunctionTool[]): StreamingChatRequest {
  const tools: OpenAIChatWire.FunctionTool[] = [];
  (options.tools ?? []).forEach((tool, i) => tools.push(serverTool(reader, tool, fieldPath('(options.tools)', i))));
  const names = new Set(tools.map((tool) => tool.function.name));
  for (const tool of clientTools) {
    if (names.has(tool.function.name)) reader.fail('tools', `the tool ${JSON.stringify(tool.function.name)} is both the server's and the client's`);
    names.add(tool.function.name);
    tools.push(tool);
  }
  const out: StreamingChatRequest = {
    model: options.model,
    messages: options.system === undefined || options.system === '' ? messages : [{ role: 'system', content: options.system }, ...messages],
    stream: true,
    stream_options: { include_usage: true },
  };
  if (tools.length > 0) out.tools = tools;
  return out;
}

/** One of the server's tools, checked (it is copied into the request). */
function serverTool(reader: RequestReader, value: unknown, path: string): OpenAIChatWire.FunctionTool {
  const tool = reader.record(value, path);
  if (tool['type'] !== 'function') reader.fail(fieldPath(path, 'type'), 'must be "function"');
  const fn = reader.record(tool['function'], fieldPath(path, 'function'));
  reader.string(fn['name'], fieldPath(path, 'function.name'));
  reader.writable(tool, path);
  return tool as unknown as OpenAIChatWire.FunctionTool;
}

/** A tool output or an error text as a tool message's content: a string as it is, any other value as JSON. */
export function toolContent(reader: RequestReader, value: unknown, path: string): string {
  if (typeof value === 'string') return value;
  reader.writable(value ?? null, path);
  return JSON.stringify(value ?? null);
}
