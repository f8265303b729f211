/**
 * The content type of a response, carried on its first body chunk: a source that knows it
 * (`fromResponse`, `responseBody`) marks the chunk, and the fused readers pick the framing from it.
 * A non-enumerable property on the chunk itself: nothing is kept anywhere else, and operators
 * between the source and the reader (`idleTimeout()`, `tap`, …) pass it on with the chunk.
 *
 * @module
 */

const CONTENT_TYPE = Symbol.for('rxjs-tool-calls.contentType');

/** `chunk`, marked with the response's content type. */
export function withContentType<T extends object>(chunk: T, contentType: string): T {
  try {
    Object.defineProperty(chunk, CONTENT_TYPE, { value: contentType, configurable: true });
  } catch {
    // a frozen chunk: the reader judges the framing from the bytes
  }
  return chunk;
}

/** The content type a source marked on `chunk`, or `undefined`. */
export function contentTypeOf(chunk: unknown): string | undefined {
  if (typeof chunk !== 'object' || chunk === null) return undefined;
  const type = (chunk as { readonly [CONTENT_TYPE]?: unknown })[CONTENT_TYPE];
  return typeof type === 'string' ? type : undefined;
}
