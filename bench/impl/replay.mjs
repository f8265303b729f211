// A recorded stream, replayed as a fetch `Response` whose body yields the recorded network chunks.
// The chunks are pulled one at a time from any iterable (the heap probe passes one that samples).

/** @param {Iterable<Uint8Array>} chunks */
export function replayResponse(chunks, contentType = 'text/event-stream') {
  const iterator = chunks[Symbol.iterator]();
  const body = new ReadableStream({
    pull(controller) {
      const step = iterator.next();
      if (step.done) controller.close();
      else controller.enqueue(step.value);
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': contentType, 'x-request-id': 'req_bench' } });
}

/** A `fetch` that ignores the request (but drains its body) and answers with the replay. */
export function replayFetch(chunks) {
  return async (_input, init) => {
    void init;
    return replayResponse(chunks);
  };
}
