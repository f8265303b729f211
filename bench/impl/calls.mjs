// The least work that turns a stream's `data:` payloads into its tool calls: JSON.parse each event,
// append argument text per call index, one JSON.parse per call at the end. Shared by the floor and
// the eventsource-parser row, which differ only in how they find the payloads (`eachData`).

function openaiChat(chunks, eachData) {
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

function anthropic(chunks, eachData) {
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

function openaiResponses(chunks, eachData) {
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

/**
 * The calls of `chunks` in `format`, with `eachData(chunks, onData)` finding the SSE payloads.
 * @param {Uint8Array[]} chunks
 * @param {string} format
 * @param {(chunks: Uint8Array[], onData: (data: string) => void) => void} eachData
 */
export function readCalls(chunks, format, eachData) {
  return BY_FORMAT[format](chunks, eachData);
}
