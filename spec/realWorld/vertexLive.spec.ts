/**
 * Vertex AI streamed function-call arguments (`streamFunctionCallArguments`) as a UI sees them: each
 * `partialArgs` entry is visible the moment its chunk arrives — a string as it grows, a number, a
 * boolean, a list or a struct whole (rule `vertex-partial-args`). Each case is our own small stream
 * shaped like the one in the named public report; see `helpers.ts`.
 */
import { Subject } from 'rxjs';
import { partialToolCalls, readStreamEvents, type PartialToolCall } from 'rxjs-tool-calls';
import { toBytes } from 'rxjs-tool-calls/marbles';
import { gemini, ok, outcome, runWire } from './helpers';

/** Feed `chunks` one at a time; after each, what `partialToolCalls()` shows of the first call. */
function shownAfterEach(chunks: string[]): unknown[] {
  const input = new Subject<Uint8Array>();
  let last: PartialToolCall | undefined;
  const subscription = input.pipe(readStreamEvents(), partialToolCalls()).subscribe((value) => (last = value));
  const shown: unknown[] = [];
  for (const chunk of chunks) {
    input.next(toBytes(chunk));
    shown.push(last?.arguments);
  }
  input.complete();
  subscription.unsubscribe();
  return shown;
}

const partial = (entries: unknown[], willContinue = true) => ({ functionCall: { partialArgs: entries, ...(willContinue ? { willContinue } : {}) } });

describe('real-world Vertex streamed arguments, live', () => {
  it('vercel/ai#13929: "Boston" then ", MA" for $.location, then $.brightness 50: the string grows and the number shows whole, chunk by chunk', () => {
    const chunks = [
      gemini([{ functionCall: { name: 'set_light', willContinue: true } }]),
      gemini([partial([{ jsonPath: '$.location', stringValue: 'Boston', willContinue: true }])]),
      gemini([partial([{ jsonPath: '$.location', stringValue: ', MA' }])]),
      gemini([partial([{ jsonPath: '$.brightness', numberValue: 50 }])]),
      gemini([{ functionCall: {} }], { finishReason: 'STOP' }),
    ];
    expect(shownAfterEach(chunks)).toEqual([{}, { location: 'Boston' }, { location: 'Boston, MA' }, { location: 'Boston, MA', brightness: 50 }, { location: 'Boston, MA', brightness: 50 }]);
    expect(runWire(...chunks)).toEqual(outcome([ok('gen_0', 'set_light', { location: 'Boston, MA', brightness: 50 })], 'tool-calls/STOP'));
  });

  it('langchain-ai/langchain-google#1752: listValue, structValue, nullValue and boolValue entries are whole values, shown at once', () => {
    const chunks = [
      gemini([{ functionCall: { name: 'plan', willContinue: true } }]),
      gemini([partial([{ jsonPath: '$.steps', listValue: { values: ['a', 'b'] } }])]),
      gemini([partial([{ jsonPath: '$.opts', structValue: { fast: true } }])]),
      gemini([
        partial(
          [
            { jsonPath: '$.note', nullValue: 'NULL_VALUE' },
            { jsonPath: '$.dry', boolValue: false },
          ],
          false,
        ),
      ]),
      gemini([{ text: '' }], { finishReason: 'STOP' }),
    ];
    expect(shownAfterEach(chunks)).toEqual([
      {},
      { steps: ['a', 'b'] },
      { steps: ['a', 'b'], opts: { fast: true } },
      { steps: ['a', 'b'], opts: { fast: true }, note: null, dry: false },
      { steps: ['a', 'b'], opts: { fast: true }, note: null, dry: false },
    ]);
    expect(runWire(...chunks)).toEqual(outcome([ok('gen_0', 'plan', { steps: ['a', 'b'], opts: { fast: true }, note: null, dry: false })], 'tool-calls/STOP'));
  });
});
