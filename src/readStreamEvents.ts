/**
 * `readStreamEvents()`: bytes → normalised {@link StreamEvent}s, any wire format.
 *
 * @module
 */
import { defer, tap, type OperatorFunction } from 'rxjs';
import type { StreamEvent } from './events';
import { decodeSseWith } from './providers/decoder';
import { decoderFor, type ProviderOption } from './providers/registry';
import { decodeSse, type DecodeSseOptions } from './sse/decodeSse';

/** Options of {@link readStreamEvents}. */
export interface ReadStreamEventsOptions extends DecodeSseOptions {
  /** The wire format; `auto` (the default) recognises it from the first meaningful event. */
  readonly provider?: ProviderOption;
}

const RAW_START = 512;

/** Keeps the first characters of the raw input, for the `unknown-format` error of an unrecognised stream. */
export class RawStart {
  private text = '';
  private decoder: TextDecoder | undefined;

  /** Record a chunk (only while fewer than 512 characters were kept). */
  readonly record = (chunk: Uint8Array | string): void => {
    if (this.text.length >= RAW_START) return;
    if (typeof chunk === 'string') this.text += chunk.slice(0, RAW_START);
    else this.text += (this.decoder ??= new TextDecoder()).decode(chunk.subarray(0, RAW_START), { stream: true });
  };

  /** What was kept. */
  readonly get = (): string => this.text.slice(0, RAW_START);
}

/**
 * Read a streamed response's bytes as normalised events.
 *
 * <span class="informal">`decodeSse()` then the wire adapter (auto-detected by default).</span>
 *
 * ```text
 * --c1----c2------c3--|         c: network chunks, split anywhere
 *   readStreamEvents()
 * --t-----(xx)----(fd)|         t: text-delta, x: tool-call-delta, f: finish, d: done
 * ```
 *
 * 1. With `provider: 'auto'`, a stream of no known format ends with `unknown-format`, showing the
 *    first bytes that arrived (an HTML error page, a JSON body, …).
 * 2. Every error is typed; see `toolCalls()` for what the events mean per call.
 *
 * @param options The wire format and the SSE limits.
 * @return An operator from byte (or text) chunks to {@link StreamEvent}s.
 */
export function readStreamEvents(options: ReadStreamEventsOptions = {}): OperatorFunction<Uint8Array | string, StreamEvent> {
  const provider = options.provider ?? 'auto';
  return (source) =>
    defer(() => {
      const raw = new RawStart();
      return source.pipe(
        tap(provider === 'auto' ? raw.record : () => undefined),
        decodeSse(options),
        decodeSseWith(decoderFor(provider, raw.get)),
      );
    });
}
