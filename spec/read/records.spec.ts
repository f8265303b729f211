/**
 * The fused readers on a stream of records framed already (what `fromWebSocket()` gives): every
 * recorded provider stream, read as its SSE records, gives the same results, events and errors as
 * its bytes; the composed operators agree; the kinds of input do not mix; auto-detection shows the
 * records it could not recognise.
 */
import { from, lastValueFrom, materialize, Observable, toArray, type ObservableNotification } from 'rxjs';
import { autoDetect, decodeSse, isToolStreamError, readStreamEvents, readToolCalls, toolCalls, type FramedRecord } from 'rxjs-tool-calls';
import { loadFixtures } from '../helpers/fixtures';
import { plainValue } from '../helpers/plain';

const fixtures = loadFixtures();

/** What a stream gave, comparable: values made plain, the error by its code. */
async function outcome<T>(source: Observable<T>): Promise<unknown[]> {
  const notifications = await lastValueFrom(source.pipe(materialize(), toArray()));
  return notifications.map((n: ObservableNotification<T>) =>
    n.kind === 'N' ? plainValue(n.value) : n.kind === 'E' ? { error: isToolStreamError(n.error) ? n.error.code : String(n.error) } : 'complete',
  );
}

/** The SSE records of a recording, as `decodeSse()` frames them. */
function recordsOf(bytes: Uint8Array): Promise<FramedRecord[]> {
  return lastValueFrom(from([bytes]).pipe(decodeSse(), toArray()));
}

describe('readToolCalls() and readStreamEvents() on records', () => {
  it.each(fixtures.map((f) => [f.name, f] as const))('%s: the records give what the bytes give', async (_name, fixture) => {
    const records = await recordsOf(fixture.bytes);
    expect(records.length).toBeGreaterThan(0);
    const fromBytes = await outcome(from([fixture.bytes]).pipe(readToolCalls()));
    expect(await outcome(from(records).pipe(readToolCalls()))).toEqual(fromBytes);
    // The composed operators on the same records.
    expect(await outcome(from(records).pipe(autoDetect(), toolCalls()))).toEqual(fromBytes);
    // Every event, too.
    expect(await outcome(from(records).pipe(readStreamEvents()))).toEqual(await outcome(from([fixture.bytes]).pipe(readStreamEvents())));
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s: the limits end the records where they end the bytes', async (_name, fixture) => {
    const records = await recordsOf(fixture.bytes);
    for (const limits of [{ maxToolCalls: 1 }, { maxArgumentsSize: 8 }]) {
      expect(await outcome(from(records).pipe(readToolCalls(limits)))).toEqual(await outcome(from([fixture.bytes]).pipe(readToolCalls(limits))));
    }
  });

  it('a named format reads records, and a whole response as its first record', async () => {
    const whole: FramedRecord = {
      event: 'message',
      data: JSON.stringify({ object: 'response', id: 'resp_1', status: 'completed', output: [{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":1}' }] }),
      id: undefined,
      retry: undefined,
    };
    const results = await lastValueFrom(from([whole]).pipe(readToolCalls({ provider: 'openai-responses' }), toArray()));
    expect(results).toEqual([{ success: true, data: expect.objectContaining({ id: 'c1', name: 'f', arguments: { a: 1 } }) }]);
  });

  it('auto-detection of records of no known format shows them in unknown-format', async () => {
    const record = (data: string, event = 'message'): FramedRecord => ({ event, data, id: undefined, retry: undefined });
    const errorOf = async (records: FramedRecord[]) => {
      try {
        await lastValueFrom(from(records).pipe(readToolCalls(), toArray()));
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(await errorOf([record('{"hello":1}')])).toMatchObject({ code: 'unknown-format', start: 'data: {"hello":1}' });
    // Records that say nothing (keep-alives), then the end: what was kept is shown.
    expect(await errorOf([record('', 'ping'), record('not json', 'tick')])).toMatchObject({ code: 'unknown-format', start: 'event: ping\ndata: \n\nevent: tick\ndata: not json\n\n' });
  });

  it('a stream is records or bytes, judged by its first value: mixing them ends it with invalid-event', async () => {
    const record: FramedRecord = { event: 'message', data: '{"type":"response.created","response":{"id":"r"}}', id: undefined, retry: undefined };
    const mixed = [
      new Observable<Uint8Array | string | FramedRecord>((s) => {
        s.next(record);
        s.next('data: {}\n\n');
        s.complete();
      }),
      new Observable<Uint8Array | string | FramedRecord>((s) => {
        s.next('event: response.created\ndata: {"type":"response.created","response":{"id":"r"}}\n\n');
        s.next(record);
        s.complete();
      }),
    ];
    for (const source of mixed) {
      const seen = await outcome(source.pipe(readStreamEvents()));
      expect(seen.at(-1)).toEqual({ error: 'invalid-event' });
    }
  });

  it('a source failure of a stream of records goes on as it is, after the open calls are reported', async () => {
    const cut = new Observable<FramedRecord>((s) => {
      s.next({ event: 'message', data: '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{\\"a\\""}}]}}]}', id: undefined, retry: undefined });
      s.error(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    });
    const seen = await outcome(cut.pipe(readToolCalls()));
    expect(seen).toEqual([{ err: 'incomplete', id: 'c', name: 'f', raw: '{"a"', reason: 'connection-lost' }, { error: 'connection-lost' }]);
  });
});
