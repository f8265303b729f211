// The wire side of bench/scenarios.mjs: one SSE byte stream per format (OpenAI Chat Completions,
// Anthropic Messages, OpenAI Responses) from a list of calls, shaped the way each API streams them.

const CREATED = 1764460800; // fixed timestamp: 2025-11-30T00:00:00Z

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------------------------

/**
 * @param {object} rng
 * @param {Array<{ id: string, name: string, fragments: string[] }>} calls
 * @param {{ interleave: boolean }} options
 */
export function openaiChatSse(rng, calls, { interleave }) {
  const id = 'chatcmpl-' + randomId(rng, 29);
  const model = 'gpt-4o-2024-08-06';
  const fingerprint = 'fp_' + randomId(rng, 10).toLowerCase();
  const parts = [];
  const chunk = (delta, finishReason = null) =>
    parts.push(
      'data: ' +
        JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created: CREATED,
          model,
          system_fingerprint: fingerprint,
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        }) +
        '\n\n',
    );
  chunk({ role: 'assistant', content: null, refusal: null });
  const started = calls.map(() => false);
  const cursor = calls.map(() => 0);
  const emitFragment = (i) => {
    const call = calls[i];
    const args = call.fragments[cursor[i]++];
    if (!started[i]) {
      started[i] = true;
      chunk({ tool_calls: [{ index: i, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    }
    chunk({ tool_calls: [{ index: i, function: { arguments: args } }] });
  };
  if (interleave) {
    const open = calls.map((_, i) => i);
    while (open.length) {
      const k = rng.int(0, open.length - 1);
      const i = open[k];
      emitFragment(i);
      if (cursor[i] === calls[i].fragments.length) open.splice(k, 1);
    }
  } else {
    for (let i = 0; i < calls.length; i++) while (cursor[i] < calls[i].fragments.length) emitFragment(i);
  }
  chunk({}, 'tool_calls');
  // stream_options.include_usage: a last chunk with no choices.
  parts.push(
    'data: ' +
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: CREATED,
        model,
        system_fingerprint: fingerprint,
        choices: [],
        usage: { prompt_tokens: 812, completion_tokens: 4000, total_tokens: 4812 },
      }) +
      '\n\n',
  );
  parts.push('data: [DONE]\n\n');
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages
// ---------------------------------------------------------------------------------------------

export function anthropicSse(rng, calls, preamble) {
  const parts = [];
  const event = (name, data) => parts.push('event: ' + name + '\ndata: ' + JSON.stringify(data) + '\n\n');
  const model = 'claude-sonnet-4-5-20250929';
  event('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_' + randomId(rng, 24),
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 812, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    },
  });
  event('ping', { type: 'ping' });
  let block = 0;
  event('content_block_start', { type: 'content_block_start', index: block, content_block: { type: 'text', text: '' } });
  for (const text of preamble) event('content_block_delta', { type: 'content_block_delta', index: block, delta: { type: 'text_delta', text } });
  event('content_block_stop', { type: 'content_block_stop', index: block });
  for (const call of calls) {
    block++;
    event('content_block_start', { type: 'content_block_start', index: block, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    for (const partial_json of call.fragments) {
      event('content_block_delta', { type: 'content_block_delta', index: block, delta: { type: 'input_json_delta', partial_json } });
    }
    event('content_block_stop', { type: 'content_block_stop', index: block });
  }
  event('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 4000 } });
  event('message_stop', { type: 'message_stop' });
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------------------------

export function responsesSse(rng, calls) {
  const parts = [];
  let seq = 0;
  const event = (type, data) => parts.push('event: ' + type + '\ndata: ' + JSON.stringify({ type, sequence_number: seq++, ...data }) + '\n\n');
  const model = 'gpt-4.1-2025-04-14';
  const base = {
    id: 'resp_' + randomId(rng, 40),
    object: 'response',
    created_at: CREATED,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: null,
    user: null,
    metadata: {},
  };
  event('response.created', { response: { ...base, status: 'in_progress', output: [] } });
  event('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } });
  const done = [];
  calls.forEach((call, outputIndex) => {
    const itemId = 'fc_' + randomId(rng, 40);
    const item = { id: itemId, type: 'function_call', status: 'in_progress', arguments: '', call_id: call.id, name: call.name };
    event('response.output_item.added', { output_index: outputIndex, item });
    for (const delta of call.fragments) event('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta });
    const args = call.fragments.join('');
    event('response.function_call_arguments.done', { item_id: itemId, output_index: outputIndex, arguments: args });
    const finished = { ...item, status: 'completed', arguments: args };
    event('response.output_item.done', { output_index: outputIndex, item: finished });
    done.push(finished);
  });
  event('response.completed', {
    response: {
      ...base,
      status: 'completed',
      output: done,
      usage: { input_tokens: 812, input_tokens_details: { cached_tokens: 0 }, output_tokens: 4000, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 4812 },
    },
  });
  return parts.join('');
}

/** A lowercase-alphanumeric id of `length` characters. */
export function randomId(rng, length) {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[rng.next() % alphabet.length];
  return out;
}
