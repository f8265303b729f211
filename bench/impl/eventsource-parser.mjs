// eventsource-parser 3.x for the SSE framing, then JSON.parse + the same per-index append as the floor.
import { createParser } from 'eventsource-parser';
import { readCalls } from './calls.mjs';

function parseAll(chunks, onData) {
  const parser = createParser({ onEvent: (event) => onData(event.data) });
  const decoder = new TextDecoder();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  const tail = decoder.decode();
  if (tail) parser.feed(tail);
}

export default {
  key: 'eventsource-parser',
  label: 'eventsource-parser 3 + JSON.parse',
  packages: ['eventsource-parser'],
  async load() {
    return null;
  },
  supports() {
    return true;
  },
  async run(chunks, format) {
    return readCalls(chunks, format, parseAll);
  },
};
