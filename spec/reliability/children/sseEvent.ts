/**
 * Child process: parse one shape of huge SSE event with `SseParser` and print one JSON line
 * `{ events: [{ length, digest }], error: { code, byteOffset } | null, peakHeapMb }`;
 * or, with `expected`, print the `{ length, digest }` of the data the shape must dispatch
 * (computed here because the same loop runs about ten times slower inside jest).
 *
 *   node --max-old-space-size=<MB> sseEvent.mjs parse <shape> <n> <maxEventSize>
 *   node sseEvent.mjs expected <shape> <n>
 *
 * Run under a heap limit by `spec/reliability/sseMemory.spec.ts`: an out-of-memory crash ends it
 * without a report.
 */
import v8 from 'node:v8';
import { isToolStreamError } from '../../../src/errors';
import { SseParser } from '../../../src/sse/parser';
import { digest, SSE_SHAPES, type SseShapeName } from './sseShapes';

const [mode, shapeName, n, maxEventSize] = process.argv.slice(2);
const shape = SSE_SHAPES[shapeName as SseShapeName];
if (shape === undefined) throw new Error(`unknown shape ${shapeName}`);
if (mode === 'expected') {
  process.stdout.write(`${JSON.stringify(digest(shape.expected(Number(n))))}\n`);
  process.exit(0);
}
const parser = new SseParser({ maxEventSize: Number(maxEventSize) });
const events: Array<{ length: number; digest: number }> = [];
const onEvent = (event: { data: string }): void => {
  events.push(digest([event.data]));
};
let error: { code: string; byteOffset: number } | null = null;
let peak = 0;
let pushes = 0;
try {
  for (const chunk of shape.chunks(Number(n))) {
    parser.push(chunk, onEvent);
    if ((pushes++ & 0x3ff) === 0 || chunk.length >= 4096) peak = Math.max(peak, v8.getHeapStatistics().used_heap_size);
  }
  parser.end(onEvent);
} catch (e) {
  if (!isToolStreamError(e, 'event-too-large')) throw e;
  error = { code: e.code, byteOffset: e.byteOffset };
}
process.stdout.write(`${JSON.stringify({ events, error, peakHeapMb: Math.round(peak / 1e5) / 10 })}\n`);
