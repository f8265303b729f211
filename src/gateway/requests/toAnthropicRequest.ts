/**
 * Translate an OpenAI Chat Completions request into an Anthropic Messages request.
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import type * as AnthropicWire from '../../providers/anthropic/wire';
import type { JsonSchema, RequestInput as ChatRequestInput } from '../../providers/openaiChat/wire';
import { argumentsObject, readChatRequest, type ChatTurn, type ReadTool, type SystemTurn, type TextContent } from './readChatRequest';
import { RequestReader, type TranslateRequestOptions, type WithStream } from './requestReader';
import { aBoolean, aCount, oneOf, type OptionChecks } from '../../internal/options';

/** The checks of the keys only {@link toAnthropicRequest} takes. */
const ANTHROPIC_REQUEST_OPTION_CHECKS: OptionChecks = {
  defaultMaxTokens: /* @__PURE__ */ aCount(1, false),
  apiVersion: /* @__PURE__ */ oneOf(['2023-06-01', '2026-10-21']),
  midConversationSystem: aBoolean,
  eagerInputStreaming: aBoolean,
};

/** Options of {@link toAnthropicRequest}. */
export interface ToAnthropicRequestOptions extends TranslateRequestOptions {
  /** `max_tokens` when the chat request sets neither `max_completion_tokens` nor `max_tokens` (Anthropic requires it). */
  readonly defaultMaxTokens?: number;
  /**
   * The `anthropic-version` the request is sent with. `'2026-10-21'` (the default, sent by
   * `@anthropic-ai/sdk` 1.x) rejects `temperature` and `top_p`, so a chat request that sets them
   * fails with `unsupported-request`; `'2023-06-01'` accepts them.
   */
  readonly apiVersion?: '2023-06-01' | '2026-10-21';
  /**
   * Write system messages that come after the conversation started as `role: 'system'` messages
   * in place (Anthropic's mid-conversation system messages; only some models accept them).
   * Default `false`: such a message fails with `unsupported-request`.
   */
  readonly midConversationSystem?: boolean;
  /**
   * For a streaming request (`stream: true`), write `eager_input_streaming: true` on every tool
   * (Anthropic's fine-grained tool streaming), so the calls' arguments stream live, as a chat client
   * expects them, instead of parameter by parameter. Default `true`; `false` leaves it out.
   */
  readonly eagerInputStreaming?: boolean;
}

/**
 * Translate an OpenAI Chat Completions request into an Anthropic Messages request.
 *
 * Leading `system` / `developer` messages become `system`; tool calls become `tool_use` blocks
 * (arguments parsed from their JSON text); consecutive `tool` messages become `tool_result`
 * blocks of one user message; `parameters` become `input_schema`; `tool_choice`
 * `auto` / `required` / `none` / named become `auto` / `any` / `none` / `tool` (with `stream: true`,
 * every tool gets `eager_input_streaming: true`: its input streams live), and
 * `parallel_tool_calls: false` becomes `disable_parallel_tool_use` (both are left out when there
 * are no tools); `max_completion_tokens` (or
 * `max_tokens`, or the `defaultMaxTokens` option) becomes `max_tokens`, `stop` `stop_sequences`,
 * `user` `metadata.user_id`. Anything else throws `unsupported-request` naming the field.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { toAnthropicRequest } from 'rxjs-tool-calls/gateway';
 *
 * const params = toAnthropicRequest({ model: 'claude-sonnet-4-5', max_completion_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
 * const stream = new Anthropic().messages.stream(params);
 * ```
 *
 * @param request The chat request (any `ChatCompletionCreateParams` value, or a parsed JSON body).
 * @param options `defaultMaxTokens`, `apiVersion`, `midConversationSystem`, `eagerInputStreaming`, `ignore`, `maxDepth`.
 * @return The Anthropic request (`stream: true` kept as a literal when the input has it).
 * @throws {ToolStreamError} `unsupported-request` for any field, part or value Anthropic cannot express, or a JSON value nested deeper
 *   than `maxDepth` (default 512); `invalid-option` for an option it does not take or a value it cannot use.
 */
