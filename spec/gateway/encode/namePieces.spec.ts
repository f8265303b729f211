/**
 * A name streamed in pieces (rule `name-pieces`) through the encoders: the targets that can say a
 * name grew (chat: name pieces, as chat servers send them; Responses: the finished item) or that
 * write calls whole (Gemini, Ollama) carry the whole name; Anthropic and Converse name a call once,
 * in its block start, so they keep the name the call had when it was written.
 */
import { from, lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import { readToolCalls, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeBedrockConverse, encodeGemini, encodeOllamaChat, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';

const events: StreamEvent[] = [
  { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_e', name: 'edit_ex', argumentsDelta: '' },
  { type: 'tool-call-delta', choice: 0, index: 0, name: 'isting_file', argumentsDelta: '{"path":"a.ts"}' },
  { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
  { type: 'done' },
];

async function nameReadBack(encoder: OperatorFunction<StreamEvent, string | Uint8Array>): Promise<string[]> {
  const out = await lastValueFrom(from(events).pipe(encoder, toArray()));
  const bytes = out.every((o): o is string => typeof o === 'string') ? out.join('') : Buffer.concat(out.map((o) => (typeof o === 'string' ? Buffer.from(o) : o)));
  const results = await lastValueFrom(from([bytes]).pipe(readToolCalls(), toArray()));
  return results.map((r) => (r.success ? r.data.name : r.error.code));
}

describe('a name streamed in pieces, re-encoded', () => {
  it.each([
    ['encodeOpenAIChat', () => encodeOpenAIChat()],
    ['encodeOpenAIResponses', () => encodeOpenAIResponses()],
    ['encodeGemini', () => encodeGemini()],
    ['encodeOllamaChat', () => encodeOllamaChat()],
  ] as const)('%s carries the whole name', async (_name, encoder) => {
    expect(await nameReadBack(encoder())).toEqual(['edit_existing_file']);
  });

  it.each([
    ['encodeAnthropicMessages', () => encodeAnthropicMessages()],
    ['encodeBedrockConverse', () => encodeBedrockConverse()],
  ] as const)('%s names a call once, in its block start: the name it had then', async (_name, encoder) => {
    expect(await nameReadBack(encoder())).toEqual(['edit_ex']);
  });
});
