/**
 * `readStreamEvents()` / `readToolCalls()` read every framing: with `provider: 'auto'` they judge it
 * from the response's content type when the source knows it (`fromResponse` over a real HTTP
 * server on 127.0.0.1) and from the first bytes otherwise, the same under every chunking; a named
 * format reads its own framing; a whole JSON response answering a streaming request is read as that
 * one response.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { fromResponse, readStreamEvents, readToolCalls, type ReadToolCallsOptions, type StreamEvent } from 'rxjs-tool-calls';
import { chunkings } from '../helpers/chunking';
import { framedView, loadFramingFixtures, readFramed, type FramingExpected } from '../helpers/framingFixtures';

const fixtures = loadFramingFixtures();

/** Events and error of `bytes` through `readStreamEvents(options)`. */
function read(chunks: ReadonlyArray<Uint8Array | string>, options: ReadToolCallsOptions = {}): { events: StreamEvent[]; error: unknown } {
  const events: StreamEvent[] = [];
  let error: unknown;
  from(chunks)
    .pipe(readStreamEvents(options))
    .subscribe({ next: (e) => events.push(e), error: (e: unknown) => (error = e) });
  return { events, error };
}

describe.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
  const expected = framedView(readFramed(fixture, [fixture.bytes]).events, readFramed(fixture, [fixture.bytes]).error);
  it.each(chunkings(fixture.bytes))('auto-detected from the first bytes: what its framing and format read (%s)', (_how, chunks) => {
    const { events, error } = read(chunks);
    expect(framedView(events, error)).toEqual(expected);
  });

  it('read with its format named', () => {
    const { events, error } = read([fixture.bytes], { provider: fixture.expected.provider as never });
    expect(framedView(events, error)).toEqual(expected);
  });
});

describe('the framing from the content type, through fromResponse', () => {
  let server: http.Server;
  let origin = '';
  const bodies = new Map<string, { readonly type: string; readonly body: Uint8Array }>();
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const entry = bodies.get(req.url ?? '');
      if (entry === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': entry.type });
      // One byte per write: the first chunk says little, the content type says it all.
      let i = 0;
      const next = (): void => {
        if (i >= entry.body.length) return void res.end();
        res.write(entry.body.subarray(i, i + 1), next);
        i++;
      };
      next();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const TYPES: Record<string, string> = { 'aws-event-stream': 'application/vnd.amazon.eventstream', ndjson: 'application/x-ndjson', 'json-array': 'application/json; charset=utf-8' };

  it.each(fixtures.map((f) => [f.name, f] as const))('%s', async (name, fixture) => {
    bodies.set(`/${name}`, { type: TYPES[fixture.framing] as string, body: fixture.bytes });
    const events: StreamEvent[] = [];
    const error = await lastValueFrom(fromResponse(fetch(`${origin}/${name}`)).pipe(readStreamEvents())).then(
      () => undefined,
      (e: unknown) => e,
    );
    await lastValueFrom(fromResponse(fetch(`${origin}/${name}`)).pipe(readStreamEvents(), toArray())).then(
      (all) => events.push(...all),
      () => undefined,
    );
    const expected = readFramed(fixture, [fixture.bytes]);
    const view: FramingExpected = framedView(events.length > 0 ? events : [], error);
    if (expected.error === undefined) expect(view).toEqual(framedView(expected.events, undefined));
    else expect(error).toMatchObject({ code: (expected.error as { code: string }).code });
  });

  it('an NDJSON body whose first line is an error is the provider error (the content type names the framing)', async () => {
    bodies.set('/ndjson-error', { type: 'application/x-ndjson', body: new TextEncoder().encode('{"error":"model \\"x\\" not found, try pulling it first"}\n') });
    await expect(lastValueFrom(fromResponse(fetch(`${origin}/ndjson-error`)).pipe(readToolCalls()))).rejects.toMatchObject({ code: 'provider-error' });
  });
});

/** Whole responses of each format, and the streams they answer for: the same events in substance. */
const WHOLE: Array<[string, unknown, string]> = [
  [
    'openai-chat chat.completion',
    {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Zürich', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Zürich"}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    },
    [
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Zürich","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Zürich\\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12}}',
      'data: [DONE]',
    ].join('\n\n') + '\n\n',
  ],
  [
    'openai-responses response',
    {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-4o',
      output: [
        { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Zürich' }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Zürich"}', status: 'completed' },
      ],
      usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
    },
    [
      'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-4o","output":[]}}',
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","output_index":0,"delta":"Zürich"}',
      'event: response.output_item.added\ndata: {"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":""}}',
      'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","output_index":1,"item_id":"fc_1","delta":"{\\"city\\":\\"Zürich\\"}"}',
      'event: response.output_item.done\ndata: {"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\\"city\\":\\"Zürich\\"}","status":"completed"}}',
      'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","model":"gpt-4o","output":[],"usage":{"input_tokens":5,"output_tokens":7,"total_tokens":12}}}',
    ].join('\n\n') + '\n\n',
  ],
  [
    'anthropic message',
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: 'Zürich' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Zürich' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 5, output_tokens: 7 },
    },
    [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":5,"output_tokens":7}}}',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Zürich"}}',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
      'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\":\\"Zürich\\"}"}}',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":1}',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"input_tokens":5,"output_tokens":7}}',
      'event: message_stop\ndata: {"type":"message_stop"}',
    ].join('\n\n') + '\n\n',
  ],
  [
    'gemini response',
    {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Zürich' }, { functionCall: { name: 'get_weather', args: { city: 'Zürich' } } }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7 },
    },
    'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Zürich"},{"functionCall":{"name":"get_weather","args":{"city":"Zürich"}}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":7}}\n\n',
  ],
];

