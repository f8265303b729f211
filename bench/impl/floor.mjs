// The floor: the least work that still decodes the stream correctly. Streaming TextDecoder, split
// on blank lines, take the `data: ` line, JSON.parse each event, append argument text per call
// index, one JSON.parse per call at the end. Anything slower than this pays for something.

/** Feed decoded SSE events (their `data:` payload text) to `onData`. */
function eachData(chunks, onData) {
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

function openaiChat(chunks) {
  const ids = [];
  const names = [];
  const args = [];
  eachData(chunks, (data) => {
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
  eachData(chunks, (data) => {
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
  eachData(chunks, (data) => {
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
  key: 'floor',
  label: 'floor (hand-written loop)',
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
