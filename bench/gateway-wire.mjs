// The wire of bench/gateway.mjs: what the scripted Anthropic upstream sends for stream `s`, the
// byte that marks its first tool argument, and the checks of what a client received — through the
// gateway (OpenAI chat SSE) or through the pass-through proxy (the upstream's Anthropic SSE
// unchanged): exactly one call per stream, with its id, name and arguments byte for byte.

/** Text deltas before the call. */
const TEXT = ['Checking ', 'the ', 'weather ', 'for ', 'you.'];
/** Characters per argument fragment (a model streams a few characters per token). */
const FRAGMENT = 8;

/** The first characters of every call's arguments: what the clients look for (escaped, as both wires carry it inside a JSON string). */
export const MARKER = '{\\"stream';

/** The arguments of stream `s`'s call (about 200 characters). */
export function argumentsOf(s) {
  return JSON.stringify({ stream: `s${s}`, city: 'Paris', country: 'France', days: [1, 2, 3, 4, 5], units: 'metric', note: `forecast for stream ${s}, hourly, with wind and rain` });
}

/** The tool call stream `s` must deliver. */
export function expectedCall(s) {
  return { id: `toolu_${s}`, name: 'get_weather', arguments: argumentsOf(s) };
}

const event = (type, payload) => `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

/**
 * The Anthropic SSE events of stream `s`, one string per network write, and which write holds the
 * first argument fragment.
 *
 * @returns {{ writes: string[], firstArgument: number }}
 */
export function upstreamWrites(s) {
  const writes = [
    event('message_start', { message: { id: `msg_${s}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: 50, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (const text of TEXT) writes.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
  writes.push(event('content_block_stop', { index: 0 }) + event('content_block_start', { index: 1, content_block: { type: 'tool_use', id: `toolu_${s}`, name: 'get_weather', input: {} } }));
  const args = argumentsOf(s);
  const firstArgument = writes.length;
  for (let i = 0; i < args.length; i += FRAGMENT) writes.push(event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: args.slice(i, i + FRAGMENT) } }));
  writes.push(event('content_block_stop', { index: 1 }));
  writes.push(event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 40 } }) + event('message_stop', {}));
  return { writes, firstArgument };
}

/** The stream number a request is for: its first user message is `stream <s>` (the gateway's Anthropic body and the client's OpenAI body alike). */
export function streamOf(body) {
  const content = body?.messages?.[0]?.content;
  const match = /^stream (\d+)$/.exec(typeof content === 'string' ? content : '');
  return match === null ? -1 : Number(match[1]);
}

/** The `data:` payloads of an SSE body, parsed; `null` for one that is not JSON (`[DONE]` as the string). */
function payloads(text) {
  const out = [];
  for (const block of text.split('\n\n')) {
    const line = block.split('\n').find((l) => l.startsWith('data: '));
    if (line === undefined) continue;
    const data = line.slice(6);
    if (data === '[DONE]') out.push(data);
    else {
      try {
        out.push(JSON.parse(data));
      } catch {
        out.push(null);
      }
    }
  }
  return out;
}

/** The calls in an OpenAI chat SSE body (by `tool_calls[].index`), and whether it ended properly. */
export function callsOfChat(text) {
  const calls = new Map();
  let ended = false;
  let corrupt = false;
  for (const data of payloads(text)) {
    if (data === '[DONE]') ended = true;
    else if (data === null) corrupt = true;
    else
      for (const delta of data.choices?.[0]?.delta?.tool_calls ?? []) {
        const call = calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
        call.id += delta.id ?? '';
        call.name += delta.function?.name ?? '';
        call.arguments += delta.function?.arguments ?? '';
        calls.set(delta.index, call);
      }
  }
  return { calls: [...calls.values()], ended, corrupt };
}

/** The calls in an Anthropic SSE body (by content block index), and whether it ended properly. */
export function callsOfAnthropic(text) {
  const calls = new Map();
  let ended = false;
  let corrupt = false;
  for (const data of payloads(text)) {
    if (data === null) corrupt = true;
    else if (data.type === 'message_stop') ended = true;
    else if (data.type === 'content_block_start' && data.content_block?.type === 'tool_use') calls.set(data.index, { id: data.content_block.id, name: data.content_block.name, arguments: '' });
    else if (data.type === 'content_block_delta' && data.delta?.type === 'input_json_delta') {
      const call = calls.get(data.index);
      if (call === undefined) corrupt = true;
      else call.arguments += data.delta.partial_json;
    }
  }
  return { calls: [...calls.values()], ended, corrupt };
}

/**
 * Check what stream `s`'s client received. `lost`: no call, or the body did not end properly;
 * `duplicated`: more than one call; `corrupted`: a call whose id, name or arguments differ, or an
 * event that is not JSON.
 *
 * @param {'chat' | 'anthropic'} wire
 * @returns {{ ok: boolean, lost: boolean, duplicated: boolean, corrupted: boolean }}
 */
export function checkStream(wire, s, text) {
  const { calls, ended, corrupt } = wire === 'chat' ? callsOfChat(text) : callsOfAnthropic(text);
  const want = expectedCall(s);
  const lost = calls.length === 0 || !ended;
  const duplicated = calls.length > 1;
  const corrupted = corrupt || calls.some((c) => c.id !== want.id || c.name !== want.name || c.arguments !== want.arguments);
  return { ok: !lost && !duplicated && !corrupted, lost, duplicated, corrupted };
}
