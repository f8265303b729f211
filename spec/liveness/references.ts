/**
 * The reference readers of the liveness specs: what each wire format's records say of every tool
 * call's arguments so far, read straight from the records by each format's documented rules (the
 * shared fixtures' MANIFEST.md: deltas by index, Responses `.done` and finished items restating the
 * text, Anthropic `input` in the block start, Vertex `partialArgs` by JSON path). Small and written
 * apart from the library: the liveness specs compare the library's views with these.
 *
 * @module
 */
import type { ReferenceReader, WireCall, WireRecord } from './harness';

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A call being read: its text (or value) and whether it came whole. */
interface Building {
  choice: number;
  text: string;
  value?: unknown;
  whole: boolean;
  /** Text arrived in pieces (after which a whole restatement is no longer the first thing written). */
  streamed: boolean;
  /** A custom (freeform) tool's call: its text is its value. */
  custom?: boolean;
  /** The whole text a later record replaced (an encoder that restates at the call's end may show it until then). */
  superseded?: string;
}

const done = (calls: Building[], valued = false): WireCall[] =>
  calls.map((c) =>
    valued
      ? { choice: c.choice, value: c.value, whole: c.whole }
      : { choice: c.choice, text: c.text, whole: c.whole, ...(c.custom === true ? { custom: true } : {}), ...(c.superseded === undefined ? {} : { superseded: c.superseded }) },
  );

/** The text set whole on a call (a restatement): whole only when nothing was streamed before. */
function setWhole(call: Building, text: string): void {
  call.whole = !call.streamed && call.text === '';
  call.text = text;
}

function append(call: Building, text: string): void {
  if (text === '') return;
  call.text += text;
  call.streamed = true;
  call.whole = false;
}

/** OpenAI chat: fragments by `tool_calls[].index` (a new non-empty id at an index in use starts a call), else by id, else the last call. */
export const openaiChatReference: ReferenceReader = (records) => {
  const calls: Array<Building & { id?: string | undefined; name?: string | undefined }> = [];
  const byIndex = new Map<string, (typeof calls)[number]>();
  const last = new Map<number, (typeof calls)[number]>();
  for (const { data } of records) {
    if (!isRecord(data) || !Array.isArray(data['choices'])) continue;
    data['choices'].forEach((value: unknown, position: number) => {
      if (!isRecord(value)) return;
      const choice = typeof value['index'] === 'number' ? value['index'] : position;
      const delta = isRecord(value['delta']) ? value['delta'] : isRecord(value['message']) ? value['message'] : undefined;
      if (delta === undefined) return;
      const fragments: Json[] = Array.isArray(delta['tool_calls']) ? delta['tool_calls'].filter(isRecord) : isRecord(delta['tool_calls']) ? [delta['tool_calls']] : [];
      if (isRecord(delta['function_call'])) fragments.push({ function: delta['function_call'] });
      for (const fragment of fragments) {
        const fn = isRecord(fragment['function']) ? fragment['function'] : {};
        const index = typeof fragment['index'] === 'number' ? fragment['index'] : undefined;
        const id = str(fragment['id']);
        const name = str(fn['name']);
        const args = typeof fn['arguments'] === 'string' ? fn['arguments'] : fn['arguments'] === undefined || fn['arguments'] === null ? '' : JSON.stringify(fn['arguments']);
        let call: (typeof calls)[number] | undefined;
        if (index !== undefined) {
          const at = byIndex.get(`${choice}:${index}`);
          if (at !== undefined && !(id !== undefined && at.id !== undefined && at.id !== id)) call = at;
        } else {
          const previous = last.get(choice);
          if (id !== undefined) call = calls.find((c) => c.choice === choice && c.id === id) ?? (name === undefined ? previous : undefined);
          else if (name === undefined) call = previous;
          else if (previous !== undefined && (previous.name === undefined || (previous.name === name && previous.text === ''))) call = previous;
        }
        if (call === undefined) {
          call = { choice, text: '', whole: false, streamed: false };
          calls.push(call);
        }
        if (index !== undefined) byIndex.set(`${choice}:${index}`, call);
        call.id ??= id;
        call.name ??= name;
        append(call, args);
        last.set(choice, call);
      }
    });
  }
  return done(calls);
};

/** The event type of a record: its SSE name, or the payload's `type`. */
const typeOf = (record: WireRecord): string | undefined => (record.event !== 'message' ? record.event : isRecord(record.data) ? str(record.data['type']) : undefined);

