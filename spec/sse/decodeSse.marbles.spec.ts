/** Marble tests for `decodeSse()`: timing, per-subscription state and the standard operator cases. */
import { type TestScheduler } from 'rxjs/testing';
import { decodeSse, ToolStreamError } from 'rxjs-tool-calls';
import { sse } from '../helpers/sse';
import { standardCases } from '../helpers/standardCases';
import { testScheduler } from '../helpers/marbles';

function scheduler(): TestScheduler {
  return testScheduler();
}

describe('decodeSse (marbles)', () => {
  standardCases(() => decodeSse(), ['data: a\n', '\n']);

  it('emits an event when its blank line arrives', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b--c-d-|', { a: 'data: {"x"', b: ':1}\n\nda', c: 'ta: [DONE]\n', d: '\n' });
      expectObservable(source.pipe(decodeSse())).toBe('---X----D-|', { X: sse('{"x":1}'), D: sse('[DONE]') });
    });
  });

  it('emits several events of one chunk in the same frame', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('--a------|', { a: 'data: 1\n\ndata: 2\n\nevent: e\ndata: 3\n\n' });
      expectObservable(source.pipe(decodeSse())).toBe('--(xyz)--|', { x: sse('1'), y: sse('2'), z: sse('3', { event: 'e' }) });
    });
  });

  it('keeps one parser state per subscription', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b-|', { a: 'id: 1\ndata: x\n\ndata: y', b: '\n\n' });
      const decoded = source.pipe(decodeSse());
      const expected = { x: sse('x', { id: '1' }), y: sse('y', { id: '1' }) };
      expectObservable(decoded).toBe('-x-y-|', expected);
      expectObservable(decoded).toBe('-x-y-|', expected);
    });
  });

  it('ends with event-too-large and unsubscribes the source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-|', { a: 'data: 1\n\n', b: 'data: 12345', c: '67890' });
      expectObservable(source.pipe(decodeSse({ maxEventSize: 12 }))).toBe('-x---#', { x: sse('1') }, new ToolStreamError('event-too-large', { limit: 12, byteOffset: 9, start: 'data: 1234567' }));
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('drops an unterminated event when the source completes', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-|', { a: 'data: 1\n\ndata: 2\n' });
      expectObservable(source.pipe(decodeSse())).toBe('-x-|', { x: sse('1') });
    });
  });
});
