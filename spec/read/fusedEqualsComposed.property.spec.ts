/**
 * `readToolCalls()` is a fused fast path: the SSE parser, the wire decoder, the reducer and the
 * result builder called in one subscription. It must give exactly what the composed card gives —
 * `decodeSse()` → the format's operator (or `autoDetect()`) → `toolCalls()` — on generated streams
 * (text, reasoning, interleaved calls, whole and restated arguments, usage, cut anywhere), in every
 * wire format, as bytes chunked anywhere (inside UTF-8 characters too) and cut anywhere, with the
 * byte source completing, dropping its connection or going idle, including how the output ends.
 */
import fc from 'fast-check';
import { concat, from, throwError, type Observable, type OperatorFunction } from 'rxjs';
import {
  anthropicMessages,
  autoDetect,
  decodeSse,
  gemini,
  geminiInteractions,
  isToolStreamError,
  openaiChat,
  openaiResponses,
  readToolCalls,
  toolCalls,
  ToolStreamError,
  type ProviderName,
  type FramedRecord,
  type StreamEvent,
  type ToolCallResult,
} from 'rxjs-tool-calls';
import { eventsOf, streamModel } from '../helpers/eventArbitraries';
import { plain } from '../helpers/plain';
import { genIds, reencode, TARGETS, type Target } from '../helpers/reencode';

const FORMATS: Record<Target, () => OperatorFunction<FramedRecord, StreamEvent>> = {
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  anthropic: anthropicMessages,
  gemini,
  'gemini-interactions': geminiInteractions,
};

interface Outcome {
  readonly results: unknown[];
  readonly error: unknown;
  readonly completed: boolean;
}

/**
 * What a run gave. Two documented differences are set aside: a dropped connection names the
 * operator that typed it (`source`: `'readStreamEvents'` or `'decodeSse'`), and `unknown-format`
 * shows the raw first bytes when the fused reader saw them (a composed `autoDetect()` sees events,
 * not bytes).
 */
function outcomeOf(results$: Observable<ToolCallResult>): Outcome {
  const results: unknown[] = [];
  let error: unknown;
  let completed = false;
  const comparable = (e: unknown): unknown => {
    if (!isToolStreamError(e)) return e;
    const { message: _message, source: _source, start: _start, ...rest } = e.toJSON();
    return rest;
  };
  results$.subscribe({ next: (r) => results.push(plain(r)), error: (e: unknown) => (error = comparable(e)), complete: () => (completed = true) });
  return { results, error, completed };
}

/** The bytes of `text`, cut at the given points (anywhere, inside a character too). */
function chunksOf(text: string, cuts: readonly number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const point of [...points, bytes.length]) {
    if (point > at) chunks.push(bytes.subarray(at, point));
    at = Math.max(at, point);
  }
  return chunks;
}

const cut = new ToolStreamError('truncated', { provider: 'openai-chat', detail: 'cut by the test' });

/** How the byte source ends: it completes, its connection drops (undici's error), or it goes idle. */
const endings = fc.constantFrom('complete', 'connection', 'idle');
function ending(how: string): Observable<never> | undefined {
  if (how === 'connection') return throwError(() => Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
  if (how === 'idle') return throwError(() => new ToolStreamError('idle-timeout', { timeoutMs: 5 }));
  return undefined;
}

describe.each(TARGETS.map((t) => [t] as const))('%s', (target) => {
  it.each([['named', target as ProviderName | 'auto'] as const, ['auto-detected', 'auto' as const]])('readToolCalls() equals decodeSse() → the format → toolCalls() (%s)', (_how, provider) => {
    fc.assert(
      fc.property(
        streamModel,
        fc.nat(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.option(fc.nat(), { nil: undefined }),
        endings,
        fc.constantFrom(1, 16, Infinity),
        fc.constantFrom(undefined, 200),
        (model, at, shorten, cuts, byteCut, end, maxToolCalls, maxEventSize) => {
          const all = eventsOf(model);
          const events = shorten ? all.slice(0, at % (all.length + 1)) : all;
          const encoded = reencode(events, shorten ? cut : undefined, target);
          const whole = chunksOf(encoded.text, cuts);
          const total = whole.reduce((n, c) => n + c.length, 0);
          // The bytes, maybe cut short anywhere (the connection ends mid-event).
          let left = byteCut === undefined ? total : byteCut % (total + 1);
          const chunks = whole.flatMap((c) => {
            const take = Math.min(c.length, left);
            left -= take;
            return take === 0 ? [] : [c.subarray(0, take)];
          });
          const failure = ending(end);
          const bytes$ = (): Observable<Uint8Array> => (failure === undefined ? from(chunks) : concat(from(chunks), failure));
          const decode = provider === 'auto' ? autoDetect() : FORMATS[target]();
          const sse = maxEventSize === undefined ? {} : { maxEventSize };
          const fused = outcomeOf(bytes$().pipe(readToolCalls({ ...sse, provider, generateId: genIds(), maxToolCalls })));
          const composed = outcomeOf(bytes$().pipe(decodeSse(sse), decode, toolCalls({ generateId: genIds(), maxToolCalls })));
          expect(fused).toEqual(composed);
        },
      ),
      { numRuns: 150 },
    );
  });
});