/** OpenAI Responses: function-call items by `output_index`; `.done`, the finished item and the final response restate the text. */
export const openaiResponsesReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  const byIndex = new Map<number, Building>();
  const byItem = new Map<string, Building>();
  const textOf = (item: Json): string => (typeof item['arguments'] === 'string' ? item['arguments'] : typeof item['input'] === 'string' ? item['input'] : '');
  const isCall = (item: unknown): item is Json => isRecord(item) && (item['type'] === 'function_call' || item['type'] === 'custom_tool_call');
  const open = (index: number, item: Json): Building => {
    const call: Building = { choice: 0, text: '', whole: false, streamed: false, custom: item['type'] === 'custom_tool_call' };
    calls.push(call);
    byIndex.set(index, call);
    const id = str(item['id']);
    if (id !== undefined) byItem.set(id, call);
    return call;
  };
  const find = (data: Json): Building | undefined => (typeof data['output_index'] === 'number' ? byIndex.get(data['output_index']) : byItem.get(str(data['item_id']) ?? ''));
  for (const record of records) {
    const data = record.data;
    if (!isRecord(data)) continue;
    switch (typeOf(record)) {
      case 'response.output_item.added':
        if (isCall(data['item'])) {
          const call = open(typeof data['output_index'] === 'number' ? data['output_index'] : calls.length, data['item']);
          const text = textOf(data['item']);
          if (text !== '') setWhole(call, text);
        }
        break;
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
        const call = find(data);
        if (call !== undefined && typeof data['delta'] === 'string') append(call, data['delta']);
        break;
      }
      case 'response.function_call_arguments.done':
      case 'response.custom_tool_call_input.done': {
        const call = find(data);
        const text = str(data['arguments']) ?? str(data['input']);
        if (call !== undefined && text !== undefined && text !== call.text) setWhole(call, text);
        break;
      }
      case 'response.output_item.done':
        if (isCall(data['item'])) {
          const call = find(data) ?? open(typeof data['output_index'] === 'number' ? data['output_index'] : calls.length, data['item']);
          const text = textOf(data['item']);
          if (text !== '' && text !== call.text) setWhole(call, text);
        }
        break;
      case 'response.completed':
      case 'response.incomplete': {
        const output = isRecord(data['response']) ? data['response']['output'] : undefined;
        if (!Array.isArray(output)) break;
        output.forEach((item: unknown, position: number) => {
          if (!isCall(item)) return;
          const call = byItem.get(str(item['id']) ?? '') ?? byIndex.get(position) ?? open(position, item);
          const text = textOf(item);
          if (text !== '' && text !== call.text) setWhole(call, text);
        });
        break;
      }
      default:
        break;
    }
  }
  return done(calls);
};

/** Anthropic Messages events (also inside Bedrock InvokeModel chunks): `tool_use` blocks by index. */
function readAnthropic(events: ReadonlyArray<{ type: string | undefined; data: Json }>): Building[] {
  const calls: Building[] = [];
  const blocks = new Map<number, Building & { prefilled: boolean }>();
  for (const { type, data } of events) {
    if (type === 'message_start' && isRecord(data['message']) && Array.isArray(data['message']['content'])) {
      for (const block of data['message']['content']) {
        if (!isRecord(block) || block['type'] !== 'tool_use') continue;
        const call: Building = { choice: 0, text: '', whole: false, streamed: false };
        setWhole(call, JSON.stringify(block['input'] ?? {}));
        calls.push(call);
      }
    } else if (type === 'content_block_start' && isRecord(data['content_block']) && data['content_block']['type'] === 'tool_use') {
      const input = data['content_block']['input'];
      const call = { choice: 0, text: '', whole: false, streamed: false, prefilled: false };
      if (isRecord(input) && Object.keys(input).length > 0) {
        setWhole(call, JSON.stringify(input));
        call.prefilled = true;
      }
      calls.push(call);
      blocks.set(typeof data['index'] === 'number' ? data['index'] : -1, call);
    } else if (type === 'content_block_delta' && isRecord(data['delta']) && data['delta']['type'] === 'input_json_delta') {
      const call = blocks.get(typeof data['index'] === 'number' ? data['index'] : -1);
      const piece = data['delta']['partial_json'];
      if (call === undefined || typeof piece !== 'string' || piece === '') continue;
      if (call.prefilled) {
        // The first piece replaces the whole value the start gave: a whole value again, in one record.
        call.prefilled = false;
        call.superseded = call.text;
        call.text = piece;
        continue;
      }
      append(call, piece);
    }
  }
  return calls;
}

export const anthropicReference: ReferenceReader = (records) => done(readAnthropic(records.filter((r) => isRecord(r.data)).map((r) => ({ type: typeOf(r), data: r.data as Json }))));

