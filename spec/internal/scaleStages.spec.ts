/**
 * What the server-scale changes (issue 17) must keep: `stageOperator()` still lets the source's end
 * reach the subscriber when a stage swallows it, a synchronous source still stops at `take(1)`,
 * `readToolCalls()` built lazily still fails at subscription on an unsupported provider, and the
 * tracker's `apply()` reports what `delta()` does without the step object.
 */
import { NEVER, Observable, Subject, take, throwError, toArray, lastValueFrom, of, type Observer } from 'rxjs';
import { openaiChat, readStreamEvents, readToolCalls, type ToolCallDeltaEvent } from 'rxjs-tool-calls';
import { stageOperator, ToolCallTracker } from 'rxjs-tool-calls/advanced';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const swallow: Observer<unknown> = { next() {}, error() {}, complete() {} };
const delta = (fields: Partial<ToolCallDeltaEvent>): ToolCallDeltaEvent => ({ type: 'tool-call-delta', choice: 0, argumentsDelta: '', ...fields });

describe('stageOperator() with one linked subscriber', () => {
  it('passes the source failure on after a stage that ignored it', () => {
    const error = new Error('cut');
    const seen: unknown[] = [];
    throwError(() => error)
      .pipe(stageOperator(() => swallow))
      .subscribe({ error: (e: unknown) => seen.push(e) });
    expect(seen).toEqual([error]);
  });

  it('passes the source completion on after a stage that ignored it', () => {
    let completed = false;
    of(1, 2)
      .pipe(stageOperator(() => swallow))
      .subscribe({ complete: () => (completed = true) });
    expect(completed).toBe(true);
  });

  it('stops an endless synchronous source when the consumer takes one value', () => {
    let emitted = 0;
    const endless = new Observable<number>((subscriber) => {
      while (!subscriber.closed && emitted < 1_000_000) subscriber.next(emitted++);
    });
    const values: number[] = [];
    endless
      .pipe(
        stageOperator<number, number>((out) => ({ next: (v) => out.next(v), error: (e) => out.error(e), complete: () => out.complete() })),
        take(1),
      )
      .subscribe((v) => values.push(v));
    expect(values).toEqual([0]);
    expect(emitted).toBe(1);
  });
});

describe('readToolCalls() built at the first chunk', () => {
  it('fails at subscription for an unsupported provider, before any chunk', () => {
    const seen: unknown[] = [];
    NEVER.pipe(readToolCalls({ provider: 'no-such-format' as never })).subscribe({ error: (e: unknown) => seen.push(e) });
    NEVER.pipe(readStreamEvents({ provider: 'no-such-format' as never })).subscribe({ error: (e: unknown) => seen.push(e) });
    expect(seen).toHaveLength(2);
    expect(seen.every((e) => e instanceof TypeError && /no-such-format format is not supported/.test(e.message))).toBe(true);
  });

  it('reads a stream whose chunks arrive after subscription, named or auto-detected', async () => {
    const wire = [
      openaiChunk({ toolCalls: [{ index: 0, id: 'call_1', name: 'f', arguments: '{"a"' }] }),
      openaiChunk({ toolCalls: [{ index: 0, arguments: ':1}' }] }),
      openaiChunk({ finishReason: 'tool_calls' }),
      openaiDone(),
    ];
    for (const provider of ['openai-chat', 'auto'] as const) {
      const source = new Subject<string>();
      const results = lastValueFrom(source.pipe(readToolCalls({ provider }), toArray()));
      for (const chunk of wire) source.next(chunk);
      source.complete();
      expect(await results).toEqual([{ success: true, data: expect.objectContaining({ id: 'call_1', name: 'f', arguments: { a: 1 } }) }]);
    }
  });

  it('ends with the error of a chain that fails to build at the first chunk, and unsubscribes the source', () => {
    const failing = {
      ...openaiChat,
      format: 'failing-chat',
      warmup: undefined,
      decoder: () => {
        throw new RangeError('no decoder');
      },
    };
    for (const end of ['chunk', 'complete', 'error'] as const) {
      const source = new Subject<string>();
      const seen: unknown[] = [];
      source.pipe(readToolCalls({ provider: failing as never })).subscribe({ next: (v) => seen.push(v), error: (e: unknown) => seen.push(e), complete: () => seen.push('complete') });
      expect(source.observed).toBe(true); // nothing is built before the first notification
      if (end === 'chunk') source.next(openaiChunk({ content: 'x' }));
      else if (end === 'complete') source.complete();
      else source.error(new Error('cut'));
      expect(seen).toEqual([expect.objectContaining({ message: 'no decoder' })]);
      expect(source.observed).toBe(false);
      source.next(openaiDone()); // ignored
      expect(seen).toHaveLength(1);
    }
  });

  it('completes an empty source with the same errors as before (auto: unknown-format)', async () => {
    await expect(lastValueFrom(of<string>().pipe(readToolCalls(), toArray()))).rejects.toMatchObject({ code: 'unknown-format' });
  });
});

describe('ToolCallTracker.apply()', () => {
  it('returns the call, open, then closed on the fragment that passes maxArgumentsSize, then undefined', () => {
    const tracker = new ToolCallTracker({ maxArgumentsSize: 4 });
    const first = tracker.apply(delta({ index: 0, id: 'a', name: 'f', argumentsDelta: '{"' }));
    expect(first?.ending).toBeUndefined();
    const second = tracker.apply(delta({ index: 0, argumentsDelta: 'x":1}' }));
    expect(second).toBe(first);
    expect(second?.ending).toEqual({ kind: 'too-large', limit: 4 });
    expect(tracker.apply(delta({ index: 0, argumentsDelta: 'more' }))).toBeUndefined();
  });

  it('leaves delta() reporting created and overflowed as before', () => {
    const tracker = new ToolCallTracker({ maxArgumentsSize: 4 });
    expect(tracker.delta(delta({ index: 0, id: 'a', argumentsDelta: '{' }))).toMatchObject({ created: true, overflowed: false });
    expect(tracker.delta(delta({ index: 0, argumentsDelta: '}' }))).toMatchObject({ created: false, overflowed: false });
    expect(tracker.delta(delta({ index: 1, id: 'b', argumentsDelta: '12345' }))).toMatchObject({ created: true, overflowed: true });
  });

  it('de-duplicates wire ids against generated ids and earlier suffixes, with one id table', () => {
    const tracker = new ToolCallTracker({ generateId: () => 'x' });
    const id = (choice: number, fields: Partial<ToolCallDeltaEvent>) => tracker.apply(delta({ choice, ...fields }))?.id;
    const ids = [
      id(0, { id: 'x_2', name: 'f' }), // a wire id that looks like a suffix
      id(0, { name: 'g' }), // generated: 'x'
      id(0, { id: 'x', name: 'h' }), // 'x' and 'x_2' are taken
      id(1, { id: 'x', name: 'i' }), // another choice: a new call, the next suffix
      id(1, { id: 'x_2', name: 'j' }),
      id(1, { name: 'k' }), // the generator repeats itself: kept as it is (as before)
      id(2, { id: 'x_3', name: 'l' }),
    ];
    // The same as main before the change (its Map of suffixes and Set of ids), checked on both builds.
    expect(ids).toEqual(['x_2', 'x', 'x_3', 'x_4', 'x_2_2', 'x', 'x_3_2']);
  });
});
