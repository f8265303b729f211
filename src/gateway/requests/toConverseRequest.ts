/**
 * Translate an OpenAI Chat Completions request into an AWS Bedrock Converse request.
 *
 * @module
 */
import { fieldPath } from '../../internal/jsonDepth';
import type * as ConverseWire from '../../providers/bedrockConverse/wire';
import type { RequestInput as ChatRequestInput } from '../../providers/openaiChat/wire';
import { argumentsObject, readChatRequest, type ChatTurn, type ReadTool, type ReadToolChoice, type TextContent } from './readChatRequest';
import { joinText, RequestReader, type TranslateRequestOptions } from './requestReader';

/**
 * Translate an OpenAI Chat Completions request into an AWS Bedrock Converse request.
 *
 * Leading `system` / `developer` messages become `system` blocks; assistant turns become
 * `assistant` messages of text and `toolUse` blocks (arguments parsed from their JSON text);
 * `tool` messages become `toolResult` blocks of a `user` message, and consecutive turns of one
 * role become one message (Converse wants the roles to alternate: tool results first, then the
 * user's text); tools become `toolConfig.tools` (`toolSpec` with `inputSchema.json`);
 * `tool_choice` `auto` / `required` / named becomes `auto` / `any` / `tool`;
 * `max_completion_tokens` (or `max_tokens`), `temperature`, `top_p` and `stop` go to
 * `inferenceConfig`. Anything else (`tool_choice: 'none'` with tools, `parallel_tool_calls: false`,
 * a later system message, `user`, `n`, strict tools, …) throws `unsupported-request` naming the field.
 *
 * @example
 * ```ts
 * import { BedrockRuntimeClient, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
 * import { toConverseRequest } from 'rxjs-tool-calls/gateway';
 *
 * const { modelId, body } = toConverseRequest({ model: 'anthropic.claude-sonnet-4-5-20250929-v1:0', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
 * const answer = await new BedrockRuntimeClient({}).send(new ConverseStreamCommand({ modelId, ...body }));
 * ```
 *
 * @param request The chat request (any `ChatCompletionCreateParams` value, or a parsed JSON body).
 * @param options `ignore`: names that may be dropped instead of throwing; `maxDepth`.
 * @return The model id, the stream flag, the runtime path and the body.
 * @throws {ToolStreamError} `unsupported-request` for any field, part or value Converse cannot express, or a JSON value nested deeper
 *   than `maxDepth` (default 512); `invalid-option` for an option it does not take or a value it cannot use.
 */
export function toConverseRequest(request: ChatRequestInput, options: TranslateRequestOptions = {}): ConverseWire.Request {
  const reader: RequestReader = new RequestReader('bedrock-converse', 'toConverseRequest', options);
  const chat = readChatRequest(reader, request);
  const body: ConverseWire.RequestBody = { messages: messagesOf(reader, chat.turns) };
  const system = chat.system.flatMap((turn) => textBlocks(turn.content)).filter((block) => block.text !== '');
  if (system.length > 0) body.system = system;
  if (chat.tools !== undefined && chat.tools.length > 0) {
    body.toolConfig = { tools: chat.tools.map((tool) => toolOf(reader, tool)) };
    const choice = toolChoiceOf(reader, chat.toolChoice);
    if (choice !== undefined) body.toolConfig.toolChoice = choice;
    reader.untranslatable(chat.parallelToolCalls, 'parallel_tool_calls', 'parallel_tool_calls', 'Converse cannot limit a turn to one tool call', (v) => v === true);
  }
  const config: NonNullable<ConverseWire.RequestBody['inferenceConfig']> = {};
  if (chat.maxTokens !== undefined) config.maxTokens = chat.maxTokens;
  if (chat.temperature !== undefined) config.temperature = chat.temperature;
  if (chat.topP !== undefined) config.topP = chat.topP;
  if (chat.stop !== undefined) config.stopSequences = [...chat.stop];
  if (Object.keys(config).length > 0) body.inferenceConfig = config;
  reader.untranslatable(chat.user, 'user', 'user', 'Converse has no end-user id');
  reader.untranslatable(chat.store, 'store', 'store', 'Converse does not store completions', (v) => v === false);
  reader.untranslatable(chat.n, 'n', 'n', 'Converse returns one choice');
  reader.untranslatable(chat.includeObfuscation, 'stream_options.include_obfuscation', 'include_obfuscation', 'Converse has no stream obfuscation', (v) => v === false);
  const path = `/model/${encodeURIComponent(chat.model)}/${chat.stream ? 'converse-stream' : 'converse'}`;
  return { modelId: chat.model, stream: chat.stream, path, body };
}

