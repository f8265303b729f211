/**
 * Realtime function calls answered: `toolSpecs(…, 'openai-realtime')`, `toolMessages('openai-realtime',
 * …)` and `answerRealtimeCalls()` — each result as it completes, one `response.create` per response
 * after its last result — on records, and over a real socket with a scripted Realtime server that
 * starts its next response only when asked.
 */
import { from, lastValueFrom, map, Subject, timer, toArray } from 'rxjs';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { answerRealtimeCalls, assistantTextMessage, customTool, tool, toolMessages, toolSpecs, type RealtimeWire, type ToolRunResult } from 'rxjs-tool-calls/tools';
import { fromWebSocket } from 'rxjs-tool-calls/websocket';
import { RealtimeSession, records, type RealtimeEvent } from '../helpers/realtimeWire';
import { startSocketServer } from '../helpers/socketServer';

/** Tools whose runs take the time their arguments say, so the order of the results is known. */
const tools = {
  get_weather: tool({
    description: 'The weather in a city',
    schema: z.object({ city: z.string(), ms: z.number() }),
    execute: ({ city, ms }) => lastValueFrom(timer(ms).pipe(map(() => ({ city, celsius: 18 })))),
  }),
  get_time: tool({ description: 'The time in a zone', schema: z.object({ tz: z.string() }), execute: ({ tz }) => `12:00 in ${tz}` }),
};

const slow = { callId: 'call_slow', name: 'get_weather', arguments: '{"city":"Paris","ms":60}' };
const fast = { callId: 'call_fast', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' };

const outputOf = (event: RealtimeWire.ClientEvent) => (event.type === 'conversation.item.create' && event.item.type === 'function_call_output' ? [event.item.call_id, event.item.output] : event.type);

describe('Realtime tool specs and messages', () => {
  it('toolSpecs: flat functions without strict; a custom tool as a function of one string input', () => {
    const specs = toolSpecs({ ...tools, patch: customTool({ description: 'Apply a patch', execute: (text: unknown) => String(text).length }) }, 'openai-realtime');
    expect(specs[0]).toEqual({
      type: 'function',
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: expect.objectContaining({ type: 'object', required: ['city', 'ms'] }),
    });
    expect(specs[2]).toMatchObject({ type: 'function', name: 'patch', parameters: { properties: { input: { type: 'string' } }, required: ['input'] } });
    expect(specs.every((spec) => !('strict' in spec))).toBe(true);
  });

  it('toolMessages: one function_call_output per call in call order (a failure as its message), then response.create', () => {
    const ok: ToolRunResult = { success: true, data: { name: 'get_time', call: { id: 'call_b', name: 'get_time', index: 1, choice: 0, arguments: {}, rawArguments: '{}' }, output: { t: 1 } } };
    const failed = {
      success: false,
      error: { code: 'unknown-tool', message: 'Unknown tool "x"', toolCall: { id: 'call_a', name: 'x', index: 0, choice: 0, rawArguments: '{}' } },
    } as unknown as ToolRunResult;
    expect(toolMessages('openai-realtime', { results: [ok, failed], text: 'ignored: the session holds it' })).toEqual([
      { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'call_a', output: 'Unknown tool "x"' } },
      { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'call_b', output: '{"t":1}' } },
      { type: 'response.create' },
    ]);
    expect(toolMessages('openai-realtime', { results: [] })).toEqual([]);
    expect(assistantTextMessage('openai-realtime', 'Hi')).toEqual({ type: 'conversation.item.create', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }] } });
  });
});

describe('answerRealtimeCalls()', () => {
  it('answers each call as its tool finishes, then one response.create after the last; a response without calls gets nothing', async () => {
    const s = new RealtimeSession();
    const wire = [...s.created(), ...s.response({ calls: [slow, fast] }), ...s.response({ transcript: 'Sunny.' })];
    // The session stays open while the tools run (a socket would): its end after the slow tool.
    const session = new Subject<ReturnType<typeof records>[number]>();
    const out = lastValueFrom(session.pipe(answerRealtimeCalls(tools), toArray()));
    for (const record of records(wire)) session.next(record);
    setTimeout(() => session.complete(), 150);
    expect((await out).map(outputOf)).toEqual([['call_fast', '12:00 in Asia/Tokyo'], ['call_slow', '{"city":"Paris","celsius":18}'], 'response.create']);
  });

  it('a failed call is answered with its error, so the model can try again; a cancelled response gets no response.create', async () => {
    const s = new RealtimeSession();
    const bad = { callId: 'call_bad', name: 'get_weather', arguments: '{"town":"Bern"}' };
    const cancelled = s.response({ calls: [fast], status: 'cancelled', reason: 'turn_detected' });
    const wire = [...s.response({ calls: [bad] }), ...cancelled];
    const out = await lastValueFrom(from(records(wire)).pipe(answerRealtimeCalls(tools), toArray()));
    expect(out.map(outputOf)).toEqual([['call_bad', expect.stringMatching(/invalid arguments/)], 'response.create', ['call_fast', '12:00 in Asia/Tokyo']]);
  });

  it('refuses what it cannot use when it is made', () => {
    expect(() => answerRealtimeCalls(tools, { read: { provider: 'openai-chat' } as never })).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'options.read.provider' }));
    expect(() => answerRealtimeCalls(tools, { run: { concurrency: 0 } })).toThrow(expect.objectContaining({ option: 'options.run.concurrency' }));
  });

  it('over a real socket: the server hears each result, then one response.create, and only then starts the next response', async () => {
    const s = new RealtimeSession();
    const heard: unknown[] = [];
    const server = await startSocketServer(async (client) => {
      client.send(...s.created());
      const update = (await client.next()) as RealtimeEvent;
      heard.push(update.type);
      client.send(...s.response({ calls: [slow, fast] }));
      for (;;) {
        const message = (await client.next()) as RealtimeEvent;
        heard.push(message['type'] === 'conversation.item.create' ? (message['item'] as { call_id: string }).call_id : message['type']);
        if (message['type'] === 'response.create') break;
      }
      client.send(...s.response({ transcript: 'Paris is sunny, and it is noon in Tokyo.' }));
      client.ws.close(1000);
    });
    try {
      const outgoing = new Subject<RealtimeWire.ClientEvent>();
      const done = new Promise<void>((resolve, reject) => {
        fromWebSocket(server.url, { WebSocketCtor: WebSocket, send: outgoing })
          .pipe(answerRealtimeCalls(tools))
          .subscribe({ next: (event) => outgoing.next(event), error: reject, complete: resolve });
      });
      outgoing.next({ type: 'session.update', session: { type: 'realtime', tools: toolSpecs(tools, 'openai-realtime') } });
      await done; // the server closed the session with 1000 after its second response
      expect(heard).toEqual(['session.update', 'call_fast', 'call_slow', 'response.create']);
      await server.idle();
    } finally {
      await server.close();
    }
  });
});
