import * as v from 'valibot';
import { firstValueFrom, from, toArray } from 'rxjs';
import { z } from 'zod';
import { readToolCalls, type StandardSchemaV1, type ToolStreamError } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const call = (index: number, id: string, name: string, args: string) => openaiChunk({ toolCalls: [{ index, id, name, arguments: args }] });
const stream = (...chunks: string[]) => from([...chunks, openaiChunk({ finishReason: 'tool_calls' }), openaiDone()]);

const tools = {
  get_weather: z.object({ city: z.string(), units: z.enum(['celsius', 'fahrenheit']).default('celsius') }),
  get_time: v.object({ tz: v.string() }),
};

describe('toolCalls({ tools }) / readToolCalls({ tools })', () => {
  it('validates each call with its schema (zod and valibot) and applies the schema’s output', async () => {
    const results = await firstValueFrom(stream(call(0, 'a', 'get_weather', '{"city":"Paris"}'), call(1, 'b', 'get_time', '{"tz":"CET"}')).pipe(readToolCalls({ tools }), toArray()));
    expect(results.map((r) => r.success && r.data.arguments)).toEqual([{ city: 'Paris', units: 'celsius' }, { tz: 'CET' }]);
    const first = results[0];
    if (first?.success && first.data.name === 'get_weather') expect(first.data.arguments.units).toBe('celsius');
  });

  it('invalid-arguments carries the validator’s issues with paths; siblings are unaffected', async () => {
    const results = await firstValueFrom(stream(call(0, 'a', 'get_weather', '{"city":5,"units":"kelvin"}'), call(1, 'b', 'get_time', '{"tz":"UTC"}')).pipe(readToolCalls({ tools }), toArray()));
    const [bad, good] = results;
    expect(good?.success).toBe(true);
    expect(bad?.success).toBe(false);
    const error = bad?.error as ToolStreamError<'invalid-arguments'>;
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'invalid-arguments' });
    expect(error.code).toBe('invalid-arguments');
    expect(error.issues.map((i) => i.path)).toEqual([['city'], ['units']]);
    expect(error.value).toEqual({ city: 5, units: 'kelvin' });
    expect(error.toolCall).toMatchObject({ id: 'a', name: 'get_weather', rawArguments: '{"city":5,"units":"kelvin"}' });
  });

  it('unknown-tool carries the available names', async () => {
    const [r] = await firstValueFrom(stream(call(0, 'a', 'delete_everything', '{}')).pipe(readToolCalls({ tools }), toArray()));
    expect(r?.error).toMatchObject({ name: 'ToolStreamError', code: 'unknown-tool' });
    expect((r?.error as ToolStreamError<'unknown-tool'>).availableTools).toEqual(['get_weather', 'get_time']);
  });

  it('passes per-call failures (malformed JSON) through without validating them', async () => {
    const [r] = await firstValueFrom(stream(call(0, 'a', 'get_weather', '{"city":')).pipe(readToolCalls({ tools }), toArray()));
    expect(r?.error?.code).toBe('malformed-arguments');
  });

  it('supports asynchronous validators and validators that throw', async () => {
    let calls = 0;
    const asyncSchema: StandardSchemaV1<unknown, { ok: true }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) => Promise.resolve((calls++, (value as { ok?: unknown }).ok === true ? { value: { ok: true } } : { issues: [{ message: 'not ok', path: [{ key: 'ok' }] }] })),
      },
    };
    const throwing: StandardSchemaV1<unknown, unknown> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => {
          throw new Error('kaboom');
        },
      },
    };
    const results = await firstValueFrom(
      stream(call(0, 'a', 'check', '{"ok":true}'), call(1, 'b', 'check', '{"ok":false}'), call(2, 'c', 'boom', '{}')).pipe(readToolCalls({ tools: { check: asyncSchema, boom: throwing } }), toArray()),
    );
    const byId = Object.fromEntries(results.map((r) => [r.success ? r.data.id : r.error.toolCall.id, r]));
    expect(byId['a']?.success && byId['a'].data.arguments).toEqual({ ok: true });
    expect((byId['b']?.error as ToolStreamError<'invalid-arguments'>).issues).toEqual([{ message: 'not ok', path: ['ok'] }]);
    expect((byId['c']?.error as ToolStreamError<'invalid-arguments'>).issues[0]?.message).toMatch(/kaboom/);
    expect(calls).toBe(2); // once per call, on completion
  });
});
