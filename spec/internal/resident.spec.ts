/**
 * Resident streams (src/internal/resident.ts): each format's warm-up stream is valid wire text that
 * leaves a tool call open without an error; one resident per pipeline and format, made after the
 * subscription's synchronous work, never seen by the user's stream.
 */
import { Subject, of } from 'rxjs';
import { partialObject, partialToolCalls, readStreamEvents, readToolCalls, type StreamEvent, type ToolCallResult } from 'rxjs-tool-calls';
import { anthropicMessages, cohereChat, gemini, openaiChat, openaiResponses } from 'rxjs-tool-calls';
import { wireFormat } from 'rxjs-tool-calls/advanced';
import { residentCount } from '../../src/internal/resident';

const FORMATS = [openaiChat, openaiResponses, anthropicMessages, gemini, cohereChat];
const bytes = (text: string) => new TextEncoder().encode(text);
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('warm-up streams', () => {
  it.each(FORMATS.map((format) => [format.format, format] as const))('%s: valid events that stop inside a tool call', (_name, format) => {
    const wire = format.warmup as string;
    const events: StreamEvent[] = [];
    const errors: unknown[] = [];
    const input = new Subject<Uint8Array>();
    input.pipe(readStreamEvents({ provider: format })).subscribe({ next: (e) => events.push(e), error: (e: unknown) => errors.push(e) });
    for (const event of wire.split(/(?<=\n\n)/)) input.next(bytes(event));
    expect(errors).toEqual([]);
    expect(events.some((e) => e.type === 'tool-call-delta' && e.name === 'f')).toBe(true);
    expect(events.some((e) => e.type === 'finish' || e.type === 'done')).toBe(false);
  });

  it.each(FORMATS.map((format) => [format.format, format] as const))('%s: auto-detection reads it as that format', (_name, format) => {
    const events: StreamEvent[] = [];
    const errors: Array<{ code?: string }> = [];
    of(bytes(format.warmup as string))
      .pipe(readStreamEvents())
      .subscribe({ next: (e) => events.push(e), error: (e: { code?: string }) => errors.push(e) });
    expect(events).toContainEqual(expect.objectContaining({ type: 'metadata', provider: format.format }));
    expect(errors.map((e) => e.code)).toEqual(['truncated']); // cut inside a call, and recognised (not `unknown-format`)
  });
});

describe('whole warm-up streams (warmup + warmupEnd)', () => {
  it.each(FORMATS.map((format) => [format.format, format] as const))('%s: one complete call, a finish, no error', (_name, format) => {
    const wire = (format.warmup as string) + (format.warmupEnd as string);
    const events: StreamEvent[] = [];
    const results: ToolCallResult[] = [];
    const errors: unknown[] = [];
    const input = new Subject<Uint8Array>();
    input.pipe(readStreamEvents({ provider: format })).subscribe({ next: (e) => events.push(e), error: (e: unknown) => errors.push(e) });
    for (const event of wire.split(/(?<=\n\n)/)) input.next(bytes(event));
    input.complete();
    of(bytes(wire))
      .pipe(readToolCalls())
      .subscribe({ next: (r) => results.push(r), error: (e: unknown) => errors.push(e) });
    expect(errors).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool-call-delta', 'finish', 'usage', 'done']));
    expect(results).toEqual([expect.objectContaining({ success: true, data: expect.objectContaining({ name: 'f', arguments: { a: 1 } }) })]);
  });

  it('is read once per pipeline and format, to its end, after the first subscription and before the first bytes from a socket', async () => {
    const counts = { decoders: 0, ended: 0 };
    const counted = wireFormat({
      ...openaiChat,
      format: 'counted-warmup',
      decoder: () => {
        const decoder = openaiChat.decoder();
        counts.decoders++;
        return {
          provider: decoder.provider,
          sse: (event, emit) => decoder.sse(event, emit),
          payload: (name, payload, emit) => decoder.payload(name, payload, emit),
          end: (emit) => {
            counts.ended++;
            decoder.end(emit);
          },
        };
      },
    });
    const results: unknown[] = [];
    const input = new Subject<Uint8Array>();
    input.pipe(readToolCalls({ provider: counted })).subscribe((r) => results.push(r.success && r.data.arguments));
    expect(counts).toEqual({ decoders: 0, ended: 0 }); // nothing during the subscription
    await tick(); // the socket: the bytes come later
    expect(counts).toEqual({ decoders: 2, ended: 1 }); // the warm-up, read to its end, and the resident, left open
    input.next(bytes('data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"g","arguments":"{\\"b\\":2}"}}]},"finish_reason":"tool_calls"}]}\n\n'));
    input.next(bytes('data: [DONE]\n\n'));
    input.complete();
    expect(results).toEqual([{ b: 2 }]); // the user's own call only
    of(bytes('data: [DONE]\n\n'))
      .pipe(readToolCalls({ provider: counted }))
      .subscribe();
    await tick();
    expect(counts).toEqual({ decoders: 4, ended: 3 }); // the two user streams; no second warm-up
  });

  it('a warm-up that fails reaches no one, and the resident is made all the same', async () => {
    const broken = wireFormat({ ...openaiChat, format: 'broken-warmup-end', warmupEnd: 'data: {"choices": [\n\n' });
    const before = residentCount();
    const results: unknown[] = [];
    of(bytes('data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"g","arguments":"{}"}}]}}]}\n\ndata: [DONE]\n\n'))
      .pipe(readToolCalls({ provider: broken }))
      .subscribe({ next: (r) => results.push(r.success), error: (e: unknown) => results.push(e) });
    await tick();
    expect(results).toEqual([true]);
    expect(residentCount()).toBe(before + 1);
  });
});

