/**
 * Mutation fuzz (seeded, bounded): real streams with events dropped, duplicated, reordered and
 * replaced by wrong shapes, bits flipped and random bytes inserted, fed in random chunks, always
 * end in results and typed errors only; so do streams made of arbitrary bytes and arbitrary JSON.
 */
import fc from 'fast-check';
import { splitRandom } from 'rxjs-tool-calls/marbles';
import { runChunks } from '../helpers/runStream';
import { allStreams } from '../helpers/timeline';
import { mutate, mutationArb, sseText, untyped, expectNoUnhandledErrors } from '../helpers/mutations';

const streams = allStreams();
const enc = new TextEncoder();
const budget = { interruptAfterTimeLimit: 20_000, markInterruptAsFailure: false };

expectNoUnhandledErrors();

it('mutated real streams, randomly chunked', () => {
  fc.assert(
    fc.property(fc.nat({ max: streams.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 1 << 20 }), (which, mutations, seed) => {
      const bytes = mutate(streams[which]![1], mutations);
      expect(untyped(runChunks(splitRandom(bytes, seed, 64)))).toBeUndefined();
    }),
    { numRuns: 4000, seed: 20251130, ...budget },
  );
});

it('arbitrary bytes', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
      expect(untyped(runChunks([bytes]))).toBeUndefined();
    }),
    { numRuns: 3000, seed: 1, ...budget },
  );
});

it('arbitrary JSON values as events, under every event name of every format', () => {
  const names = [
    '',
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
    'error',
    'response.created',
    'response.output_item.added',
    'response.function_call_arguments.delta',
    'response.output_item.done',
    'response.completed',
    'tool-call-start',
    'tool-call-delta',
    'tool-call-end',
    'message-end',
    'interaction.created',
    'interaction.status_update',
    'step.start',
    'step.delta',
    'step.stop',
    'interaction.completed',
  ];
  const event = fc.tuple(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 5 }));
  fc.assert(
    fc.property(fc.array(event, { minLength: 1, maxLength: 8 }), (events) => {
      const wire = events.map(([name, value]) => sseText(name, JSON.stringify(value))).join('');
      expect(untyped(runChunks([enc.encode(wire)]))).toBeUndefined();
    }),
    { numRuns: 3000, seed: 2, ...budget },
  );
});

it('a real stream with one payload replaced by an arbitrary JSON value of the same event name', () => {
  fc.assert(
    fc.property(fc.nat({ max: streams.length - 1 }), fc.nat(), fc.jsonValue({ maxDepth: 4 }), (which, at, value) => {
      const blocks = new TextDecoder().decode(streams[which]![1]).split(/(?<=\r?\n\r?\n)/);
      const i = at % blocks.length;
      const name = /^event: ?(.*)$/m.exec(blocks[i]!)?.[1]?.trim() ?? '';
      blocks[i] = sseText(name, JSON.stringify(value));
      expect(untyped(runChunks([enc.encode(blocks.join(''))]))).toBeUndefined();
    }),
    { numRuns: 3000, seed: 3, ...budget },
  );
});
