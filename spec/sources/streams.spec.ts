import { Readable } from 'node:stream';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { fromAsyncIterable, fromReadableStream } from 'rxjs-tool-calls';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (chunks: ReadonlyArray<Uint8Array | string>): string => chunks.map((c) => (typeof c === 'string' ? c : new TextDecoder().decode(c))).join('');

function streamOf(chunks: string[], onCancel?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[i++];
      if (next === undefined) controller.close();
      else controller.enqueue(bytes(next));
    },
    cancel: () => onCancel?.(),
  });
}

describe('fromReadableStream', () => {
  it('emits every chunk in order and completes', async () => {
    const out = await lastValueFrom(fromReadableStream(streamOf(['a', 'b', 'c'])).pipe(toArray()));
    expect(out).toEqual([bytes('a'), bytes('b'), bytes('c')]);
  });

  it('turns a failing read into an error', async () => {
    const failure = new Error('network down');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('x'));
        controller.error(failure);
      },
    });
    await expect(lastValueFrom(fromReadableStream(stream))).rejects.toBe(failure);
  });

  it('cancels the reader and releases the lock on unsubscribe', async () => {
    const cancel = jest.fn();
    const stream = streamOf(['a', 'b', 'c', 'd'], cancel);
    expect(await firstValueFrom(fromReadableStream(stream))).toEqual(bytes('a'));
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(stream.locked).toBe(false);
  });

  it('refuses a second subscription to the same stream with a clear TypeError', async () => {
    const source = fromReadableStream(streamOf(['a']));
    await lastValueFrom(source);
    await expect(lastValueFrom(source)).rejects.toThrow(
      new TypeError(
        'This ReadableStream can be read only once and was already subscribed to; pass a factory (() => stream) to fromReadableStream for a source that can be subscribed to more than once',
      ),
    );
  });

  it('refuses a stream locked by another reader', async () => {
    const stream = streamOf(['a']);
    stream.getReader();
    await expect(lastValueFrom(fromReadableStream(stream))).rejects.toThrow(/locked to another reader/);
  });

  it('calls a factory once per subscription', async () => {
    const factory = jest.fn(() => streamOf(['a', 'b']));
    const source = fromReadableStream(factory);
    expect(text(await lastValueFrom(source.pipe(toArray())))).toBe('ab');
    expect(text(await lastValueFrom(source.pipe(toArray())))).toBe('ab');
    expect(factory).toHaveBeenCalledTimes(2);
  });

  it('reports a factory that throws as an error', async () => {
    await expect(
      lastValueFrom(
        fromReadableStream(() => {
          throw new Error('no stream');
        }),
      ),
    ).rejects.toThrow('no stream');
  });
});

describe('fromAsyncIterable', () => {
  async function* gen(values: string[], log: string[]): AsyncGenerator<string> {
    try {
      for (const v of values) yield v;
    } finally {
      log.push('finally');
    }
  }

  it('emits every value and completes', async () => {
    const log: string[] = [];
    expect(await lastValueFrom(fromAsyncIterable(gen(['a', 'b'], log)).pipe(toArray()))).toEqual(['a', 'b']);
    expect(log).toEqual(['finally']);
  });

  it('runs the generator finally block on unsubscribe', async () => {
    const log: string[] = [];
    expect(await firstValueFrom(fromAsyncIterable(gen(['a', 'b', 'c'], log)))).toBe('a');
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual(['finally']);
  });

  it('calls return() at once even while next() is pending, and aborts a controller', async () => {
    const returned = jest.fn(async () => ({ done: true as const, value: undefined }));
    const abort = jest.fn();
    let nextCalls = 0;
    const iterable = {
      controller: { abort },
      [Symbol.asyncIterator]: () => ({
        next: () => (nextCalls++ === 0 ? Promise.resolve({ done: false as const, value: bytes('a') }) : new Promise<IteratorResult<Uint8Array>>(() => undefined)),
        return: returned,
      }),
    };
    const subscription = fromAsyncIterable(iterable).subscribe();
    await new Promise((r) => setTimeout(r, 0));
    expect(nextCalls).toBe(2);
    subscription.unsubscribe();
    expect(returned).toHaveBeenCalledTimes(1);
    expect(abort).toHaveBeenCalledTimes(1);
  });

  it('does not call return() after the iterator finished', async () => {
    const returned = jest.fn();
    const iterable = { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true as const, value: undefined }), return: returned }) };
    await lastValueFrom(fromAsyncIterable<string>(iterable), { defaultValue: null });
    expect(returned).not.toHaveBeenCalled();
  });

  it('turns a throwing iterator into an error', async () => {
    async function* failing(): AsyncGenerator<string> {
      yield 'a';
      throw new Error('boom');
    }
    await expect(lastValueFrom(fromAsyncIterable(failing()))).rejects.toThrow('boom');
  });

  it('refuses a second subscription to the same generator; a factory works twice', async () => {
    const log: string[] = [];
    const once = fromAsyncIterable(gen(['a'], log));
    await lastValueFrom(once);
    await expect(lastValueFrom(once)).rejects.toThrow(/async generator can be read only once.*fromAsyncIterable/);
    const lazy = fromAsyncIterable(() => gen(['a'], log));
    expect(await lastValueFrom(lazy)).toBe('a');
    expect(await lastValueFrom(lazy)).toBe('a');
  });
});

describe('a Node.js Readable through fromAsyncIterable', () => {
  it('emits its Buffers (Uint8Arrays over the same bytes)', async () => {
    const out = await lastValueFrom(fromAsyncIterable(Readable.from([Buffer.from('da'), Buffer.from('ta')])).pipe(toArray()));
    expect(out.every((c) => c instanceof Uint8Array)).toBe(true);
    expect(text(out)).toBe('data');
  });

  it('emits strings when the stream has an encoding', async () => {
    const readable = Readable.from([Buffer.from('é'), Buffer.from('x')], { objectMode: false });
    readable.setEncoding('utf8');
    expect(await lastValueFrom(fromAsyncIterable<string>(readable).pipe(toArray()))).toEqual(['é', 'x']);
  });

  it('turns a stream error into an error', async () => {
    const readable = new Readable({ read() {} });
    const source = lastValueFrom(fromAsyncIterable(readable));
    readable.destroy(new Error('ECONNRESET'));
    await expect(source).rejects.toThrow('ECONNRESET');
  });

  it('errors when the stream closes before it ends (a premature close is a cut connection)', async () => {
    const readable = new Readable({ read() {} });
    const source = lastValueFrom(fromAsyncIterable(readable));
    readable.push('partial');
    readable.destroy();
    await expect(source).rejects.toMatchObject({ name: 'ToolStreamError', code: 'connection-lost' });
  });

  it('destroys the stream on unsubscribe', async () => {
    const readable = new Readable({ read() {} });
    readable.push('a');
    const first = await lastValueFrom(fromAsyncIterable(readable).pipe(take(1), toArray()));
    expect(text(first)).toBe('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(readable.destroyed).toBe(true);
  });
});
