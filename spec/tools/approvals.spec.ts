/**
 * Approvals in `toolLoop()`: `tool({ needsApproval })`, the `approve` option, `tool-approval`
 * items, denials written back in every message format (every call answered, in call order), edited
 * arguments validated again, and the `paused` checkpoint resumed from JSON.
 *
 * Real-world cases: a denied call left without a result breaks the next request (vercel/ai#14428);
 * the tool name lost when the approval is replayed; siblings of a rejected call dropped from the
 * turn; an approval that never comes keeping the run alive.
 */
import { from, lastValueFrom, Observable, of, Subject, toArray, type OperatorFunction } from 'rxjs';
import { z } from 'zod';
import { readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { encodeAnthropicMessages, encodeBedrockConverse, encodeGemini, encodeOllamaChat, encodeOpenAIChat, encodeOpenAIResponses } from 'rxjs-tool-calls/gateway';
import { tool, toolLoop, type LoopMessage, type MessageFormat, type ToolApprovalDecision, type ToolApprovalRequest, type ToolLoopCheckpoint, type ToolLoopItem } from 'rxjs-tool-calls/tools';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

/** The model's step 0: three calls (two need approval), then the answer. */
const CALLS = [
  openaiChunk({ toolCalls: [{ index: 0, id: 'call_del', name: 'delete_file', arguments: '{"path":"/tmp/a"}' }] }),
  openaiChunk({ toolCalls: [{ index: 1, id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' }] }),
  openaiChunk({ toolCalls: [{ index: 2, id: 'call_pay', name: 'pay', arguments: '{"amount":500}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
].join('');
const ANSWER = [openaiChunk({ content: 'Done.' }), openaiChunk({ finishReason: 'stop' }), openaiDone()].join('');

const eventsOf = (wire: string): Promise<StreamEvent[]> => lastValueFrom(from([wire]).pipe(readStreamEvents(), toArray()));

/** Each message format, with the encoder that writes a stream the loop reads for it. */
const FORMATS: ReadonlyArray<[MessageFormat, () => OperatorFunction<StreamEvent, string | Uint8Array>, MessageFormat]> = [
  ['openai-chat', () => encodeOpenAIChat({ id: 'c1', created: 1 }), 'openai-chat'],
  ['openai-responses', () => encodeOpenAIResponses({ id: 'r1', created: 1 }), 'openai-responses'],
  ['anthropic', () => encodeAnthropicMessages({ id: 'm1' }), 'anthropic'],
  ['bedrock-invoke-model', () => encodeAnthropicMessages({ id: 'm1' }), 'anthropic'],
  ['gemini', () => encodeGemini({ id: 'g1' }), 'gemini'],
  ['bedrock-converse', () => encodeBedrockConverse({ id: 'b1' }), 'bedrock-converse'],
  ['ollama', () => encodeOllamaChat({ id: 'o1' }), 'ollama'],
];

function makeTools(log: string[]) {
  return {
    delete_file: tool({ schema: z.strictObject({ path: z.string().startsWith('/tmp/') }), needsApproval: true, execute: ({ path }) => (log.push(`delete ${path}`), `deleted ${path}`) }),
    get_weather: tool({ schema: z.strictObject({ city: z.string() }), execute: ({ city }) => (log.push(`weather ${city}`), `sunny in ${city}`) }),
    pay: tool({ schema: z.strictObject({ amount: z.number() }), needsApproval: async ({ amount }) => amount > 100, execute: ({ amount }) => (log.push(`pay ${amount}`), { paid: amount }) }),
  };
}

/** The calls of the assistant turn and the results after it, as [id or name, result text, marked as an error]. */
function answered(format: MessageFormat, messages: ReadonlyArray<LoopMessage>): { calls: string[]; results: Array<[string, string, boolean]> } {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the messages of seven formats, read loosely
  const all = messages as ReadonlyArray<Record<string, any>>;
  const calls: string[] = [];
  const results: Array<[string, string, boolean]> = [];
  for (const m of all) {
    switch (format) {
      case 'openai-chat':
        for (const c of m['tool_calls'] ?? []) calls.push(c.id);
        if (m['role'] === 'tool') results.push([m['tool_call_id'], m['content'], false]);
        break;
      case 'ollama':
        for (const c of m['tool_calls'] ?? []) calls.push(c.function.name);
        if (m['role'] === 'tool') results.push([m['tool_name'], m['content'], false]);
        break;
      case 'openai-responses':
        if (m['type'] === 'function_call') calls.push(m['call_id']);
        if (m['type'] === 'function_call_output') results.push([m['call_id'], m['output'], false]);
        break;
      case 'anthropic':
      case 'bedrock-invoke-model':
        for (const b of Array.isArray(m['content']) ? m['content'] : []) {
          if (b.type === 'tool_use') calls.push(b.id);
          if (b.type === 'tool_result') results.push([b.tool_use_id, b.content, b.is_error === true]);
        }
        break;
      case 'gemini':
        for (const p of m['parts'] ?? []) {
          if (p.functionCall) calls.push(p.functionCall.name);
          if (p.functionResponse) results.push([p.functionResponse.name, JSON.stringify(p.functionResponse.response), 'error' in p.functionResponse.response]);
        }
        break;
      case 'bedrock-converse':
        for (const b of m['content'] ?? []) {
          if (b.toolUse) calls.push(b.toolUse.toolUseId);
          if (b.toolResult) results.push([b.toolResult.toolUseId, b.toolResult.content[0].text, b.toolResult.status === 'error']);
        }
        break;
    }
  }
  return { calls, results };
}

/** Whether the format marks a failed result itself (else the text says it). */
const MARKS_ERRORS = new Set<MessageFormat>(['anthropic', 'bedrock-invoke-model', 'gemini', 'bedrock-converse']);
const byNames = (format: MessageFormat): boolean => format === 'ollama' || format === 'gemini';

describe.each(FORMATS)('approvals in toolLoop, written back in %s', (format, encoder, provider) => {
  let steps: Array<Array<string | Uint8Array>>;
  beforeAll(async () => {
    steps = [await lastValueFrom(from(await eventsOf(CALLS)).pipe(encoder(), toArray())), await lastValueFrom(from(await eventsOf(ANSWER)).pipe(encoder(), toArray()))];
  });
  const requestOf =
    (sent: Array<ReadonlyArray<LoopMessage>>) =>
    (messages: ReadonlyArray<LoopMessage>, step: number): Observable<string | Uint8Array> => {
      sent.push(messages);
      return from(steps[step] ?? []);
    };
  const question = (): LoopMessage =>
    format === 'gemini'
      ? { role: 'user', parts: [{ text: 'Go' }] }
      : format === 'openai-responses'
        ? { role: 'user', content: 'Go' }
        : { role: 'user', content: format === 'bedrock-converse' ? [{ text: 'Go' }] : 'Go' };
  const options = { format, read: { provider }, messages: [question()] } as const;

  it('a denied call gets a denial the model reads, its siblings run, every call is answered in call order', async () => {
    const log: string[] = [];
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const asked: ToolApprovalRequest[] = [];
    const approve = (request: ToolApprovalRequest): Observable<ToolApprovalDecision> => {
      asked.push(request);
      return of(request.call.name === 'delete_file' ? { type: 'deny', reason: 'not today' } : { type: 'approve' });
    };
    const items = await lastValueFrom(toolLoop(requestOf(sent), makeTools(log), { ...options, approve }).pipe(toArray()));
    expect(items.at(-1)?.type).toBe('done');
    expect(asked.map((r) => [r.step, r.call.name, r.call.arguments])).toEqual([
      [0, 'delete_file', { path: '/tmp/a' }],
      [0, 'pay', { amount: 500 }],
    ]);
    expect(items.filter((i) => i.type === 'tool-approval').map((i) => (i.type === 'tool-approval' ? i.request.call.name : ''))).toEqual(['delete_file', 'pay']);
    expect(log.sort()).toEqual(['pay 500', 'weather Paris']);
    const denial = items.find((i) => i.type === 'tool-result' && !i.result.success);
    expect(denial).toMatchObject({
      result: { success: false, error: { name: 'ToolStreamError', code: 'tool-denied', reason: 'not today', toolCall: { name: 'delete_file' } }, call: { name: 'delete_file' } },
    });
    // The second request: every call of the turn answered, in call order; the denial says so.
    const { calls, results } = answered(format, sent[1] ?? []);
    const ids = byNames(format) ? ['delete_file', 'get_weather', 'pay'] : ['call_del', 'call_w', 'call_pay'];
    expect(calls).toEqual(ids);
    expect(results.map((r) => r[0])).toEqual(ids);
    const [, text, marked] = results[0] ?? ['', '', false];
    expect(text).toContain('denied the call: not today');
    expect(marked).toBe(MARKS_ERRORS.has(format));
    expect(results[1]?.[1]).toContain('sunny in Paris');
  });

  it('approved with edited arguments: validated again, run with them and written back as what ran; invalid edits are invalid-arguments', async () => {
    const log: string[] = [];
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const approve = (request: ToolApprovalRequest): Observable<ToolApprovalDecision> =>
      of(request.call.name === 'delete_file' ? { type: 'approve', arguments: { path: '/etc/passwd' } } : { type: 'approve', arguments: { amount: 50 } });
    const items = await lastValueFrom(toolLoop(requestOf(sent), makeTools(log), { ...options, approve }).pipe(toArray()));
    expect(items.at(-1)?.type).toBe('done');
    expect(log.sort()).toEqual(['pay 50', 'weather Paris']);
    const results = items.flatMap((i) => (i.type === 'tool-result' ? [i.result] : []));
    expect(results.find((r) => !r.success)).toMatchObject({ error: { code: 'invalid-arguments', value: { path: '/etc/passwd' } } });
    const written = JSON.stringify(sent[1]);
    expect(written).toContain('50');
    expect(written).not.toContain('500');
    expect(answered(format, sent[1] ?? []).results).toHaveLength(3);
  });

  it('no decision: the other calls run, the step ends paused; the checkpoint, through JSON, resumes with the decisions and the loop finishes', async () => {
    const log: string[] = [];
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const first = await lastValueFrom(toolLoop(requestOf(sent), makeTools(log), options).pipe(toArray()));
    expect(first.map((i) => i.type).filter((t) => t !== 'event')).toEqual(['step-start', 'tool-call', 'tool-approval', 'tool-call', 'tool-result', 'tool-call', 'tool-approval', 'paused']);
    expect(log).toEqual(['weather Paris']);
    const paused = first.at(-1);
    if (paused?.type !== 'paused') throw new Error('not paused');
    const checkpoint = JSON.parse(JSON.stringify(paused.checkpoint)) as ToolLoopCheckpoint;
    expect(checkpoint.pending.map((c) => c.name)).toEqual(['delete_file', 'pay']);
    expect(sent).toHaveLength(1);

    const approve = (request: ToolApprovalRequest): Observable<ToolApprovalDecision> => of(request.call.name === 'pay' ? { type: 'deny' } : { type: 'approve' });
    const resumed = await lastValueFrom(toolLoop(requestOf(sent), makeTools(log), { resume: checkpoint, approve, read: { provider } }).pipe(toArray()));
    expect(resumed.map((i) => i.type).filter((t) => t !== 'event')).toEqual(['tool-approval', 'tool-result', 'tool-approval', 'tool-result', 'step-end', 'step-start', 'step-end', 'done']);
    expect(log).toEqual(['weather Paris', 'delete /tmp/a']);
    const { calls, results } = answered(format, sent[1] ?? []);
    expect(results.map((r) => r[0])).toEqual(calls);
    expect(calls).toHaveLength(3);
    expect(results[1]?.[1]).toContain('sunny in Paris');
    expect(results[2]?.[1]).toContain('the user denied the call');
  });
});

describe('approvals: hostile and faulty', () => {
  const oneCall = [openaiChunk({ toolCalls: [{ index: 0, id: 'call_del', name: 'delete_file', arguments: '{"path":"/tmp/a"}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('');
  const request = (_m: ReadonlyArray<LoopMessage>, step: number): Observable<string> => from([step === 0 ? oneCall : ANSWER]);

  it('a decision that never comes: unsubscribing cancels it (the tool never runs), 100 times over, nothing left subscribed', async () => {
    const log: string[] = [];
    let open = 0;
    const approve = (): Observable<ToolApprovalDecision> =>
      new Observable<ToolApprovalDecision>(() => {
        open++;
        return () => open--;
      });
    for (let i = 0; i < 100; i++) {
      const items: ToolLoopItem[] = [];
      const subscription = toolLoop(request, makeTools(log), { approve }).subscribe((item) => items.push(item));
      await new Promise((r) => setTimeout(r, 0));
      expect(items.map((item) => item.type)).toContain('tool-approval');
      expect(items.map((item) => item.type)).not.toContain('tool-result');
      subscription.unsubscribe();
    }
    expect(open).toBe(0);
    expect(log).toEqual([]);
  });

  it('an approval decided later arrives while the step waits; an error from approve ends the loop after the running tools', async () => {
    const decisions = new Subject<ToolApprovalDecision>();
    const items: ToolLoopItem[] = [];
    const done = lastValueFrom(toolLoop(request, makeTools([]), { approve: () => decisions }).pipe(toArray())).then((all) => items.push(...all));
    await new Promise((r) => setTimeout(r, 5));
    decisions.next({ type: 'approve' });
    await done;
    expect(items.at(-1)?.type).toBe('done');
    const failing = toolLoop(request, makeTools([]), {
      approve: () => {
        throw new Error('approval service down');
      },
    });
    await expect(lastValueFrom(failing)).rejects.toThrow('approval service down');
  });

  it('needsApproval: a throwing function asks; invalid arguments ask nothing (runTools reports them); a decision of the wrong shape denies', async () => {
    const guarded = {
      t: tool({
        schema: z.object({ n: z.number() }),
        needsApproval: () => {
          throw new Error('policy unknown');
        },
        execute: () => 'ran',
      }),
    };
    const call = (args: string) => [openaiChunk({ toolCalls: [{ index: 0, id: 'c', name: 't', arguments: args }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('');
    const req = (args: string) => (_m: ReadonlyArray<LoopMessage>, step: number) => from([step === 0 ? call(args) : ANSWER]);
    const asked: string[] = [];
    const wrong = (r: ToolApprovalRequest) => (asked.push(r.call.id), of({ type: 'yes' } as unknown as ToolApprovalDecision));
    const items = await lastValueFrom(toolLoop(req('{"n":1}'), guarded, { approve: wrong }).pipe(toArray()));
    expect(asked).toEqual(['c']);
    expect(items.find((i) => i.type === 'tool-result')).toMatchObject({ result: { success: false, error: { code: 'tool-denied' } } });
    const invalid = await lastValueFrom(toolLoop(req('{"n":"x"}'), guarded, { approve: wrong }).pipe(toArray()));
    expect(asked).toEqual(['c']);
    expect(invalid.find((i) => i.type === 'tool-result')).toMatchObject({ result: { success: false, error: { code: 'invalid-arguments' } } });
  });

  it('a resumed call is not asked needsApproval again (openai/openai-agents-js#1418), and a missing decision never runs it (pydantic/pydantic-ai#8060)', async () => {
    let asked = 0;
    const log: string[] = [];
    const guarded = {
      delete_file: tool({
        schema: z.object({ path: z.string() }),
        needsApproval: () => (asked++, asked === 1),
        execute: ({ path }) => (log.push(path), 'deleted'),
      }),
    };
    const first = await lastValueFrom(toolLoop(request, guarded).pipe(toArray()));
    const paused = first.at(-1);
    if (paused?.type !== 'paused') throw new Error('not paused');
    const checkpoint = JSON.parse(JSON.stringify(paused.checkpoint)) as ToolLoopCheckpoint;
    // No decision again (approve completes empty): paused again, the tool not run, needsApproval not asked.
    const again = await lastValueFrom(toolLoop(request, guarded, { resume: checkpoint, approve: () => [] }).pipe(toArray()));
    expect(again.map((i) => i.type)).toEqual(['tool-approval', 'paused']);
    expect(asked).toBe(1);
    expect(log).toEqual([]);
    const denied = await lastValueFrom(toolLoop(request, guarded, { resume: checkpoint, approve: () => of({ type: 'deny' } as const) }).pipe(toArray()));
    expect(denied.at(-1)?.type).toBe('done');
    expect(asked).toBe(1);
    expect(log).toEqual([]);
  });

  it('a denial is told apart from a tool failure: its own code, no cause, and the reason kept through a resume (openai/openai-agents-python#2660, vercel/eve#312)', async () => {
    const first = await lastValueFrom(toolLoop(request, makeTools([])).pipe(toArray()));
    const paused = first.at(-1);
    if (paused?.type !== 'paused') throw new Error('not paused');
    const items = await lastValueFrom(
      toolLoop(request, makeTools([]), { resume: JSON.parse(JSON.stringify(paused.checkpoint)) as ToolLoopCheckpoint, approve: () => of({ type: 'deny', reason: 'ask finance first' } as const) }).pipe(
        toArray(),
      ),
    );
    const result = items.find((i) => i.type === 'tool-result');
    expect(result).toMatchObject({
      result: { success: false, error: { code: 'tool-denied', reason: 'ask finance first', message: 'Tool delete_file (call_del) was not run: the user denied the call: ask finance first' } },
    });
    if (result?.type === 'tool-result' && !result.result.success) expect(result.result.error.cause).toBeUndefined();
  });

  it('a sibling that failed before the pause is written back with its own error after the resume', async () => {
    const two = [
      openaiChunk({ toolCalls: [{ index: 0, id: 'call_del', name: 'delete_file', arguments: '{"path":"/tmp/a"}' }] }),
      openaiChunk({ toolCalls: [{ index: 1, id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' }] }),
      openaiChunk({ finishReason: 'tool_calls' }),
      openaiDone(),
    ].join('');
    const sent: Array<ReadonlyArray<LoopMessage>> = [];
    const req = (m: ReadonlyArray<LoopMessage>, step: number) => (sent.push(m), from([step === 0 ? two : ANSWER]));
    const failing = {
      ...makeTools([]),
      get_weather: tool({
        schema: z.object({ city: z.string() }),
        execute: (): string => {
          throw new Error('weather service down');
        },
      }),
    };
    const paused = (await lastValueFrom(toolLoop(req, failing).pipe(toArray()))).at(-1);
    if (paused?.type !== 'paused') throw new Error('not paused');
    const done = await lastValueFrom(
      toolLoop(req, failing, { resume: JSON.parse(JSON.stringify(paused.checkpoint)) as ToolLoopCheckpoint, approve: () => of({ type: 'approve' } as const) }).pipe(toArray()),
    );
    expect(done.at(-1)?.type).toBe('done');
    const { calls, results } = answered('openai-chat', sent[1] ?? []);
    expect(calls).toEqual(['call_del', 'call_w']);
    expect(results).toEqual([
      ['call_del', 'deleted /tmp/a', false],
      ['call_w', 'Tool get_weather (call_w) failed: weather service down', false],
    ]);
  });

  it('options: needsApproval of the wrong kind, approve not a function and a resume that is no checkpoint are invalid-option at once', () => {
    expect(() => tool({ needsApproval: 'yes' as unknown as boolean, execute: () => 1 })).toThrow(expect.objectContaining({ code: 'invalid-option' }));
    expect(() => toolLoop(request, {}, { approve: 1 as never })).toThrow(expect.objectContaining({ code: 'invalid-option' }));
    expect(() => toolLoop(request, {}, { resume: { step: 0 } as never })).toThrow(expect.objectContaining({ code: 'invalid-option' }));
  });
});