function textBlocks(text: TextContent): ConverseWire.TextBlock[] {
  return (typeof text === 'string' ? [text] : text).map((t) => ({ text: t }));
}

function messagesOf(reader: RequestReader, turns: readonly ChatTurn[]): ConverseWire.Message[] {
  const out: ConverseWire.Message[] = [];
  /** The last message, to which a turn of the same role is added. */
  const open = (role: 'user' | 'assistant'): ConverseWire.Message => {
    const last = out[out.length - 1];
    if (last !== undefined && last.role === role) return last;
    const message: ConverseWire.Message = role === 'user' ? { role, content: [] } : { role, content: [] };
    out.push(message);
    return message;
  };
  for (const turn of turns) {
    switch (turn.kind) {
      case 'system':
        reader.fail(fieldPath(turn.path, 'role'), 'Converse takes system messages only before the conversation');
        break;
      case 'user': {
        const message = open('user') as Extract<ConverseWire.Message, { role: 'user' }>;
        message.content.push(...textBlocks(turn.content));
        break;
      }
      case 'assistant': {
        const message = open('assistant') as Extract<ConverseWire.Message, { role: 'assistant' }>;
        const text = turn.content === null ? [] : textBlocks(turn.content).filter((block) => block.text !== '' || turn.calls.length === 0);
        message.content.push(
          ...text,
          ...turn.calls.map((call): ConverseWire.ToolUseBlock => ({ toolUse: { toolUseId: call.id, name: call.name, input: argumentsObject(reader, call) as ConverseWire.JsonObject } })),
        );
        break;
      }
      case 'tool': {
        const message = open('user') as Extract<ConverseWire.Message, { role: 'user' }>;
        const block: ConverseWire.ToolResultBlock = { toolResult: { toolUseId: turn.call.id, content: [{ text: joinText(turn.content) }] } };
        // Results go before any text of the same user message.
        const firstText = message.content.findIndex((b) => 'text' in b);
        if (firstText === -1) message.content.push(block);
        else message.content.splice(firstText, 0, block);
        break;
      }
    }
  }
  return out;
}

function toolOf(reader: RequestReader, tool: ReadTool): ConverseWire.Tool {
  const path = fieldPath(fieldPath(tool.path, 'function'), 'parameters');
  reader.untranslatable(tool.strict, fieldPath(fieldPath(tool.path, 'function'), 'strict'), 'strict', 'Converse has no strict tool schemas', (v) => v === false);
  const parameters = tool.parameters;
  if (parameters !== undefined && parameters['type'] !== undefined && parameters['type'] !== 'object') reader.fail(fieldPath(path, 'type'), 'Converse tool input schemas must describe an object');
  const out: ConverseWire.Tool = { toolSpec: { name: tool.name, inputSchema: { json: parameters === undefined ? { type: 'object', properties: {} } : { ...parameters, type: 'object' } } } };
  if (tool.description !== undefined) out.toolSpec.description = tool.description;
  return out;
}

function toolChoiceOf(reader: RequestReader, choice: ReadToolChoice | undefined): ConverseWire.ToolChoice | undefined {
  if (choice === undefined || choice === 'auto') return choice === undefined ? undefined : { auto: {} };
  if (choice === 'required') return { any: {} };
  if (choice === 'none') return reader.fail('tool_choice', 'Converse has no tool choice "none" (leave the tools out instead)');
  return { tool: { name: choice.name } };
}
