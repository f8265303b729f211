import { map } from 'rxjs';
import { readStreamEvents, readToolCalls } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { testScheduler } from '../helpers/marbles';

const ts = () => testScheduler();
const a0 = openaiChunk({ toolCalls: [{ index: 0, id: 'A', name: 'f', arguments: '{"x"' }] });
const b0 = openaiChunk({ toolCalls: [{ index: 1, id: 'B', name: 'g', arguments: '{}' }] });
const a1 = openaiChunk({ toolCalls: [{ index: 0, arguments: ':1}' }] });
const fin = openaiChunk({ finishReason: 'tool_calls' });

describe('readToolCalls()', () => {
  it('marble: bytes split anywhere in, one result per call at [DONE]', () => {
    ts().run(({ cold, expectObservable }) => {
      // the finish chunk is split across two network chunks
      const src = cold('-a-b-c-d-e-f----|', { a: a0, b: b0, c: a1, d: fin.slice(0, 9), e: fin.slice(9), f: openaiDone() });
      expectObservable(
        src.pipe(
          readToolCalls(),
          map((r) => (r.success ? `${r.data.id}:${JSON.stringify(r.data.arguments)}` : r.error.code)),
        ),
      ).toBe('-----------(xy)-|', {
        x: 'A:{"x":1}',
        y: 'B:{}',
      });
    });
  });

  it('marble: a cut connection gives incomplete calls, then truncated', () => {
    ts().run(({ cold, expectObservable }) => {
      const src = cold('-a-b-|', { a: a0, b: b0 });
      expectObservable(
        src.pipe(
          readToolCalls(),
          map((r) => (r.success ? r.data.id : `${r.error.code}:${r.error.toolCall.id}`)),
        ),
      ).toBe('-----(xy#)', { x: 'incomplete:A', y: 'incomplete:B' }, expect.objectContaining({ code: 'truncated' }));
    });
  });

  it('marble: early unsubscribe unsubscribes the byte source', () => {
    ts().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-c-d|', { a: a0, b: b0, c: a1, d: fin });
      expectObservable(src.pipe(readToolCalls()), '--!').toBe('--');
      expectSubscriptions(src.subscriptions).toBe('^-!');
    });
  });
});

describe('readStreamEvents()', () => {
  it('marble: events in time, auto-detected', () => {
    ts().run(({ cold, expectObservable }) => {
      const src = cold('-a-----b---|', { a: openaiChunk({ content: 'hi' }), b: openaiChunk({ finishReason: 'stop' }) + openaiDone() });
      expectObservable(
        src.pipe(
          readStreamEvents(),
          map((e) => e.type),
        ),
      ).toBe('-(mt)--(fd)|', { m: 'metadata', t: 'text-delta', f: 'finish', d: 'done' });
    });
  });

  it('marble: an empty stream is an unknown format', () => {
    ts().run(({ cold, expectObservable }) => {
      expectObservable(cold('--|').pipe(readStreamEvents())).toBe('--#', undefined, expect.objectContaining({ code: 'unknown-format' }));
    });
  });
});