export function toAnthropicRequest<R extends ChatRequestInput>(request: R, options: ToAnthropicRequestOptions = {}): WithStream<R, AnthropicWire.Request> {
  const reader: RequestReader = new RequestReader('anthropic', 'toAnthropicRequest', options, ANTHROPIC_REQUEST_OPTION_CHECKS);
  const chat = readChatRequest(reader, request);
  const maxTokens = chat.maxTokens ?? options.defaultMaxTokens;
  if (maxTokens === undefined) reader.fail('max_completion_tokens', 'Anthropic requires max_tokens: set max_completion_tokens or the defaultMaxTokens option');
  const out: AnthropicWire.Request = { model: chat.model, max_tokens: maxTokens, messages: messagesOf(reader, chat.turns, options.midConversationSystem === true) };
  const system = systemOf(chat.system);
  if (system !== undefined) out.system = system;
  const eager = options.eagerInputStreaming !== false && (request as { readonly stream?: unknown }).stream === true;
  if (chat.tools !== undefined && chat.tools.length > 0) out.tools = chat.tools.map((tool) => toolOf(reader, tool, eager));
  // Without tools a tool choice says nothing (and Anthropic rejects one).
  const choice = out.tools === undefined ? undefined : toolChoiceOf(chat.toolChoice, chat.parallelToolCalls === false);
  if (choice !== undefined) out.tool_choice = choice;
  if ((options.apiVersion ?? '2026-10-21') === '2026-10-21') {
    const detail = 'Anthropic API version 2026-10-21 rejects sampling parameters (use the apiVersion option 2023-06-01)';
    reader.untranslatable(chat.temperature, 'temperature', 'temperature', detail);
    reader.untranslatable(chat.topP, 'top_p', 'top_p', detail);
  } else {
    if (chat.temperature !== undefined && chat.temperature > 1) reader.fail('temperature', 'Anthropic accepts a temperature from 0 to 1');
    if (chat.temperature !== undefined) out.temperature = chat.temperature;
    if (chat.topP !== undefined) out.top_p = chat.topP;
  }
  if (chat.stop !== undefined) out.stop_sequences = [...chat.stop];
  if (chat.stream) out.stream = true;
  if (chat.user !== undefined) out.metadata = { user_id: chat.user };
  reader.untranslatable(chat.store, 'store', 'store', 'Anthropic does not store completions', (v) => v === false);
  reader.untranslatable(chat.n, 'n', 'n', 'Anthropic returns one choice');
  reader.untranslatable(chat.includeObfuscation, 'stream_options.include_obfuscation', 'include_obfuscation', 'Anthropic has no stream obfuscation', (v) => v === false);
  return out as WithStream<R, AnthropicWire.Request>;
}

function blocksOf(text: TextContent): AnthropicWire.TextBlock[] {
  return (typeof text === 'string' ? [text] : text).map((t) => ({ type: 'text', text: t }));
}

function systemOf(system: readonly SystemTurn[]): AnthropicWire.Request['system'] {
  const first = system[0];
  if (first === undefined) return undefined;
  if (system.length === 1 && typeof first.content === 'string') return first.content;
  return system.flatMap((turn) => blocksOf(turn.content)).filter((block) => block.text !== '');
}

function messagesOf(reader: RequestReader, turns: readonly ChatTurn[], midConversationSystem: boolean): AnthropicWire.Message[] {
  const out: AnthropicWire.Message[] = [];
  let results: AnthropicWire.ToolResultBlock[] | undefined; // the open user message of tool results
  for (const turn of turns) {
    if (turn.kind !== 'tool') results = undefined;
    switch (turn.kind) {
      case 'system':
        if (!midConversationSystem)
          reader.fail(fieldPath(turn.path, 'role'), 'Anthropic takes system messages only before the conversation (set midConversationSystem for models that accept them later)');
        out.push({ role: 'system', content: typeof turn.content === 'string' ? turn.content : blocksOf(turn.content) });
        break;
      case 'user':
        out.push({ role: 'user', content: typeof turn.content === 'string' ? turn.content : blocksOf(turn.content) });
        break;
      case 'assistant': {
        if (turn.calls.length === 0) {
          out.push({ role: 'assistant', content: typeof turn.content === 'string' ? turn.content : blocksOf(turn.content ?? '') });
          break;
        }
        const text = turn.content === null ? [] : blocksOf(turn.content).filter((block) => block.text !== '');
        const uses = turn.calls.map((call): AnthropicWire.ToolUseBlock => ({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(reader, call) }));
        out.push({ role: 'assistant', content: [...text, ...uses] });
        break;
      }
      case 'tool': {
        const block: AnthropicWire.ToolResultBlock = { type: 'tool_result', tool_use_id: turn.call.id, content: typeof turn.content === 'string' ? turn.content : blocksOf(turn.content) };
        if (results === undefined) {
          results = [block];
          out.push({ role: 'user', content: results });
        } else {
          results.push(block);
        }
        break;
      }
    }
  }
  return out;
}

function toolOf(reader: RequestReader, tool: ReadTool, eager: boolean): AnthropicWire.Tool {
  const out: AnthropicWire.Tool = { name: tool.name, input_schema: inputSchemaOf(reader, tool.parameters, fieldPath(fieldPath(tool.path, 'function'), 'parameters')) };
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.strict === true) out.strict = true;
  if (eager) out.eager_input_streaming = true;
  return out;
}

function inputSchemaOf(reader: RequestReader, parameters: JsonSchema | undefined, path: string): AnthropicWire.Tool['input_schema'] {
  if (parameters === undefined) return { type: 'object', properties: {} };
  const type = parameters['type'];
  if (type !== undefined && type !== 'object') reader.fail(fieldPath(path, 'type'), 'Anthropic input schemas must describe an object');
  return { ...parameters, type: 'object' };
}

function toolChoiceOf(choice: ReturnType<typeof readChatRequest>['toolChoice'], disableParallel: boolean): AnthropicWire.ToolChoice | undefined {
  const parallel = disableParallel ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return disableParallel ? { type: 'auto', ...parallel } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...parallel };
  if (choice === 'required') return { type: 'any', ...parallel };
  return { type: 'tool', name: choice.name, ...parallel };
}
