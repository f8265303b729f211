/**
 * `eachToolCall()` checks its options when it is called, as `readToolCalls()` does, and names itself
 * in the error: a key it does not take, a value it cannot use, a malformed `tools`.
 */
import { from } from 'rxjs';
import { z } from 'zod';
import { eachToolCall } from 'rxjs-tool-calls/async';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { describeOptionChecks, invalidOption } from '../helpers/optionChecks';

describeOptionChecks([['eachToolCall', (o) => eachToolCall(from([]), o), 'tools', {}]]);

describe('values eachToolCall() cannot use', () => {
  it.each([
    ["provider: 'openai'", () => eachToolCall(from([]), { provider: 'openai' as never }), 'options.provider'],
    ['maxToolCalls: -1', () => eachToolCall(from([]), { maxToolCalls: -1 }), 'options.maxToolCalls'],
    ['a tool without a name in an array', () => eachToolCall(from([]), { tools: [{ schema: z.object({}) }] as never }), 'options.tools[0]'],
  ])('%s', (_what, make, option) => {
    const error = invalidOption(make);
    expect({ function: error.function, option: error.option }).toEqual({ function: 'eachToolCall', option });
  });

  it('valid options work as before', async () => {
    const bytes$ = from([openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()]);
    const cities: string[] = [];
    for await (const result of eachToolCall(bytes$, { provider: 'openai-chat', maxToolCalls: 4, tools: { get_weather: z.object({ city: z.string() }) } })) {
      if (result.success) cities.push(result.data.arguments.city);
    }
    expect(cities).toEqual(['Paris']);
  });
});
