// The README's "Marble testing" example, run as written (scripts/check-readme.mjs only type-checks README blocks).
import { map } from 'rxjs';
import { readToolCalls, type ToolCallResult, ToolStreamError } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone,  wireChunks } from 'rxjs-tool-calls/marbles';
import { testScheduler } from '../helpers/marbles';

const scheduler = () => testScheduler();
const chunks = {
  a: openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"ci' }] }),
  b: openaiChunk({ toolCalls: [{ arguments: 'ty":"Paris"}' }] }),
  c: openaiChunk({ finishReason: 'tool_calls' }),
  d: openaiDone(),
};
const summary = map((r: ToolCallResult) => (r.success ? `${r.data.name} ${JSON.stringify(r.data.arguments)}` : r.error.code));

it('emits the call once the stream says it is complete', () => {
  scheduler().run(({ cold, expectObservable }) => {
    const { marbles, values } = wireChunks('-a-b-c-d|', chunks);
    // a chat finish_reason is held until [DONE] (or the end): a later chunk may still add to the call
    expectObservable(cold(marbles, values).pipe(readToolCalls(), summary)).toBe('-------x|', { x: 'get_weather {"city":"Paris"}' });
  });
});

it('reports a call cut mid-arguments incomplete, then the typed error', () => {
  scheduler().run(({ cold, expectObservable }) => {
    const { marbles, values } = wireChunks('-a-b|', chunks);
    const error = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'no finish_reason and no [DONE]' });
    expectObservable(cold(marbles, values).pipe(readToolCalls(), summary)).toBe('----(x#)', { x: 'incomplete' }, error);
  });
});