/** What a reader shows of a response: text, calls, finish, usage, how it ended. */
async function substance(chunks: ReadonlyArray<Uint8Array | string>, options: ReadToolCallsOptions = {}) {
  const events = await lastValueFrom(from(chunks).pipe(readStreamEvents(options), toArray()));
  const results = await lastValueFrom(from(chunks).pipe(readToolCalls({ ...options, generateId: () => 'gen' }), toArray()));
  return {
    text: events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join(''),
    calls: results.map((r) => (r.success ? { id: r.data.id, name: r.data.name, arguments: r.data.arguments } : r.error.code)),
    finish: events.flatMap((e) => (e.type === 'finish' ? [e.reason] : [])),
    usage: events
      .filter((e) => e.type === 'usage')
      .map(({ type: _type, raw: _raw, ...counts }) => counts)
      .at(-1),
    done: events.at(-1)?.type,
  };
}

describe.each(WHOLE)('a whole JSON body answering a streaming request: %s', (name, body, stream) => {
  const streamed = (): ReturnType<typeof substance> => substance([stream]);
  for (const [how, text] of [
    ['compact', JSON.stringify(body)],
    ['pretty-printed', JSON.stringify(body, null, 2)],
  ] as const) {
    it.each(chunkings(new TextEncoder().encode(text)))(`${how}, auto-detected: what its stream gives (%s)`, async (_how, chunks) => {
      expect(await substance(chunks)).toEqual(await streamed());
    });
  }

  it('named: what its stream gives', async () => {
    const provider = name.split(' ')[0] as never;
    expect(await substance([JSON.stringify(body, null, 2)], { provider })).toEqual(await substance([stream], { provider }));
  });
});

/**
 * A server that waits for its model may open the stream with blank lines or spaces (keep-alives)
 * before the first event. The framing is judged by the first other byte however many come first,
 * and the events come out as they arrive, not at the end of the stream.
 */
describe('a stream that opens with keep-alive whitespace', () => {
  const sse = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n';
  const json = JSON.stringify({ id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }] });
  const starts: ReadonlyArray<readonly [string, ReadonlyArray<string | Uint8Array>]> = [
    ['40 newlines in one chunk', ['\n'.repeat(40)]],
    ['20 CRLF keep-alives, one chunk each', Array.from({ length: 20 }, () => '\r\n')],
    ['a line of 30 spaces, as bytes', [new TextEncoder().encode(`${' '.repeat(30)}\n`)]],
    ['a BOM, then a line of 20 spaces', [new Uint8Array([0xef, 0xbb, 0xbf]), `${' '.repeat(20)}\n`]],
    ['a BOM cut in two, then 20 newlines', [new Uint8Array([0xef]), new Uint8Array([0xbb, 0xbf, ...new TextEncoder().encode('\n'.repeat(20))])]],
  ];

  it.each(starts)('%s, then SSE: the first event comes out before the stream ends', (_how, start) => {
    const input = new Subject<Uint8Array | string>();
    const events: StreamEvent[] = [];
    let error: unknown;
    input.pipe(readStreamEvents()).subscribe({ next: (event) => events.push(event), error: (e: unknown) => (error = e) });
    for (const chunk of start) input.next(chunk);
    input.next(sse);
    expect(events.map((e) => e.type)).toContain('text-delta');
    input.complete(); // no finish and no [DONE]: the stream was cut
    expect(error).toMatchObject({ code: 'truncated' });
  });

  it.each(starts)('%s, then a whole JSON response: read as that response', async (_how, start) => {
    const events = await lastValueFrom(from([...start, json]).pipe(readStreamEvents(), toArray()));
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual(['Hi']);
  });
});
