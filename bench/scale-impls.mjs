// The per-stream implementations bench/scale.mjs compares, each behind one RxJS `Subject` per
// stream (what a server holding many open responses has): `open(onResult)` returns the stream's
// subject, already subscribed; feed it chunks, complete it, and every tool call comes out through
// `onResult` as `{ id, name, arguments }` (or the library's result).
import { createParser } from 'eventsource-parser';
import { Subject } from 'rxjs';

// ----- the wire: 26 OpenAI chat events, 2 tool calls -------------------------------------------

const ARGS = ['{"city":"Paris","unit":"celsius","days":3}', '{"query":"weather in Paris tomorrow","limit":5}'];
/** `text` in `n` nearly equal fragments. */
function split(text, n) {
  const out = [];
  const size = Math.ceil(text.length / n);
  for (let i = 0; i < n; i++) out.push(text.slice(i * size, (i + 1) * size));
  return out;
}
const event = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'gpt-test', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const call = (index, fields) => event({ tool_calls: [{ index, ...fields }] });

/** The 26 events of one stream, one per network chunk (as bytes). */
export function wireChunks() {
  const texts = [event({ role: 'assistant', content: null })];
  texts.push(call(0, { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }));
  for (const fragment of split(ARGS[0], 10)) texts.push(call(0, { function: { arguments: fragment } }));
  texts.push(call(1, { id: 'call_b', type: 'function', function: { name: 'search', arguments: '' } }));
  for (const fragment of split(ARGS[1], 11)) texts.push(call(1, { function: { arguments: fragment } }));
  texts.push(event({}, 'tool_calls'));
  texts.push('data: [DONE]\n\n');
  if (texts.length !== 26) throw new Error(`the wire has ${texts.length} events, not 26`);
  const encoder = new TextEncoder();
  return texts.map((t) => encoder.encode(t));
}
/** Results one stream yields. */
export const CALLS_PER_STREAM = 2;

// ----- the floor and eventsource-parser: JSON.parse + per-index append --------------------------

/** Per-stream call state fed with `data:` payloads; reports the calls at the finish. */
function calls(onResult) {
  const ids = [];
  const names = [];
  const args = [];
  return (data) => {
    if (data === '[DONE]') return;
    const choice = JSON.parse(data).choices[0];
    const toolCalls = choice?.delta?.tool_calls;
    if (toolCalls) {
      for (const tc of toolCalls) {
        const i = tc.index;
        if (tc.id) ids[i] = tc.id;
        if (tc.function?.name) names[i] = tc.function.name;
        args[i] = (args[i] ?? '') + (tc.function?.arguments ?? '');
      }
    }
    if (choice?.finish_reason) for (let i = 0; i < args.length; i++) onResult({ id: ids[i], name: names[i], arguments: JSON.parse(args[i]) });
  };
}

/** The floor: TextDecoder + split on blank lines + the `data: ` line, in one subscription. */
function floor(onResult) {
  const subject = new Subject();
  const decoder = new TextDecoder();
  const onData = calls(onResult);
  let pending = '';
  subject.subscribe({
    next(chunk) {
      const text = pending === '' ? decoder.decode(chunk, { stream: true }) : pending + decoder.decode(chunk, { stream: true });
      let start = 0;
      let end;
      while ((end = text.indexOf('\n\n', start)) !== -1) {
        const at = text.indexOf('data: ', start);
        if (at !== -1 && at < end) onData(text.slice(at + 6, end));
        start = end + 2;
      }
      pending = start === text.length ? '' : text.slice(start);
    },
  });
  return subject;
}

/** eventsource-parser 3 for the framing, the same call state as the floor. */
function eventsourceParser(onResult) {
  const subject = new Subject();
  const decoder = new TextDecoder();
  const onData = calls(onResult);
  const parser = createParser({ onEvent: (e) => onData(e.data) });
  subject.subscribe({
    next: (chunk) => parser.feed(decoder.decode(chunk, { stream: true })),
  });
  return subject;
}

/** The library: `subject.pipe(readToolCalls(options))`, one subscription. */
function library(lib, options) {
  return (onResult) => {
    const subject = new Subject();
    // One `next` callback, like the floor's (an error without a handler is thrown by rxjs and ends the child).
    subject.pipe(lib.readToolCalls(options)).subscribe({
      next(result) {
        if (!result.success) throw result.error;
        onResult(result.data);
      },
    });
    return subject;
  };
}

/** Implementation keys and labels, in table order. */
export const IMPLS = [
  { key: 'library', label: "`readToolCalls({ provider: 'openai-chat' })`", usesDist: true },
  { key: 'library-auto', label: '`readToolCalls()` (auto-detect)', usesDist: true },
  { key: 'floor', label: 'floor in a Subject', usesDist: false },
  { key: 'eventsource-parser', label: 'eventsource-parser 3 in a Subject', usesDist: false },
];

/** The `open(onResult)` of `key`, loading the library from `dist` when it needs it. */
export async function opener(key, dist) {
  if (key === 'floor') return floor;
  if (key === 'eventsource-parser') return eventsourceParser;
  const lib = await import(new URL(`file://${dist}/index.js`).href);
  return library(lib, key === 'library' ? { provider: 'openai-chat' } : {});
}