/** Bedrock InvokeModel: each chunk frame carries one Anthropic event (the fixtures' frames hold it decoded, as `chunk`). */
export const bedrockInvokeModelReference: ReferenceReader = (records) =>
  done(readAnthropic(records.filter((r) => isRecord(r.data)).map((r) => ({ type: str((r.data as Json)['type']), data: r.data as Json }))));

/** Cohere v2: `tool-call-start` (with any arguments) and `tool-call-delta` by index. */
export const cohereReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  const byIndex = new Map<number, Building>();
  for (const record of records) {
    const data = record.data;
    if (!isRecord(data)) continue;
    const message = isRecord(data['delta']) && isRecord(data['delta']['message']) ? data['delta']['message'] : {};
    const fn = isRecord(message['tool_calls']) && isRecord(message['tool_calls']['function']) ? message['tool_calls']['function'] : {};
    const index = typeof data['index'] === 'number' ? data['index'] : -1;
    const type = typeOf(record);
    if (type === 'tool-call-start') {
      const call: Building = { choice: 0, text: '', whole: false, streamed: false };
      calls.push(call);
      byIndex.set(index, call);
      if (typeof fn['arguments'] === 'string') append(call, fn['arguments']);
    } else if (type === 'tool-call-delta') {
      const call = byIndex.get(index);
      if (call !== undefined && typeof fn['arguments'] === 'string') append(call, fn['arguments']);
    }
  }
  return done(calls);
};

/** Bedrock Converse: `toolUse` blocks by `contentBlockIndex`, their input text in `delta.toolUse.input`. */
export const bedrockConverseReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  const byIndex = new Map<number, Building>();
  for (const { event, data } of records) {
    if (!isRecord(data)) continue;
    const index = typeof data['contentBlockIndex'] === 'number' ? data['contentBlockIndex'] : -1;
    if (event === 'contentBlockStart' && isRecord(data['start']) && isRecord(data['start']['toolUse'])) {
      const call: Building = { choice: 0, text: '', whole: false, streamed: false };
      calls.push(call);
      byIndex.set(index, call);
    } else if (event === 'contentBlockDelta' && isRecord(data['delta']) && isRecord(data['delta']['toolUse'])) {
      const call = byIndex.get(index);
      const input = data['delta']['toolUse']['input'];
      if (call !== undefined && typeof input === 'string') append(call, input);
    }
  }
  return done(calls);
};

/** Ollama `/api/chat`: each line's `message.tool_calls`, every call whole. */
export const ollamaReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  for (const { data } of records) {
    const message = isRecord(data) && isRecord(data['message']) ? data['message'] : undefined;
    if (message === undefined || !Array.isArray(message['tool_calls'])) continue;
    for (const entry of message['tool_calls']) {
      const fn = isRecord(entry) && isRecord(entry['function']) ? entry['function'] : undefined;
      if (fn === undefined) continue;
      const args = fn['arguments'];
      calls.push({ choice: 0, text: '', value: typeof args === 'string' ? (JSON.parse(args) as unknown) : (args ?? {}), whole: true, streamed: false });
    }
  }
  return done(calls, true);
};

/** A `jsonPath` (`$.a[0]['b c']`, a final `[]`) as its steps. */
function steps(path: string): { keys: Array<string | number>; array: boolean } {
  const keys: Array<string | number> = [];
  const array = path.endsWith('[]');
  const re = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;
  for (const m of (array ? path.slice(0, -2) : path).slice(1).matchAll(re)) keys.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4] ?? ''));
  return { keys, array };
}

/** Set one `partialArgs` entry on `root`: strings append, other values replace, an entry without either creates its container. */
function applyEntry(root: Json, entry: Json): void {
  const { keys, array } = steps(String(entry['jsonPath']));
  let at: Json | unknown[] = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i] as string | number;
    const next: unknown = (at as Record<string | number, unknown>)[key];
    if (typeof next !== 'object' || next === null) (at as Record<string | number, unknown>)[key] = typeof keys[i + 1] === 'number' ? [] : {};
    at = (at as Record<string | number, unknown>)[key] as Json | unknown[];
  }
  const leaf = keys[keys.length - 1] as string | number;
  const holder = at as Record<string | number, unknown>;
  if ('stringValue' in entry) holder[leaf] = (typeof holder[leaf] === 'string' ? (holder[leaf] as string) : '') + String(entry['stringValue']);
  else if ('numberValue' in entry) holder[leaf] = entry['numberValue'];
  else if ('boolValue' in entry) holder[leaf] = entry['boolValue'];
  else if ('nullValue' in entry) holder[leaf] = null;
  else if ('listValue' in entry) holder[leaf] = isRecord(entry['listValue']) ? entry['listValue']['values'] : entry['listValue'];
  else if ('structValue' in entry) holder[leaf] = entry['structValue'];
  else if (entry['willContinue'] !== true && holder[leaf] === undefined) holder[leaf] = array ? [] : {};
}

