/**
 * Child process of `spec/fuzz/hugeArguments.spec.ts` (bundled with esbuild, run with a heap limit):
 * an OpenAI chat stream whose one call streams `megabytes` MB of argument text in 64 KB fragments
 * (one SSE event each, generated as they are read, never held whole), then a second call, a finish
 * and `[DONE]`, through `readToolCalls()` with its default limits. Prints one JSON line:
 * `{ results: [{ success, code?, name }], streamError, peakHeapMb }`.
 */
import v8 from 'node:v8';
import { Observable } from 'rxjs';
import { readToolCalls } from '../../../src/read/readToolCalls';

const megabytes = Number(process.argv[2] ?? '100');
const FRAGMENT = 64 * 1024;
const encoder = new TextEncoder();
const event = (chunk: unknown): Uint8Array => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
const delta = (index: number, fn: Record<string, string>, id?: string): Uint8Array =>
  event({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index, ...(id === undefined ? {} : { id, type: 'function' }), function: fn }] } }] });

let peak = 0;
const sample = (): void => {
  peak = Math.max(peak, v8.getHeapStatistics().used_heap_size);
};

const bytes$ = new Observable<Uint8Array>((subscriber) => {
  subscriber.next(delta(0, { name: 'upload', arguments: '{"data":"' }, 'call_big'));
  const filler = 'x'.repeat(FRAGMENT);
  const fragments = Math.ceil((megabytes * 1_000_000) / FRAGMENT);
  for (let i = 0; i < fragments && !subscriber.closed; i++) {
    subscriber.next(delta(0, { arguments: filler }));
    if (i % 64 === 0) sample();
  }
  subscriber.next(delta(0, { arguments: '"}' }));
  subscriber.next(delta(1, { name: 'small', arguments: '{"ok":true}' }, 'call_small'));
  subscriber.next(event({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }));
  subscriber.next(encoder.encode('data: [DONE]\n\n'));
  subscriber.complete();
});

const results: Array<{ success: boolean; code?: string; name: string }> = [];
let streamError: string | null = null;
bytes$.pipe(readToolCalls()).subscribe({
  next: (result) => {
    sample();
    results.push(result.success ? { success: true, name: result.data.name } : { success: false, code: result.error.code, name: result.error.toolCall?.name ?? '' });
  },
  error: (error: unknown) => (streamError = String((error as { code?: unknown }).code ?? error)),
});
sample();
process.stdout.write(`${JSON.stringify({ results, streamError, peakHeapMb: Math.round(peak / 1e6) })}\n`);
