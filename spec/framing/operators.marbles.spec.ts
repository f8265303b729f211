/** Marble tests for `decodeAwsEventStream()`, `decodeNdjson()` and `decodeJsonArray()`: timing, per-subscription state, typed errors and the standard operator cases. */
import { of } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { decodeAwsEventStream, decodeJsonArray, decodeNdjson, ToolStreamError } from 'rxjs-tool-calls';
import { awsEvent, concatBytes, message } from '../helpers/framing';
import { sse, testScheduler } from '../helpers/marbles';
import { standardCases } from '../helpers/standardCases';

function scheduler(): TestScheduler {
  return testScheduler();
}

const F = awsEvent('messageStart', { role: 'assistant' });
const G = awsEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } });
const FG = concatBytes([F, G]);

describe('decodeAwsEventStream (marbles)', () => {
  standardCases(() => decodeAwsEventStream(), [F.subarray(0, 20), F.subarray(20)]);

  it('emits a frame when its last byte arrives', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a------b-----c--|', { a: FG.subarray(0, 40), b: FG.subarray(40, F.length + 10), c: FG.subarray(F.length + 10) });
      expectObservable(source.pipe(decodeAwsEventStream())).toBe('--------F-----G--|', {
        F: sse('messageStart', { role: 'assistant' }),
        G: sse('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } }),
      });
    });
  });

  it('keeps one parser per subscription', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b---|', { a: FG.subarray(0, 5), b: FG.subarray(5) });
      const decoded = source.pipe(decodeAwsEventStream());
      const expected = { x: sse('messageStart', { role: 'assistant' }), y: sse('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } }) };
      expectObservable(decoded).toBe('---(xy)|', expected);
      expectObservable(decoded).toBe('---(xy)|', expected);
    });
  });

  it('ends with invalid-frame at a bad checksum and unsubscribes the source', () => {
    const bad = G.slice();
    bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 1;
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-|', { a: F, b: bad, c: F });
      const error = new ToolStreamError('invalid-frame', { framing: 'aws-event-stream', byteOffset: F.length, detail: expect.stringContaining('message checksum') as unknown as string });
      expectObservable(source.pipe(decodeAwsEventStream())).toBe('-x-#', { x: sse('messageStart', { role: 'assistant' }) }, error);
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('ends with truncated when the source completes inside a frame', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b|', { a: F, b: G.subarray(0, 30) });
      expectObservable(source.pipe(decodeAwsEventStream())).toBe('-x--#', { x: sse('messageStart', { role: 'assistant' }) }, expect.objectContaining({ code: 'truncated', byteOffset: F.length }));
    });
  });
});

describe('decodeNdjson (marbles)', () => {
  standardCases(() => decodeNdjson(), ['{"a":', '1}\n']);

  it('emits a line when its line end arrives, and the last one at completion', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a------b-------c--|', { a: '{"x":', b: '1}\r\n\n{"y"', c: ':2}' });
      expectObservable(source.pipe(decodeNdjson())).toBe('--------X----------(Y|)', { X: message('{"x":1}'), Y: message('{"y":2}') });
    });
  });

  it('ends with event-too-large and unsubscribes the source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-|', { a: '{}\n', b: '{"long":', c: '"value"}\n' });
      const error = new ToolStreamError('event-too-large', { limit: 12, byteOffset: 3, start: '{"long":"valu', framing: 'ndjson' });
      expectObservable(source.pipe(decodeNdjson({ maxLineSize: 12 }))).toBe('-x---#', { x: message('{}') }, error);
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });
});

describe('decodeJsonArray (marbles)', () => {
  standardCases(() => decodeJsonArray(), ['[{"a":', '1}]']);

  it('emits an element when its closing brace arrives', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a--------b-------c--|', { a: '[{"t":"[,"', b: '}\r\n,\r\n{"u"', c: ':1}]' });
      expectObservable(source.pipe(decodeJsonArray())).toBe('----------X-------Y--|', { X: message('{"t":"[,"}'), Y: message('{"u":1}') });
    });
  });

  it('ends with invalid-frame at the unexpected character and unsubscribes the source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a--b--c|', { a: '[{"x":1}', b: ',{"x":2} {', c: '}]' });
      const error = new ToolStreamError('invalid-frame', { framing: 'json-array', byteOffset: 17, detail: 'expected "," or "]" after an element, found "{"' });
      expectObservable(source.pipe(decodeJsonArray())).toBe('-A--(B#)', { A: message('{"x":1}'), B: message('{"x":2}') }, error);
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });
});

it("decodeNdjson's doc example prints what it says", () => {
  const seen: unknown[] = [];
  of('{"a":1}\n\n{"b"', ':2}')
    .pipe(decodeNdjson())
    .subscribe((e) => seen.push(e));
  expect(seen).toEqual([message('{"a":1}'), message('{"b":2}')]);
});
