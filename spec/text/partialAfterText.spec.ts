/** Partial values of calls written as text (an Ollama stream of our own), before the finish. */
import { Subject } from 'rxjs';
import { type PartialToolCall, partialToolCalls, readStreamEvents } from 'rxjs-tool-calls';
import { textToolCalls } from 'rxjs-tool-calls/text';
import { ollama } from './helpers';

describe('partialToolCalls() after textToolCalls()', () => {
  it('shows the arguments grow before the closing tag, and the result at the closing tag, before the finish', () => {
    const tokens = ['<tool_call>', '\n{"name": "get_weather", "arguments": {"city": "San', ' Fran', 'cisco", "days": [1', ', 2]}}', '\n', '</tool_call>'];
    const wire = ollama('qwen2.5:7b', tokens);
    const bytes$ = new Subject<string>();
    const seen: PartialToolCall[] = [];
    bytes$.pipe(readStreamEvents(), textToolCalls(), partialToolCalls()).subscribe((p) => seen.push(p));
    const events = wire.split(/(?<=\n\n)/);
    const snapshots: unknown[] = [];
    for (const event of events.slice(0, tokens.length)) {
      bytes$.next(event);
      const last = seen[seen.length - 1];
      snapshots.push(last === undefined ? undefined : { arguments: last.arguments, done: last.result !== undefined });
    }
    expect(snapshots).toEqual([
      undefined,
      { arguments: { city: 'San' }, done: false },
      { arguments: { city: 'San Fran' }, done: false },
      { arguments: { city: 'San Francisco', days: [] }, done: false }, // `1` may still go on
      { arguments: { city: 'San Francisco', days: [1, 2] }, done: false },
      { arguments: { city: 'San Francisco', days: [1, 2] }, done: false },
      { arguments: { city: 'San Francisco', days: [1, 2] }, done: true },
    ]);
    const final = seen[seen.length - 1]?.result;
    expect(final?.success && final.data).toMatchObject({ name: 'get_weather', arguments: { city: 'San Francisco', days: [1, 2] } });
  });
});
