/**
 * `toolLoop()` over Anthropic's fine-grained tool streaming (on by default in the tools it declares):
 * a call whose input is not JSON is never run, its sibling is, and the next request answers it the
 * way Anthropic's guide asks: the `tool_use` input `{ "INVALID_JSON": text }`, an error `tool_result`.
 */
import { lastValueFrom, type Observable, of, throwError, toArray } from 'rxjs';
import { z } from 'zod';
import { tool, toolLoop, type LoopMessage, type ToolLoopRequestContext } from 'rxjs-tool-calls/tools';
import { anthropicEvent } from 'rxjs-tool-calls/marbles';

const start = (id: string) => anthropicEvent('message_start', { message: { id, type: 'message', role: 'assistant', content: [], model: 'claude-test', usage: { input_tokens: 9, output_tokens: 1 } } });
const toolStart = (index: number, id: string, name: string) => anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } });
const json = (index: number, piece: string) => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
const stop = (index: number) => anthropicEvent('content_block_stop', { index });
const finish = (reason: string) => anthropicEvent('message_delta', { delta: { stop_reason: reason }, usage: { output_tokens: 20 } });
const end = anthropicEvent('message_stop');

it('an unparseable call is answered as { INVALID_JSON: text } with an error result; its sibling runs; the tools asked for eager input streaming', async () => {
  const ran: string[] = [];
  const tools = { read: tool({ schema: z.object({ path: z.string() }), execute: ({ path }) => (ran.push(path), `contents of ${path}`) }) };
  const first = [
    start('m1'),
    toolStart(0, 'toolu_ok', 'read'),
    json(0, '{"path":"a.md"}'),
    stop(0),
    toolStart(1, 'toolu_bad', 'read'),
    json(1, '{"path":"b.md"'),
    json(1, ' "}'),
    stop(1),
    finish('tool_use'),
    end,
  ].join('');
  const second = [
    start('m2'),
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Done.' } }),
    stop(0),
    finish('end_turn'),
    end,
  ].join('');
  const sent: Array<ReadonlyArray<LoopMessage>> = [];
  const specs: unknown[] = [];
  const request = (messages: ReadonlyArray<LoopMessage>, step: number, context: ToolLoopRequestContext): Observable<string> => {
    sent.push(messages);
    specs.push(context.tools);
    const answer = [first, second][step];
    return answer === undefined ? throwError(() => new Error(`no answer for step ${step}`)) : of(answer);
  };
  await lastValueFrom(toolLoop(request, tools, { format: 'anthropic', messages: [{ role: 'user', content: 'Read both' }] }).pipe(toArray()));
  expect(ran).toEqual(['a.md']);
  expect(specs[0]).toEqual([expect.objectContaining({ name: 'read', eager_input_streaming: true })]);
  const [, assistant, results] = sent[1] ?? [];
  expect(assistant).toMatchObject({
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'toolu_ok', name: 'read', input: { path: 'a.md' } },
      { type: 'tool_use', id: 'toolu_bad', name: 'read', input: { INVALID_JSON: '{"path":"b.md" "}' } },
    ],
  });
  expect(results).toMatchObject({
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_ok', content: 'contents of a.md' },
      { type: 'tool_result', tool_use_id: 'toolu_bad', is_error: true },
    ],
  });
});
