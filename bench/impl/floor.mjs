// The floor: the least work that still decodes the stream correctly. Streaming TextDecoder, split
// on blank lines, take the `data: ` line, JSON.parse each event, append argument text per call
// index, one JSON.parse per call at the end. Anything slower than this pays for something.

import { readCalls } from './calls.mjs';

/** Feed decoded SSE events (their `data:` payload text) to `onData`. */
export function eachData(chunks, onData) {
  const decoder = new TextDecoder();
  // The unfinished event's text, in pieces: joined once when a blank line ends it, so an event
  // spanning many network chunks is not re-copied and re-scanned on every chunk.
  let pending = [];
  let lastChar = '';
  for (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text === '') continue;
    const ends = text.indexOf('\n\n') !== -1 || (lastChar === '\n' && text.charCodeAt(0) === 10);
    lastChar = text[text.length - 1];
    pending.push(text);
    if (!ends) continue;
    const buffer = pending.length === 1 ? text : pending.join('');
    let start = 0;
    let end;
    while ((end = buffer.indexOf('\n\n', start)) !== -1) {
      const at = buffer.indexOf('data: ', start);
      if (at !== -1 && at < end) onData(buffer.slice(at + 6, end));
      start = end + 2;
    }
    pending = start < buffer.length ? [buffer.slice(start)] : [];
  }
  if ((pending.join('') + decoder.decode()).trim() !== '') throw new Error('floor: stream ended inside an event');
}

export default {
  key: 'floor',
  label: 'floor (hand-written loop)',
  async load() {
    return null;
  },
  supports() {
    return true;
  },
  async run(chunks, format) {
    return readCalls(chunks, format, eachData);
  },
};
