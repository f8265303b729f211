/**
 * `encodeGeminiInteractions()`: the Interactions API's own wire (events, steps, statuses, usage,
 * errors), and two clients of it: `@google/genai`'s `interactions.create({ stream: true })` against
 * a 127.0.0.1 server that re-encodes every shared fixture, and `@ai-sdk/google`'s
 * `google.interactions()` (which checks every event against its schema) reading the same output in
 * a child process. Both get the calls (ids, names, arguments), the text and the finish of reading
 * the original.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GoogleGenAI } from '@google/genai';
import { concat, from, throwError } from 'rxjs';
import { isToolStreamError, readStreamEvents, ToolStreamError, type StreamEvent } from 'rxjs-tool-calls';
import { encodeGeminiInteractions } from 'rxjs-tool-calls/gateway';
import { bundleChild, lastJsonLine, type ChildScript } from '../../helpers/childProcess';
import { startEncodedServer, type EncodedServer } from '../../helpers/encodedServer';
import { loadFixtures, loadOwnFixtures } from '../../helpers/fixtures';
import { collect, encoderFor, eventsOf, reencode, view, writtenBy } from '../../helpers/reencode';

const encode = (events: readonly StreamEvent[], error?: unknown) => writtenBy(encodeGeminiInteractions({ id: 'v1_enc', model: 'gemini-3-flash-preview', generateId: () => 'gen' }), events, error);
const steps = (events: ReturnType<typeof encode>['events']) => events.map((e) => [e.event, (e.data as { index?: number }).index]);

const x1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":' };
const x2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Zürich"}' };

describe('encodeGeminiInteractions()', () => {
  it('writes created, a thought, text and a function call as steps, live, then the final status and completed', () => {
    const out = encode([
      { type: 'metadata', provider: 'anthropic', responseId: 'msg_1', model: 'claude' },
      { type: 'reasoning-delta', choice: 0, text: 'Weather, ' },
      { type: 'reasoning-delta', choice: 0, text: 'so a call.', signature: 'sig==' },
      { type: 'text-delta', choice: 0, text: 'Checking.' },
      x1,
      x2,
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' },
      { type: 'usage', inputTokens: 20, outputTokens: 15, reasoningTokens: 5, cachedInputTokens: 4, raw: {} },
      { type: 'done' },
    ]);
    expect([out.error, out.completed]).toEqual([undefined, true]);
    expect(out.events.map((e) => e.data)).toEqual([
      { interaction: { id: 'v1_enc', status: 'in_progress', object: 'interaction', model: 'gemini-3-flash-preview' }, event_type: 'interaction.created' },
      { interaction_id: 'v1_enc', status: 'in_progress', event_type: 'interaction.status_update' },
      { index: 0, step: { type: 'thought' }, event_type: 'step.start' },
      { index: 0, delta: { content: { type: 'text', text: 'Weather, ' }, type: 'thought_summary' }, event_type: 'step.delta' },
      { index: 0, delta: { content: { type: 'text', text: 'so a call.' }, type: 'thought_summary' }, event_type: 'step.delta' },
      { index: 0, delta: { signature: 'sig==', type: 'thought_signature' }, event_type: 'step.delta' },
      { index: 0, event_type: 'step.stop' },
      { index: 1, step: { type: 'model_output' }, event_type: 'step.start' },
      { index: 1, delta: { text: 'Checking.', type: 'text' }, event_type: 'step.delta' },
      { index: 1, event_type: 'step.stop' },
      { index: 2, step: { id: 'call_1', signature: '', type: 'function_call', name: 'get_weather', arguments: {} }, event_type: 'step.start' },
      { index: 2, delta: { arguments: '{"city":', type: 'arguments_delta' }, event_type: 'step.delta' },
      { index: 2, delta: { arguments: '"Zürich"}', type: 'arguments_delta' }, event_type: 'step.delta' },
      { index: 2, event_type: 'step.stop' },
      {
        interaction_id: 'v1_enc',
        status: 'requires_action',
        usage: { total_input_tokens: 20, total_cached_tokens: 4, total_output_tokens: 10, total_thought_tokens: 5, total_tokens: 35 },
        event_type: 'interaction.status_update',
      },
      {
        interaction: {
          id: 'v1_enc',
          status: 'requires_action',
          usage: { total_input_tokens: 20, total_cached_tokens: 4, total_output_tokens: 10, total_thought_tokens: 5, total_tokens: 35 },
          object: 'interaction',
          model: 'gemini-3-flash-preview',
        },
        event_type: 'interaction.completed',
      },
    ]);
    expect(out.events.every((e) => e.event === (e.data as { event_type: string }).event_type)).toBe(true);
    // Live: each fragment is written by the event that brought it (the metadata writes nothing).
    expect(out.values[3]).toContain('"function_call"');
    expect(out.values[3]).not.toContain('Zürich');
    expect(out.values[4]).toBe('event: step.delta\ndata: {"index":2,"delta":{"arguments":"\\"Zürich\\"}","type":"arguments_delta"},"event_type":"step.delta"}\n\n');
  });

  it('a Gemini source’s call keeps its thought signature on its step', () => {
    const out = encode([
      { type: 'tool-call-delta', choice: 0, index: 0, name: 'f', argumentsDelta: '{}', replace: true, metadata: { thoughtSignature: 'CiQ=' } },
      { type: 'tool-call-end', choice: 0, index: 0 },
    ]);
    expect(out.events.find((e) => (e.data as { step?: { type: string } }).step?.type === 'function_call')?.data).toMatchObject({ step: { id: 'gen', signature: 'CiQ=', name: 'f' } });
  });

  it('a cut call gets no step.stop, and the interaction ends incomplete (requires_action would complete it)', () => {
    const out = encode([
      x1,
      { type: 'tool-call-end', choice: 0, index: 0, incomplete: true, finishReason: 'length' },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' },
      { type: 'done' },
    ]);
    expect(steps(out.events).map(([name]) => name)).not.toContain('step.stop');
    expect(out.events.at(-1)?.data).toMatchObject({ interaction: { status: 'incomplete' } });
    const back = view(out.values.join(''));
    expect(back.calls.map((c) => [c.id, c.outcome])).toEqual([['call_1', 'incomplete']]);
    expect(back.finish).toBe('length');
  });

  it.each([
    ['stop', 'end_turn', 'completed'],
    ['length', 'max_tokens', 'incomplete'],
    ['content-filter', 'SAFETY', 'incomplete'],
    ['error', 'error', 'incomplete'],
    ['other', 'pause', 'completed'],
    ['other', 'cancelled', 'cancelled'],
    ['length', 'budget_exceeded', 'budget_exceeded'],
  ] as const)('a %s finish (%s) ends the interaction as %s', (reason, rawReason, status) => {
    const out = encode([{ type: 'text-delta', choice: 0, text: 'x' }, { type: 'finish', choice: 0, reason, rawReason }, { type: 'done' }]);
    expect(out.events.at(-1)?.data).toMatchObject({ interaction: { status } });
  });

  it('writes a provider error as an error event (its own code, else one from its status) and completes; a reader gets the provider error', () => {
    const cases: Array<[ToolStreamError<'provider-error'>, string, boolean]> = [
      [new ToolStreamError('provider-error', { provider: 'anthropic', type: 'overloaded_error', message: 'Overloaded', status: 529, retryable: true, payload: {} }), 'unavailable', true],
      [new ToolStreamError('provider-error', { provider: 'openai-chat', message: 'Rate limit', status: 429, retryable: true, payload: {} }), 'resource_exhausted', true],
      [new ToolStreamError('provider-error', { provider: 'openai-chat', message: 'Bad key', status: 401, retryable: false, payload: {} }), 'unauthenticated', false],
      [new ToolStreamError('provider-error', { provider: 'gemini-interactions', providerCode: 'internal', message: 'Internal error', retryable: true, payload: {} }), 'internal', true],
    ];
    for (const [error, code, retryable] of cases) {
      const out = encode([x1], error);
      expect([out.error, out.completed]).toEqual([undefined, true]);
      expect(out.events.at(-1)).toEqual({ event: 'error', data: { error: { code, message: error.message.slice(error.message.indexOf(': ') + 2) }, event_type: 'error' } });
      const back = view(out.values.join(''));
      expect(isToolStreamError(back.error, 'provider-error') && [back.error.providerCode, back.error.retryable]).toEqual([code, retryable]);
    }
  });

  it('any other error passes on without interaction.completed: a reader sees a cut stream', () => {
    const cut = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'cut' });
    const out = encode([x1], cut);
    expect(out.error).toBe(cut);
    expect(out.values.join('')).not.toContain('interaction.completed');
    expect(isToolStreamError(view(out.values.join('')).error, 'truncated')).toBe(true);
  });

  it('an Interactions source’s server tool steps are written back whole, in stream order; another source’s provider tools are left out', () => {
    const search = loadOwnFixtures().find((f) => f.name === 'gemini-interactions/google-search-then-text');
    if (search === undefined) throw new Error('missing fixture');
    const { events } = eventsOf(search.bytes);
    const out = encode(events);
    const written = out.events.filter((e) => e.event === 'step.start').map((e) => (e.data as { step: Record<string, unknown> }).step);
    expect(written).toEqual([
      { id: 'q1s8ta5e', signature: '', type: 'google_search_call', arguments: { queries: ['tallest building 2026'] } },
      { call_id: 'q1s8ta5e', signature: '', type: 'google_search_result', result: [{ title: 'example.org', url: 'https://example.org/tallest' }] },
      { type: 'model_output' },
    ]);
    const anthropicTool: StreamEvent = {
      type: 'provider-tool',
      choice: 0,
      provider: 'anthropic',
      id: 'srvtoolu_1',
      tool: 'web_search',
      status: 'completed',
      raw: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
    };
    expect(encode([anthropicTool, { type: 'text-delta', choice: 0, text: 'x' }]).values.join('')).not.toContain('web_search');
  });

  it('writes the reasoning of a part that came whole (a Responses reasoning item) once, with its signature', () => {
    const out = encode([
      { type: 'reasoning-end', choice: 0, text: 'Thought whole.', signature: 'enc==' },
      { type: 'text-delta', choice: 0, text: 'Hi' },
    ]);
    expect(out.events.filter((e) => e.event === 'step.delta').map((e) => (e.data as { delta: unknown }).delta)).toEqual([
      { content: { type: 'text', text: 'Thought whole.' }, type: 'thought_summary' },
      { signature: 'enc==', type: 'thought_signature' },
      { text: 'Hi', type: 'text' },
    ]);
  });

  it('refuses a replace that contradicts the arguments already written (the format appends only)', () => {
    const out = encode([x1, { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"other":1}', replace: true }, { type: 'done' }]);
    expect(isToolStreamError(out.error, 'invalid-event') && out.error.provider).toBe('gemini-interactions');
  });

  it('round-trips its own streams exactly (same events read back)', () => {
    for (const fixture of loadOwnFixtures()) {
      const original = eventsOf(fixture.bytes);
      const encoded = collect(concat(from(original.events), original.error === undefined ? from([]) : throwError(() => original.error)).pipe(encodeGeminiInteractions({ generateId: () => 'gen' })));
      const back = eventsOf(encoded.values.join(''));
      const content = (events: StreamEvent[]) => events.filter((e) => e.type !== 'usage' && e.type !== 'metadata' && e.type !== 'provider-tool');
      expect([fixture.name, content(back.events)]).toEqual([fixture.name, content(original.events)]);
    }
  });
});

describe('clients of the encoded stream', () => {
  const fixtures = loadFixtures();
  const byName = new Map(fixtures.map((f) => [f.name, f.bytes]));
  let server: EncodedServer;
  let child: ChildScript;
  let dir: string;
  beforeAll(async () => {
    server = await startEncodedServer((model) => from([byName.get(model) ?? new Uint8Array()]).pipe(readStreamEvents()), { '/v1/interactions': () => encoderFor('gemini-interactions') });
    child = await bundleChild(path.join(__dirname, '../../providers/geminiInteractions/children/aiSdkOracle.ts'));
    dir = mkdtempSync(path.join(os.tmpdir(), 'interactions-encoded-'));
  }, 120_000);
  afterAll(async () => {
    await server.close();
    child.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The calls a client should hold: the original's runnable calls (id, name, parsed arguments). */
  const runnable = (bytes: Uint8Array) =>
    view(bytes)
      .calls.filter((c) => c.outcome === 'ok')
      .map((c) => [c.id, c.name, c.arguments]);

  it('@google/genai interactions.create({ stream: true }) reads every fixture re-encoded: its steps hold the calls and text of the original', async () => {
    const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.origin } });
    for (const fixture of fixtures) {
      const original = view(fixture.bytes);
      const stream = await ai.interactions.create({ model: fixture.name, input: 'go', stream: true });
      const args = new Map<number, string>();
      const calls = new Map<number, [string, string]>();
      let text = '';
      let last = '';
      for await (const event of stream) {
        last = event.event_type;
        if (event.event_type === 'step.start' && event.step.type === 'function_call') calls.set(event.index, [event.step.id, event.step.name]);
        if (event.event_type === 'step.delta' && event.delta.type === 'arguments_delta') args.set(event.index, (args.get(event.index) ?? '') + (event.delta.arguments ?? ''));
        if (event.event_type === 'step.delta' && event.delta.type === 'text') text += event.delta.text;
      }
      const held = [...calls].flatMap(([index, [id, name]]) => {
        try {
          return [[id, name, JSON.parse(args.get(index) ?? '{}') as unknown]];
        } catch {
          return [];
        }
      });
      expect([fixture.name, held.filter(([id]) => runnable(fixture.bytes).some(([r]) => r === id))]).toEqual([fixture.name, runnable(fixture.bytes)]);
      expect([fixture.name, text]).toEqual([fixture.name, original.text]);
      expect([fixture.name, last]).toEqual([fixture.name, original.error === undefined ? 'interaction.completed' : 'error']);
    }
  }, 120_000);

  it('@ai-sdk/google google.interactions() (schema-checked) reads every fixture re-encoded: the same calls, text and finish', async () => {
    const encoded = fixtures.map((f) => {
      const { events, error } = eventsOf(f.bytes);
      return reencode(events, isToolStreamError(error, 'provider-error') ? error : undefined, 'gemini-interactions').text;
    });
    const file = path.join(dir, 'encoded.json');
    writeFileSync(file, JSON.stringify(encoded));
    const views = lastJsonLine<Array<{ calls: Array<{ id: string; name: string; input: unknown }>; text: string; finish: string; errors: string[] }>>(await child.run([file], { timeoutMs: 120_000 }));
    fixtures.forEach((fixture, i) => {
      const original = view(fixture.bytes);
      const oracle = views[i]!;
      const held = oracle.calls.filter((c) => !(typeof c.input === 'object' && c.input !== null && 'unparsed' in c.input));
      expect([fixture.name, held.map((c) => [c.id, c.name, c.input])]).toEqual([fixture.name, runnable(fixture.bytes)]);
      expect([fixture.name, oracle.text]).toEqual([fixture.name, original.text]);
      if (original.error === undefined) expect([fixture.name, oracle.errors]).toEqual([fixture.name, []]);
      if (original.error === undefined && original.finish === 'tool-calls') expect([fixture.name, oracle.finish]).toEqual([fixture.name, 'tool-calls']);
    });
  }, 120_000);
});
