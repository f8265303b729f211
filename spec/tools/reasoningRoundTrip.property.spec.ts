/**
 * Generated assistant turns with reasoning (Anthropic thinking and redacted blocks, Responses
 * reasoning items, chat `reasoning_content`, Gemini thought and text parts with signatures),
 * streamed in any chunking through `toolLoop()`: the assistant turn it sends back is the turn as
 * streamed, verbatim and in order.
 */
import fc from 'fast-check';
import { from, lastValueFrom, type Observable, toArray } from 'rxjs';
import { type LoopMessage, tool, toolLoop } from 'rxjs-tool-calls/tools';
import { splitEveryByte, splitRandom, toBytes } from 'rxjs-tool-calls/marbles';
import { TOOL_NAMES, turnArbitrary } from '../helpers/reasoningArbitraries';
import { answerFor, expectedFor, turnFor, type TurnFormat } from '../helpers/reasoningTurns';

const tools = Object.fromEntries(TOOL_NAMES.map((name) => [name, tool({ execute: () => `${name} done` })]));
const question: LoopMessage = { role: 'user', content: 'Go.' };

/** The chunks of the turn's bytes: whole, byte by byte, or split at random by `seed`. */
function chunked(pieces: string[], how: 'whole' | 'bytes' | number): Uint8Array[] {
  const bytes = toBytes(pieces.join(''));
  return how === 'whole' ? [bytes] : how === 'bytes' ? splitEveryByte(bytes) : splitRandom(bytes, how, 40);
}

/** What the loop sends back after the turn: everything after the question, up to the tool results. */
function sentBack(format: TurnFormat, messages: ReadonlyArray<LoopMessage>): unknown {
  const turn = messages.slice(1) as Array<Record<string, unknown>>;
  if (format === 'openai-responses') return turn.filter((m) => m['type'] !== 'function_call_output');
  return turn[0];
}

describe.each<TurnFormat>(['anthropic', 'openai-responses', 'openai-chat', 'gemini'])('%s: a turn with reasoning, re-chunked, comes back verbatim and in order', (format) => {
  it('for generated turns and chunkings', async () => {
    await fc.assert(
      fc.asyncProperty(turnArbitrary(format), fc.oneof(fc.constantFrom<'whole' | 'bytes'>('whole', 'bytes'), fc.integer({ min: 1, max: 1_000_000 })), async (blocks, how) => {
        const sent: Array<ReadonlyArray<LoopMessage>> = [];
        const answers = [chunked(turnFor(format, blocks), how), [toBytes(answerFor(format, 'Done.').join(''))]];
        const request = (messages: ReadonlyArray<LoopMessage>, step: number): Observable<Uint8Array> => {
          sent.push(messages);
          return from(answers[step] ?? []);
        };
        const items = await lastValueFrom(toolLoop(request, tools, { format, messages: [question] }).pipe(toArray()));
        expect(items.at(-1)).toMatchObject({ type: 'done', step: 1, text: 'Done.' });
        expect(sentBack(format, sent[1] ?? [])).toEqual(expectedFor(format, blocks));
      }),
      { numRuns: 60 },
    );
  });
});
