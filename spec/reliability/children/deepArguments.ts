/**
 * Child process of `deepNesting.spec.ts` (bundled with esbuild, run with a heap limit): one call
 * whose arguments are `[` × depth (then `]` × depth unless `open`), in seeded 1–8 character
 * fragments through `partialToolCalls()`. Prints one JSON line describing the outcome.
 *
 * Arguments: depth, `immutable` | `live`, `closed` | `open`.
 */
import { from } from 'rxjs';
import { seededRandom } from '../../../marbles/chunks';
import { ToolStreamError } from '../../../src/errors';
import type { StreamEvent } from '../../../src/events';
import { partialToolCalls, type PartialToolCall } from '../../../src/operators/partialToolCalls';

const [depthArg = '1000', snapshots = 'immutable', shape = 'closed'] = process.argv.slice(2);
const depth = Number(depthArg);
const text = '['.repeat(depth) + (shape === 'closed' ? ']'.repeat(depth) : '');

const events: StreamEvent[] = [{ type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'deep', argumentsDelta: '' }];
const random = seededRandom(11);
for (let i = 0; i < text.length;) {
  const n = 1 + Math.floor(random() * 8);
  events.push({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: text.slice(i, i + n) });
  i += n;
}
events.push({ type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' });

let values = 0;
/** The deepest partial value shown while the part below maxPartialDepth (256) was still open. */
let shownDepth = 0;
let last: PartialToolCall | undefined;
let streamError: unknown;

/** How many arrays are nested in `value` (each holding the next as its only element), without recursion. */
function nesting(value: unknown): number {
  let count = 0;
  let node = value;
  while (Array.isArray(node)) {
    count++;
    node = node[0];
  }
  return count;
}

from(events)
  .pipe(partialToolCalls({ snapshots: snapshots === 'live' ? 'live' : 'immutable' }))
  .subscribe({
    next: (partial) => {
      values++;
      if (partial.result === undefined && partial.openPath?.length === 256) shownDepth = Math.max(shownDepth, nesting(partial.arguments));
      else last = partial;
    },
    error: (error: unknown) => (streamError = error),
  });

const result = last?.result;
process.stdout.write(
  `${JSON.stringify({
    values,
    shownDepth,
    streamError: streamError === undefined ? null : String(streamError),
    success: result?.success ?? null,
    depth: result?.success === true ? nesting(result.data.arguments) : null,
    code: result?.success === false ? result.error.code : null,
    typed: result?.success === false ? result.error instanceof ToolStreamError : null,
    position: result?.success === false && 'position' in result.error ? result.error.position : null,
    heapMB: Math.round(process.memoryUsage().heapUsed / 1e6),
  })}\n`,
);