/** Gemini / Vertex: a named `functionCall` opens a call (whole `args`, or streamed `partialArgs` by JSON path until its end). */
export const geminiReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  let open: Building | undefined;
  for (const { data } of records) {
    const candidates = isRecord(data) && Array.isArray(data['candidates']) ? data['candidates'] : [];
    for (const candidate of candidates) {
      const parts = isRecord(candidate) && isRecord(candidate['content']) && Array.isArray(candidate['content']['parts']) ? candidate['content']['parts'] : [];
      for (const part of parts) {
        const call = isRecord(part) && isRecord(part['functionCall']) ? part['functionCall'] : undefined;
        if (call === undefined) continue;
        const streamed = Array.isArray(call['partialArgs']) || call['willContinue'] === true;
        if (str(call['name']) !== undefined) {
          const value = structuredClone(isRecord(call['args']) ? call['args'] : {});
          const building: Building = { choice: 0, text: '', value, whole: !streamed, streamed };
          calls.push(building);
          open = streamed ? building : undefined;
        }
        if (open !== undefined && Array.isArray(call['partialArgs'])) for (const entry of call['partialArgs']) if (isRecord(entry)) applyEntry(open.value as Json, entry);
      }
    }
  }
  return calls.map((c) => ({ choice: c.choice, value: structuredClone(c.value), whole: c.whole }));
};

/** Gemini Interactions: `function_call` steps by `index`, their text in `arguments_delta`s (arguments given whole in `step.start` are replaced by the first piece). */
export const geminiInteractionsReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  const steps = new Map<number, Building & { prefilled: boolean }>();
  for (const record of records) {
    const data = record.data;
    if (!isRecord(data)) continue;
    const type = record.event !== 'message' ? record.event : str(data['event_type']);
    const index = typeof data['index'] === 'number' ? data['index'] : -1;
    if (type === 'step.start') {
      steps.delete(index);
      const step = data['step'];
      if (!isRecord(step) || step['type'] !== 'function_call') continue;
      const call = { choice: 0, text: '', whole: false, streamed: false, prefilled: false };
      const args = step['arguments'];
      if (isRecord(args) && Object.keys(args).length > 0) {
        setWhole(call, JSON.stringify(args));
        call.prefilled = true;
      }
      calls.push(call);
      steps.set(index, call);
    } else if (type === 'step.delta' && isRecord(data['delta']) && data['delta']['type'] === 'arguments_delta') {
      const call = steps.get(index);
      const piece = data['delta']['arguments'];
      if (call === undefined || typeof piece !== 'string' || piece === '') continue;
      if (call.prefilled) {
        // The first piece replaces the whole value the start gave: a whole value again, in one record.
        call.prefilled = false;
        call.superseded = call.text;
        call.text = piece;
        continue;
      }
      append(call, piece);
    }
  }
  return done(calls);
};

/** Deep equality of parsed JSON (key order aside); text that does not parse equals nothing. */
function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(sortKeys(JSON.parse(text))) === JSON.stringify(sortKeys(value));
  } catch {
    return false;
  }
}
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/**
 * AI SDK UI message stream: calls by `toolCallId` (`tool-input-start`, `tool-input-delta`s), the
 * final input of `tool-input-available` / `tool-input-error` restating the text when its value
 * differs (a custom tool's input, and a failed call's, is its text); tools the provider ran are no calls.
 */
export const aiSdkUiReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  const open = new Map<string, Building & { custom: boolean }>();
  const seen = new Set<string>();
  const runs = new Set<string>();
  const start = (id: string, custom: boolean): Building & { custom: boolean } => {
    const call = { choice: 0, text: '', whole: false, streamed: false, custom };
    calls.push(call);
    open.set(id, call);
    seen.add(id);
    return call;
  };
  for (const { data } of records) {
    if (!isRecord(data)) continue;
    const id = str(data['toolCallId']);
    if (id === undefined) continue;
    if (data['providerExecuted'] === true) runs.add(id);
    if (runs.has(id)) continue;
    switch (data['type']) {
      case 'tool-input-start':
        if (!open.has(id)) start(id, data['inputEncoding'] === 'text');
        break;
      case 'tool-input-delta': {
        if (seen.has(id) && !open.has(id)) break; // after the call's end
        const call = open.get(id) ?? start(id, false);
        if (typeof data['inputTextDelta'] === 'string') append(call, data['inputTextDelta']);
        break;
      }
      case 'tool-input-available':
      case 'tool-input-error': {
        const input = data['input'];
        const call = open.get(id);
        const asText = (call?.custom === true || data['type'] === 'tool-input-error') && typeof input === 'string';
        const text = asText ? input : input === undefined ? undefined : JSON.stringify(input);
        if (call === undefined) {
          setWhole(start(id, false), text ?? '');
        } else if (text !== undefined && text !== call.text && !(!asText && sameJson(call.text, input))) setWhole(call, text);
        open.delete(id);
        break;
      }
      default:
        break;
    }
  }
  return done(calls);
};

