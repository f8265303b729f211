/**
 * `toolLoop()` hands `request` the loop's tools as the request's `tools` field in its format
 * (`toolSpecs(tools, format)`), built once, lazily.
 */
import { from, lastValueFrom, type Observable, throwError, toArray } from 'rxjs';
import * as v from 'valibot';
import { z } from 'zod';
import { tool, toolLoop, toolSpecs, type LoopMessage, type ToolLoopRequestContext } from 'rxjs-tool-calls/tools';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const tools = {
  get_weather: tool({ description: 'Weather in a city', schema: z.strictObject({ city: z.string() }), execute: ({ city }) => `sunny in ${city}` }),
};
const callThenAnswer = [
  [openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()],
  [openaiChunk({ content: 'Sunny.' }), openaiChunk({ finishReason: 'stop' }), openaiDone()],
];

describe('toolLoop: the request context', () => {
  it('gives every step the format and the same tool definitions', async () => {
    const seen: ToolLoopRequestContext[] = [];
    const request = (_messages: ReadonlyArray<LoopMessage>, step: number, context: ToolLoopRequestContext): Observable<string> => {
      seen.push(context);
      return from(callThenAnswer[step] ?? []);
    };
    const items = await lastValueFrom(toolLoop(request, tools, { format: 'openai-chat' }).pipe(toArray()));
    expect(items.at(-1)?.type).toBe('done');
    expect(seen.map((c) => c.format)).toEqual(['openai-chat', 'openai-chat']);
    expect(seen[0]?.tools).toEqual(toolSpecs(tools, 'openai-chat'));
    expect(seen[1]?.tools).toBe(seen[0]?.tools);
  });

  it('writes them in the loop format (Anthropic input_schema)', async () => {
    let specs: unknown;
    const request = (_m: ReadonlyArray<LoopMessage>, _s: number, { tools: t }: ToolLoopRequestContext) => {
      specs = t;
      return from([anthropicEvent('message_start', { message: { id: 'm', usage: { input_tokens: 1, output_tokens: 0 } } }), anthropicEvent('message_stop')]);
    };
    await lastValueFrom(toolLoop(request, tools, { format: 'anthropic' }).pipe(toArray()));
    expect(specs).toEqual([
      {
        name: 'get_weather',
        description: 'Weather in a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
        eager_input_streaming: true,
      },
    ]);
  });

  it('tools whose schema cannot give a JSON Schema: the loop runs while request does not read them, and errors when it does', async () => {
    const opaque = { search: tool({ schema: v.object({ q: v.string() }), execute: ({ q }) => q }) };
    const quiet = (_m: ReadonlyArray<LoopMessage>, step: number) => from(callThenAnswer[1] ?? []).pipe((s) => (step === 0 ? s : throwError(() => new Error('one step'))));
    expect((await lastValueFrom(toolLoop(quiet, opaque).pipe(toArray()))).at(-1)?.type).toBe('done');
    const reading = (_m: ReadonlyArray<LoopMessage>, _s: number, context: ToolLoopRequestContext) => from([JSON.stringify(context.tools)]);
    await expect(lastValueFrom(toolLoop(reading, opaque))).rejects.toMatchObject({ name: 'ToolStreamError', code: 'unsupported-request' });
  });
});
