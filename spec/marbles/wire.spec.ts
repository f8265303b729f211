import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { anthropicEvent, cohereEvent, geminiChunk, openaiChunk, openaiDone, responsesEvent, sseEvent } from 'rxjs-tool-calls/marbles';

/** Parse SSE text with an independent parser, to check the builders write valid SSE. */
function parse(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

describe('sseEvent', () => {
  it('writes the fields and one data line per line', () => {
    expect(sseEvent({ data: 'x' })).toBe('data: x\n\n');
    expect(sseEvent({ event: 'ping', id: '7', retry: 1000, data: 'a\nb\r\nc' })).toBe('event: ping\nid: 7\nretry: 1000\ndata: a\ndata: b\ndata: c\n\n');
    expect(parse(sseEvent({ event: 'ping', id: '7', data: 'a\nb' }))).toEqual([{ event: 'ping', id: '7', data: 'a\nb' }]);
  });

  it('writes an empty data line for empty data', () => {
    expect(sseEvent({ data: '' })).toBe('data: \n\n');
  });
});

describe('openaiChunk', () => {
  const data = (text: string): unknown => JSON.parse(parse(text)[0]?.data ?? 'null');

  it('writes a tool-call start the way OpenAI does', () => {
    expect(data(openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '' }] }))).toEqual({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'gpt-test',
      choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, finish_reason: null }],
    });
  });

  it('writes argument fragments, parallel calls and explicit indexes', () => {
    expect(data(openaiChunk({ toolCalls: [{ arguments: '{"a"' }, { index: 5, arguments: '1' }] }))).toMatchObject({
      choices: [
        {
          delta: {
            tool_calls: [
              { index: 0, function: { arguments: '{"a"' } },
              { index: 5, function: { arguments: '1' } },
            ],
          },
        },
      ],
    });
  });

  it('writes content, reasoning, finish reason and choice', () => {
    expect(data(openaiChunk({ content: 'hi', reasoning: 'hmm', finishReason: 'stop', choice: 2, id: 'x', model: 'm', created: 5 }))).toEqual({
      id: 'x',
      object: 'chat.completion.chunk',
      created: 5,
      model: 'm',
      choices: [{ index: 2, delta: { content: 'hi', reasoning_content: 'hmm' }, finish_reason: 'stop' }],
    });
  });

  it('writes a usage-only chunk with empty choices', () => {
    const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
    expect(data(openaiChunk({ usage }))).toMatchObject({ choices: [], usage });
    expect(data(openaiChunk({ usage, finishReason: 'stop' }))).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage });
  });

  it('writes [DONE]', () => {
    expect(openaiDone()).toBe('data: [DONE]\n\n');
  });
});

describe('typed events', () => {
  it.each([
    ['anthropicEvent', anthropicEvent, 'content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"c' } }],
    ['responsesEvent', responsesEvent, 'response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_1', delta: '{"c' }],
    ['cohereEvent', cohereEvent, 'tool-call-delta', { index: 0, delta: { message: { tool_calls: { function: { arguments: '{"c' } } } } }],
  ] as const)('%s names the event and puts type first in the data', (_name, build, type, payload) => {
    const [event] = parse(build(type, payload));
    expect(event?.event).toBe(type);
    expect(event?.data.startsWith(`{"type":"${type}",`)).toBe(true);
    expect(JSON.parse(event?.data ?? '')).toEqual({ type, ...payload });
  });

  it('accepts an event without payload', () => {
    expect(anthropicEvent('message_stop')).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });
});

describe('geminiChunk', () => {
  it('writes thought, text and function-call parts, finish reason and usage', () => {
    const [event] = parse(
      geminiChunk({
        thought: 'plan',
        text: 'ok',
        functionCalls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'fc1', thoughtSignature: 'sig' }, { name: 'noop' }],
        parts: [{ executableCode: {} }],
        finishReason: 'STOP',
        usageMetadata: { promptTokenCount: 1 },
        modelVersion: 'gemini-test',
        responseId: 'r1',
      }),
    );
    expect(event?.event).toBeUndefined();
    expect(JSON.parse(event?.data ?? '')).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'plan', thought: true },
              { text: 'ok' },
              { functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'fc1' }, thoughtSignature: 'sig' },
              { functionCall: { name: 'noop', args: {} } },
              { executableCode: {} },
            ],
          },
          index: 0,
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 1 },
      modelVersion: 'gemini-test',
      responseId: 'r1',
    });
  });

  it('writes an empty candidate by default', () => {
    expect(geminiChunk()).toBe('data: {"candidates":[{"content":{"role":"model","parts":[]},"index":0}]}\n\n');
  });
});