/** AG-UI: calls by `toolCallId` (`TOOL_CALL_START`, `TOOL_CALL_ARGS` until `TOOL_CALL_END`), and `TOOL_CALL_CHUNK`s (a new id opens a call, none continues the one being assembled). */
export const agUiReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  const open = new Map<string, Building>();
  const seen = new Set<string>();
  let chunked: string | undefined;
  const start = (id: string): Building => {
    const call: Building = { choice: 0, text: '', whole: false, streamed: false };
    calls.push(call);
    open.set(id, call);
    seen.add(id);
    return call;
  };
  const args = (id: string, delta: unknown): void => {
    if (typeof delta !== 'string' || (seen.has(id) && !open.has(id))) return;
    append(open.get(id) ?? start(id), delta);
  };
  for (const { data } of records) {
    if (!isRecord(data)) continue;
    const id = str(data['toolCallId']);
    const type = data['type'];
    if (type === 'TOOL_CALL_CHUNK') {
      if (id !== undefined && id !== chunked) {
        if (chunked !== undefined) open.delete(chunked);
        chunked = id;
        if (!open.has(id)) start(id);
      }
      if (chunked !== undefined) args(chunked, data['delta']);
      continue;
    }
    if (chunked !== undefined) open.delete(chunked); // any other event ends the call the chunks assembled
    chunked = undefined;
    if (id === undefined) continue;
    if (type === 'TOOL_CALL_START' && !open.has(id)) start(id);
    else if (type === 'TOOL_CALL_ARGS') args(id, data['delta']);
    else if (type === 'TOOL_CALL_END') open.delete(id);
  }
  return done(calls);
};

/** OpenAI Realtime: `function_call` items by `call_id` (and item id), session-wide; `.done`, the finished item and `response.done`'s output restate the text. */
export const openaiRealtimeReference: ReferenceReader = (records) => {
  const calls: Building[] = [];
  const byKey = new Map<string, Building>();
  const isCall = (item: unknown): item is Json => isRecord(item) && item['type'] === 'function_call';
  const keyOf = (item: Json): string => str(item['call_id']) ?? str(item['id']) ?? '';
  const callOf = (item: Json): Building => {
    const known = byKey.get(keyOf(item)) ?? byKey.get(str(item['id']) ?? '');
    if (known !== undefined) return known;
    const call: Building = { choice: 0, text: '', whole: false, streamed: false };
    calls.push(call);
    byKey.set(keyOf(item), call);
    const itemId = str(item['id']);
    if (itemId !== undefined) byKey.set(itemId, call);
    return call;
  };
  const restate = (call: Building, text: unknown): void => {
    if (typeof text === 'string' && text !== '' && text !== call.text) setWhole(call, text);
  };
  for (const { data } of records) {
    if (!isRecord(data)) continue;
    switch (data['type']) {
      case 'response.output_item.added':
      case 'response.output_item.done':
        if (isCall(data['item'])) restate(callOf(data['item']), data['item']['arguments']);
        break;
      case 'response.function_call_arguments.delta': {
        const call = byKey.get(str(data['call_id']) ?? '') ?? byKey.get(str(data['item_id']) ?? '');
        if (call !== undefined && typeof data['delta'] === 'string') append(call, data['delta']);
        break;
      }
      case 'response.function_call_arguments.done': {
        const call = byKey.get(str(data['call_id']) ?? '') ?? byKey.get(str(data['item_id']) ?? '');
        if (call !== undefined) restate(call, data['arguments']);
        break;
      }
      case 'response.done': {
        const output = isRecord(data['response']) ? data['response']['output'] : undefined;
        if (Array.isArray(output)) for (const item of output) if (isCall(item)) restate(callOf(item), item['arguments']);
        break;
      }
      default:
        break;
    }
  }
  return done(calls);
};
