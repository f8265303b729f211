/**
 * A tiny, test-only SSE splitter: enough of the WHATWG rules for the recorded fixtures (events split
 * on blank lines, `\r\n` / `\n` / `\r` line ends, `data:` lines joined with `\n`, comments ignored,
 * one optional space after the colon, an unterminated last event discarded). Not the library's decoder.
 */
import type { SseEvent } from '../../src/events';

export function splitSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  // The last element is what followed the final line terminator: an unterminated line is dropped.
  lines.pop();
  let eventName = '';
  let data: string[] = [];
  let hasData = false;
  let lastId: string | undefined;
  let retry: number | undefined;
  for (const line of lines) {
    if (line === '') {
      if (hasData) events.push({ event: eventName || 'message', data: data.join('\n'), id: lastId, retry });
      eventName = '';
      data = [];
      hasData = false;
      retry = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      hasData = true;
    } else if (field === 'event') {
      eventName = value;
    } else if (field === 'id' && !value.includes('\0')) {
      lastId = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) {
      retry = Number(value);
    }
  }
  return events;
}