describe('resident streams', () => {
  it('are made once per pipeline and format, after a turn of the event loop, apart from the user stream', async () => {
    const before = residentCount();
    const results: ToolCallResult[] = [];
    of(bytes('data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"g","arguments":"{}"}}]}}]}\n\ndata: [DONE]\n\n'))
      .pipe(readToolCalls({ provider: 'openai-chat' }))
      .subscribe((r) => results.push(r));
    expect(residentCount()).toBe(before); // not during the user's synchronous work
    await tick();
    expect(residentCount()).toBe(before + 1); // readStreamEvents()'s residents, made by the tests above, are another pipeline's
    expect(results).toEqual([expect.objectContaining({ success: true, data: expect.objectContaining({ id: 'c1', name: 'g', arguments: {} }) })]);

    for (let i = 0; i < 5; i++)
      of(bytes('data: [DONE]\n\n'))
        .pipe(readToolCalls({ provider: 'openai-chat' }))
        .subscribe();
    await tick();
    expect(residentCount()).toBe(before + 1); // the same pipeline and format: no new one

    of(bytes('data: [DONE]\n\n'))
      .pipe(readToolCalls({ provider: openaiChat }))
      .subscribe();
    await tick();
    expect(residentCount()).toBe(before + 1); // the format object and its name share one

    of(bytes('event: message_stop\ndata: {"type":"message_stop"}\n\n'))
      .pipe(readToolCalls({ provider: 'anthropic' }))
      .subscribe({ error: () => undefined });
    await tick();
    expect(residentCount()).toBe(before + 2); // another format
  });

  it('are not retried when the warm-up stream fails, and the failure reaches no one', async () => {
    const broken = wireFormat({ ...openaiChat, format: 'broken-warmup', warmup: 'data: {"choices": [\n\n' });
    const before = residentCount();
    const results: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      of(bytes('data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"g","arguments":"{}"}}]}}]}\n\ndata: [DONE]\n\n'))
        .pipe(readToolCalls({ provider: broken }))
        .subscribe((r) => results.push(r.success));
      await tick();
    }
    expect(results).toEqual([true, true, true]);
    expect(residentCount()).toBe(before);
  });

  it('are made for partialToolCalls() and partialObject() too, once each, fed events that leave the value open', async () => {
    await tick();
    const before = residentCount();
    const call: StreamEvent[] = [
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'g', argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
    ];
    const values: unknown[] = [];
    for (let i = 0; i < 3; i++)
      of(...call)
        .pipe(partialToolCalls())
        .subscribe((p) => values.push(p.arguments));
    expect(residentCount()).toBe(before);
    await tick();
    expect(residentCount()).toBe(before + 1);
    expect(values).toEqual(Array.from({ length: 6 }, () => ({ a: 1 }))); // per stream, the value then the last value: only their own events

    const updates: string[] = [];
    const text: StreamEvent[] = [{ type: 'text-delta', choice: 0, text: '{"b":2}' }, { type: 'done' }];
    of(...text)
      .pipe(partialObject())
      .subscribe((u) => updates.push(u.type));
    await tick();
    expect(residentCount()).toBe(before + 2);
    expect(updates).toEqual(['partial', 'result']);
  });
});
