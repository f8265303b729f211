/**
 * MCP tools in `toolLoop()` in every message format a loop writes over HTTP: a scripted model on
 * 127.0.0.1 streams the format (our own stream, written by this library's encoder) and calls an MCP
 * tool that succeeds, one whose result is `isError`, and a local tool; the official SDK's
 * `McpServer` (Streamable HTTP, child process) runs the MCP ones. The next request must be one the
 * API takes (spec/helpers/requestRules.ts: every call answered, in call order, turns where the API
 * wants them), with the MCP output as the result, the `isError` text written back as that call's
 * failure (peers took it for a success: google-gemini/gemini-cli#6194), and the local output.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { from, lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { fromResponse, readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeBedrockConverse, encodeGemini, encodeGeminiInteractions, encodeOllamaChat, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { mcpTools, tool, toolLoop, type LoopMessage, type MessageFormat } from 'rxjs-tool-calls/tools';
import { bundleMcpServer, httpClient, startHttpMcpServer, type HttpMcpServer, type McpServerScript } from '../helpers/mcpServers';
import { checkConversation, resultTexts } from '../helpers/requestRules';
import { startScriptedModel, type ScriptedBody, type ScriptedModel } from '../helpers/scriptedModel';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;
type Provider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'gemini-interactions' | 'bedrock-converse' | 'ollama';

const FORMATS: ReadonlyArray<[MessageFormat, () => OperatorFunction<StreamEvent, string | Uint8Array>, Provider, LoopMessage]> = [
  ['openai-chat', () => encodeOpenAIChat({ id: 'c1', created: 1 }), 'openai-chat', { role: 'user', content: 'Go' }],
  ['openai-responses', () => encodeOpenAIResponses({ id: 'r1', created: 1 }), 'openai-responses', { role: 'user', content: 'Go' }],
  ['anthropic', () => encodeAnthropicMessages({ id: 'm1' }), 'anthropic', { role: 'user', content: 'Go' }],
  ['bedrock-invoke-model', () => encodeAnthropicMessages({ id: 'm1' }), 'anthropic', { role: 'user', content: 'Go' }],
  ['gemini', () => encodeGemini({ id: 'g1' }), 'gemini', { role: 'user', parts: [{ text: 'Go' }] }],
  ['gemini-interactions', () => encodeGeminiInteractions({ id: 'v1_s', model: 'm' }), 'gemini-interactions', { type: 'user_input', content: [{ type: 'text', text: 'Go' }] }],
  ['bedrock-converse', () => encodeBedrockConverse({ id: 'b1' }), 'bedrock-converse', { role: 'user', content: [{ text: 'Go' }] }],
  ['ollama', () => encodeOllamaChat({ id: 'o1' }), 'ollama', { role: 'user', content: 'Go' }],
];

const CALLS = [
  openaiChunk({ toolCalls: [{ index: 0, id: 'call_add', name: 'add', arguments: '{"a":1,"b":2}' }] }),
  openaiChunk({ toolCalls: [{ index: 1, id: 'call_fail', name: 'fail', arguments: '{"city":"Atlantis"}' }] }),
  openaiChunk({ toolCalls: [{ index: 2, id: 'call_now', name: 'now', arguments: '{}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
].join('');
const ANSWER = [openaiChunk({ content: 'Done.' }), openaiChunk({ finishReason: 'stop' }), openaiDone()].join('');

/** Our own stream, as `encoder` writes it. */
const encoded = async (wire: string, encoder: () => OperatorFunction<StreamEvent, string | Uint8Array>): Promise<Array<string | Uint8Array>> =>
  lastValueFrom(from(await lastValueFrom(from([wire]).pipe(readStreamEvents(), toArray()))).pipe(encoder(), toArray()));

let script: McpServerScript;
let server: HttpMcpServer;
let client: Client;
beforeAll(async () => {
  script = await bundleMcpServer();
  server = await startHttpMcpServer(script);
  client = await httpClient(server.url);
});
afterAll(async () => {
  await client.close();
  await server.stop();
  script.dispose();
});

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe.each(FORMATS)('MCP tools beside a local tool in a toolLoop written as %s', (format, encoder, provider, question) => {
  it('the next request answers every call in order: the MCP output, the isError failure as a failure, the local output', async () => {
    const messagesOf = (body: ScriptedBody): Json[] => body.messages as Json[];
    const server = (model = await startScriptedModel([
      { events: await encoded(CALLS, encoder) },
      {
        check: (body) => {
          const messages = messagesOf(body);
          checkConversation(format, messages);
          const results = resultTexts(format, messages);
          expect(results).toHaveLength(3);
          expect(results[0]).toBe('3');
          expect(results[2]).toBe('12:00');
          // The failure's text reaches the model once, on the failed call (Gemini writes it as the response's `error`).
          expect(JSON.stringify(messages).split('no such city: Atlantis')).toHaveLength(2);
        },
        events: await encoded(ANSWER, encoder),
      },
    ]));
    const tools = { ...(await mcpTools(client)), now: tool({ description: 'The time', execute: () => '12:00' }) };
    const request = (messages: ReadonlyArray<LoopMessage>) =>
      fromResponse(fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages }) }), { provider });
    const items = await lastValueFrom(toolLoop(request, tools, { format, read: { provider }, messages: [question] }).pipe(toArray()));

    expect(server.rejections).toEqual([]);
    expect(server.requests).toHaveLength(2);
    // Results come as the tools finish (the local one first); the request above has them in call order.
    const results = items.flatMap((i) => (i.type === 'tool-result' ? [i.result] : []));
    const byCall = new Map(results.map((r) => [r.success ? r.data.name : r.call?.name, r]));
    expect([...byCall.keys()].sort()).toEqual(['add', 'fail', 'now']);
    expect(byCall.get('add')).toMatchObject({ success: true, data: { name: 'add', output: '3' } });
    const failed = byCall.get('fail');
    expect(failed?.success === false && [failed.error.code, (failed.error.cause as { code?: string } | undefined)?.code]).toEqual(['tool-failed', 'mcp-tool-error']);
    expect(byCall.get('now')).toMatchObject({ success: true, data: { name: 'now', output: '12:00' } });
    expect(items.at(-1)).toMatchObject({ type: 'done', text: 'Done.' });
  });
});
