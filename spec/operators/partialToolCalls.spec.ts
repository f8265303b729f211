import fc from 'fast-check';
import { from, lastValueFrom, map, toArray } from 'rxjs';
import { z } from 'zod';
import { isSettled, type PartialToolCall, partialToolCalls, type StreamEvent, type ToolSchemas } from 'rxjs-tool-calls';
import { isPrefixValue } from '../helpers/isPrefixValue';
import { testScheduler } from '../helpers/marbles';

const open = (index: number, id: string, name: string): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, id, name, argumentsDelta: '' });
const frag = (index: number, argumentsDelta: string): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, argumentsDelta });
const finish: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' };

function collect(events: StreamEvent[]): PartialToolCall[] {
  let out: PartialToolCall[] = [];
  from(events)
    .pipe(partialToolCalls({ generateId: () => 'gen' }), toArray())
    .subscribe((v) => (out = v));
  return out;
}

describe('partialToolCalls()', () => {
  it('emits growing values, then the final value with the result', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const src = cold<StreamEvent>('-o-a-b-c-d-F|', { o: open(0, 'c1', 'get_weather'), a: frag(0, '{"ci'), b: frag(0, 'ty": "San'), c: frag(0, ' Fran'), d: frag(0, 'cisco"}'), F: finish });
      const view = src.pipe(
        partialToolCalls(),
        map((p) => ({ args: p.arguments, done: p.result !== undefined })),
      );
      expectObservable(view).toBe('-p---q-r-s-R|', {
        p: { args: {}, done: false },
        q: { args: { city: 'San' }, done: false },
        r: { args: { city: 'San Fran' }, done: false },
        s: { args: { city: 'San Francisco' }, done: false },
        R: { args: { city: 'San Francisco' }, done: true },
      });
    });
  });

  it('a call that turns out malformed: partial values stop, the result is the typed error', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const src = cold<StreamEvent>('-o-a-x-y-F|', { o: open(0, 'c1', 'f'), a: frag(0, '{"a": "b'), x: frag(0, '" x'), y: frag(0, '}'), F: finish });
      const view = src.pipe(
        partialToolCalls(),
        map((p) => (p.result === undefined ? p.arguments : { code: p.result.success ? 'ok' : p.result.error.code, last: p.arguments })),
      );
      expectObservable(view).toBe('-p-q-----E|', { p: {}, q: { a: 'b' }, E: { code: 'malformed-arguments', last: { a: 'b' } } });
    });
  });

  it('keeps parallel calls apart and never shows half numbers or unfinished keys', () => {
    const out = collect([open(0, 'a', 'f'), open(1, 'b', 'g'), frag(0, '{"n": 12'), frag(1, '{"lo'), frag(0, '3, "x'), frag(1, 'ng": tr'), frag(0, '": 1}'), frag(1, 'ue}'), finish]);
    const byId = (id: string) => out.filter((p) => p.id === id).map((p) => p.arguments);
    expect(byId('a')).toEqual([{}, { n: 123 }, { n: 123, x: 1 }, { n: 123, x: 1 }]);
    expect(byId('b')).toEqual([{}, { long: true }, { long: true }]);
  });

  it('reports which fields are settled', () => {
    const out = collect([open(0, 'a', 'f'), frag(0, '{"city": "Par'), frag(0, 'is", "days": [1, 2'), frag(0, ']}'), finish]);
    const [, first, second] = out;
    expect(isSettled(first!, ['city'])).toBe(false);
    expect(isSettled(second!, ['city'])).toBe(true);
    expect(isSettled(second!, ['days'])).toBe(false);
    expect(isSettled(second!, ['days', 0])).toBe(true);
    expect(isSettled(second!, [])).toBe(false);
    expect(isSettled(out.at(-1)!, ['days'])).toBe(true);
    expect(isSettled(out.at(-1)!, [])).toBe(true);
  });

  it('starts over on a replace delta (whole arguments re-sent)', () => {
    const replace: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"q":"full"}', replace: true };
    const out = collect([open(0, 'a', 'f'), frag(0, '{"q":"fu'), replace, finish]);
    expect(out.map((p) => p.arguments)).toEqual([{}, { q: 'fu' }, { q: 'full' }, { q: 'full' }]);
  });

  it("snapshots: 'live' emits at the same moments, with one value mutated in place", () => {
    const events = [open(0, 'a', 'f'), frag(0, '{"city": "Par'), frag(0, 'is", "days": [1'), frag(0, ', 2]}'), finish];
    const immutable = collect(events);
    const shown: string[] = [];
    from(events)
      .pipe(partialToolCalls({ snapshots: 'live' }))
      .subscribe((p) => shown.push(JSON.stringify(p.arguments)));
    expect(shown).toEqual(immutable.map((p) => JSON.stringify(p.arguments)));
  });

  it('property: every value is a prefix of the final one; the last equals JSON.parse of the whole', () => {
    const object = fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
    fc.assert(
      fc.property(object, fc.array(fc.nat(), { maxLength: 30 }), fc.boolean(), (value, cuts, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const pieces: string[] = [];
        let prev = 0;
        for (const p of [...points, text.length]) {
          pieces.push(text.slice(prev, p));
          prev = p;
        }
        const out = collect([open(0, 'a', 'f'), ...pieces.map((p) => frag(0, p)), finish]);
        const final = JSON.parse(text) as unknown;
        for (const p of out) expect(isPrefixValue(p.arguments, final)).toBe(true);
        expect(out.at(-1)?.arguments).toEqual(final);
        expect(out.at(-1)?.result?.success).toBe(true);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe('partialToolCalls({ tools })', () => {
  const tools = { get_weather: z.object({ city: z.string(), days: z.number().default(1) }) };
  const run = (events: StreamEvent[], schemas: ToolSchemas = tools): Array<{ args: unknown; result?: string }> => {
    let out: Array<{ args: unknown; result?: string }> = [];
    from(events)
      .pipe(
        partialToolCalls({ tools: schemas }),
        map((p) => (p.result === undefined ? { args: p.arguments } : { args: p.arguments, result: p.result.success ? `ok ${JSON.stringify(p.result.data.arguments)}` : p.result.error.code })),
        toArray(),
      )
      .subscribe((v) => (out = v));
    return out;
  };

  it('the last value is validated: arguments and result are the schema output (defaults applied)', () => {
    expect(run([open(0, 'c1', 'get_weather'), frag(0, '{"city": "Os'), frag(0, 'lo"}'), finish])).toEqual([
      { args: {} },
      { args: { city: 'Os' } },
      { args: { city: 'Oslo' } },
      { args: { city: 'Oslo', days: 1 }, result: 'ok {"city":"Oslo","days":1}' },
    ]);
  });

  it('invalid arguments and unknown tools end with their typed error; partial values are kept as parsed', () => {
    expect(run([open(0, 'c1', 'get_weather'), frag(0, '{"city": 5}'), open(1, 'c2', 'nope'), frag(1, '{}'), finish])).toEqual([
      { args: {} },
      { args: { city: 5 } },
      { args: {} },
      { args: { city: 5 }, result: 'invalid-arguments' },
      { args: {}, result: 'unknown-tool' },
    ]);
  });

  it('an asynchronous validator: the last value waits for it', async () => {
    const slow: ToolSchemas = {
      get_weather: { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => Promise.resolve({ value: { wrapped: value } }) } },
    };
    const values = await lastValueFrom(from([open(0, 'c1', 'get_weather'), frag(0, '{"a":1}'), finish]).pipe(partialToolCalls({ tools: slow }), toArray()));
    expect(values.at(-1)?.arguments).toEqual({ wrapped: { a: 1 } });
    expect(values.at(-1)?.result).toEqual({ success: true, data: expect.objectContaining({ arguments: { wrapped: { a: 1 } } }) });
  });
});
