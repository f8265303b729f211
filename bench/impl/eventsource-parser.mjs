// eventsource-parser 3.x for the SSE framing, then JSON.parse + the same per-index append as the floor.
import { createParser } from 'eventsource-parser';

function parseAll(chunks, onData) {
  const parser = createParser({ onEvent: (event) => onData(event.data) });
  const decoder = new TextDecoder();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  const tail = decoder.decode();
  if (tail) parser.feed(tail);
}

function openaiChat(chunks) {
  const ids = [];
  const names = [];
  const args = [];
  parseAll(chunks, (data) => {
    if (data === '[DONE]') return;
    const toolCalls = JSON.parse(data).choices[0]?.delta?.tool_calls;
    if (!toolCalls) return;
    for (const tc of toolCalls) {
      const i = tc.index;
      if (tc.id) ids[i] = tc.id;
      if (tc.function?.name) names[i] = tc.function.name;
      args[i] = (args[i] ?? '') + (tc.function?.arguments ?? '');
    }
  });
  return args.map((text, i) => ({ id: ids[i], name: names[i], arguments: JSON.parse(text) }));
}

function anthropic(chunks) {
  const ids = [];
  const names = [];
  const args = [];
  parseAll(chunks, (data) => {
    const ev = JSON.parse(data);
    if (ev.type === 'content_block_delta') {
      if (ev.delta.type === 'input_json_delta') args[ev.index] += ev.delta.partial_json;
    } else if (ev.type === 'content_block_start' && ev.content_block.type === 'tool_use') {
      ids[ev.index] = ev.content_block.id;
      names[ev.index] = ev.content_block.name;
      args[ev.index] = '';
    }
  });
  const calls = [];
  args.forEach((text, i) => calls.push({ id: ids[i], name: names[i], arguments: JSON.parse(text === '' ? '{}' : text) }));
  return calls;
}

function openaiResponses(chunks) {
  const ids = [];
  const names = [];
  const args = [];
  parseAll(chunks, (data) => {
    const ev = JSON.parse(data);
    if (ev.type === 'response.function_call_arguments.delta') args[ev.output_index] += ev.delta;
    else if (ev.type === 'response.output_item.added' && ev.item.type === 'function_call') {
      ids[ev.output_index] = ev.item.call_id;
      names[ev.output_index] = ev.item.name;
      args[ev.output_index] = ev.item.arguments ?? '';
    }
  });
  const calls = [];
  args.forEach((text, i) => calls.push({ id: ids[i], name: names[i], arguments: JSON.parse(text) }));
  return calls;
}

const BY_FORMAT = { 'openai-chat': openaiChat, anthropic, 'openai-responses': openaiResponses };

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
    return BY_FORMAT[format](chunks);
  },
};
