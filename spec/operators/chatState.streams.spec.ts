/**
 * chatState() on every recorded stream, under several chunkings and cut at sampled offsets: it never
 * errors, its last state has the same results as toolCalls() (and the same text), and every
 * partial value of a call is a prefix of its final arguments.
 */
import { from } from 'rxjs';
import { chatState, type ChatState } from '../../src/operators/chatState';
import { readStreamEvents } from '../../src/read/readStreamEvents';
import type { ToolCallResult } from '../../src/result';
import { chunkings } from '../helpers/chunking';
import { isPrefixValue } from '../helpers/isPrefixValue';
import { runChunks } from '../helpers/runStream';
import { allStreams, errorPrint } from '../helpers/timeline';
import { TRUNCATION_STREAMS } from '../helpers/truncationStreams';

interface Run {
  readonly states: ChatState[];
  readonly completed: boolean;
  readonly errored: boolean;
}

function run(chunks: ReadonlyArray<Uint8Array>): Run {
  const states: ChatState[] = [];
  let completed = false;
  let errored = false;
  let n = 0;
  from(chunks)
    .pipe(readStreamEvents(), chatState({ generateId: () => `gen_${n++}` }))
    .subscribe({ next: (s) => states.push(s), error: () => (errored = true), complete: () => (completed = true) });
  return { states, completed, errored };
}

const printResult = (r: ToolCallResult | undefined): unknown => (r === undefined ? 'none' : r.success ? r.data : errorPrint(r.error));

/** What chatState's run must agree on with the toolCalls() run of the same chunks. */
function compare(chunks: ReadonlyArray<Uint8Array>): void {
  const { states, completed, errored } = run(chunks);
  const outcome = runChunks(chunks);
  expect([completed, errored]).toEqual([true, false]);
  const last = states.at(-1);
  if (last === undefined) throw new Error('no state');
  const choice0 = outcome.events.filter((e) => 'choice' in e && e.choice === 0);
  expect({ status: last.status, error: errorPrint(last.error), text: last.text, reasoning: last.reasoning }).toEqual({
    status: outcome.error === undefined ? 'done' : 'error',
    error: errorPrint(outcome.error),
    text: choice0.map((e) => (e.type === 'text-delta' ? e.text : '')).join(''),
    reasoning: choice0.map((e) => (e.type === 'reasoning-delta' ? e.text : '')).join(''),
  });
  const expected = outcome.results.filter((r) => (r.success ? r.data.choice : r.error.toolCall.choice) === 0);
  const byId = new Map(expected.map((r) => [r.success ? r.data.id : r.error.toolCall.id, r]));
  expect(last.calls.map((c) => [c.id, printResult(c.result)])).toEqual(last.calls.map((c) => [c.id, printResult(byId.get(c.id))]));
  expect(last.calls.length).toBe(expected.length);
  for (const call of last.calls) {
    if (call.result?.success !== true) continue;
    expect(call.partialArguments).toBe(call.result.data.arguments);
    const seen = states.map((s) => s.calls.find((c) => c.id === call.id)?.partialArguments).filter((a) => a !== undefined);
    for (const partial of seen) if (!isPrefixValue(partial, call.result.data.arguments)) throw new Error(`${JSON.stringify(partial)} is not a prefix of ${JSON.stringify(call.result.data.arguments)}`);
  }
}

const streams = allStreams();

describe.each(streams)('chatState() on %s', (_name, bytes) => {
  // byte by byte: the conformance suite covers every chunking of the stages; here the whole
  // stream and two random splits (the same decoder output in other groupings) are enough.
  it.each(chunkings(bytes).filter(([how]) => how === 'whole' || how === 'random seed 1' || how === 'random seed 2'))(
    '%s: the same results and text as toolCalls(), growing arguments, never an error',
    (_how, chunks) => {
      compare(chunks);
    },
  );
});

describe.each(TRUNCATION_STREAMS)('chatState() on %s cut at sampled offsets', (name) => {
  it('ends with the results toolCalls() gives for the same cut, and completes', () => {
    const bytes = streams.find(([n]) => n === name)?.[1];
    if (bytes === undefined) throw new Error(`no stream ${name}`);
    for (let i = 0; i <= 24; i++) compare([bytes.subarray(0, Math.floor((i * bytes.length) / 24))]);
  });
});
