/**
 * Assistant turns with reasoning, written as each wire format streams them, and the assistant
 * message a tool loop must send back for each (verbatim, in order): shared by the property test
 * and the scripted servers of the end-to-end tests.
 */
import { anthropicEvent, openaiChunk, openaiDone, responsesEvent, sseEvent } from 'rxjs-tool-calls/marbles';

/** A reasoning block: Anthropic `thinking` (signed), chat `reasoning_content`, Gemini thought parts. */
export interface ThinkingBlock {
  readonly kind: 'thinking';
  readonly pieces: ReadonlyArray<string>;
  /** Anthropic: always; Gemini: on the last piece when present; chat: never. */
  readonly signature?: string;
  /** Chat: streamed in `delta.reasoning` (Groq, Cerebras, OpenRouter) instead of `reasoning_content`. */
  readonly field?: 'reasoning';
}
/** Anthropic `redacted_thinking`. */
export interface RedactedBlock {
  readonly kind: 'redacted';
  readonly data: string;
}
/** A Responses `reasoning` item. */
export interface ReasoningItemBlock {
  readonly kind: 'reasoning-item';
  readonly id: string;
  /** Summary parts, each streamed in pieces. */
  readonly summary: ReadonlyArray<ReadonlyArray<string>>;
  readonly encrypted?: string;
}
/** Visible text; Gemini: a signature on its last piece, or (`signatureApart`) on an empty part after it. */
export interface TextBlock {
  readonly kind: 'text';
  readonly pieces: ReadonlyArray<string>;
  readonly signature?: string;
  readonly signatureApart?: boolean;
}
/** A tool call (Gemini: with its part's signature when present). */
export interface CallBlock {
  readonly kind: 'call';
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly signature?: string;
}
export type TurnBlock = ThinkingBlock | RedactedBlock | ReasoningItemBlock | TextBlock | CallBlock;
export type TurnFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

const joined = (pieces: ReadonlyArray<string>): string => pieces.join('');
const halves = (args: unknown): [string, string] => {
  const json = JSON.stringify(args);
  const cut = Math.floor(json.length / 2);
  return [json.slice(0, cut), json.slice(cut)];
};
/** The Responses `function_call` item id of a call. */
export const fcId = (call: CallBlock): string => `fc_${call.id}`;

// --- Anthropic --------------------------------------------------------------------------------

const messageStart = anthropicEvent('message_start', { message: { id: 'msg_t', type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: { input_tokens: 5, output_tokens: 1 } } });

export function anthropicTurn(blocks: ReadonlyArray<TurnBlock>, stopReason = 'tool_use'): string[] {
  const out = [messageStart];
  blocks.forEach((block, index) => {
    const delta = (d: Record<string, unknown>): string => anthropicEvent('content_block_delta', { index, delta: d });
    const start = (content_block: Record<string, unknown>): string => anthropicEvent('content_block_start', { index, content_block });
    if (block.kind === 'thinking') {
      out.push(start({ type: 'thinking', thinking: '', signature: '' }), ...block.pieces.map((p) => delta({ type: 'thinking_delta', thinking: p })));
      if (block.signature !== undefined) out.push(delta({ type: 'signature_delta', signature: block.signature }));
    } else if (block.kind === 'redacted') {
      out.push(start({ type: 'redacted_thinking', data: block.data }));
    } else if (block.kind === 'text') {
      out.push(start({ type: 'text', text: '' }), ...block.pieces.map((p) => delta({ type: 'text_delta', text: p })));
    } else if (block.kind === 'call') {
      const [a, b] = halves(block.args);
      out.push(start({ type: 'tool_use', id: block.id, name: block.name, input: {} }), delta({ type: 'input_json_delta', partial_json: a }), delta({ type: 'input_json_delta', partial_json: b }));
    }
    out.push(anthropicEvent('content_block_stop', { index }));
  });
  return [...out, anthropicEvent('message_delta', { delta: { stop_reason: stopReason }, usage: { output_tokens: 9 } }), anthropicEvent('message_stop')];
}

/** The `assistant` message's blocks: in order, unmodified (adjacent text blocks join: text carries no signature). */
export function anthropicExpected(blocks: ReadonlyArray<TurnBlock>): unknown[] {
  const out: Array<Record<string, unknown>> = [];
  for (const block of blocks) {
    const last = out.at(-1);
    if (block.kind === 'thinking' && block.signature !== undefined) out.push({ type: 'thinking', thinking: joined(block.pieces), signature: block.signature });
    else if (block.kind === 'redacted') out.push({ type: 'redacted_thinking', data: block.data });
    else if (block.kind === 'text' && last?.['type'] === 'text') last['text'] = `${String(last['text'])}${joined(block.pieces)}`;
    else if (block.kind === 'text') out.push({ type: 'text', text: joined(block.pieces) });
    else if (block.kind === 'call') out.push({ type: 'tool_use', id: block.id, name: block.name, input: block.args });
  }
  return out;
}

// --- OpenAI Responses ------------------------------------------------------------------------

/** The final form of each output item (as `output_item.done` and `response.completed` carry it). */
function responsesItem(block: TurnBlock, index: number): Record<string, unknown> | undefined {
  if (block.kind === 'reasoning-item')
    return {
      id: block.id,
      type: 'reasoning',
      summary: block.summary.map((s) => ({ type: 'summary_text', text: joined(s) })),
      ...(block.encrypted === undefined ? {} : { encrypted_content: block.encrypted }),
    };
  if (block.kind === 'text') return { id: `msg_${index}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: joined(block.pieces), annotations: [] }] };
  if (block.kind === 'call') return { id: fcId(block), type: 'function_call', status: 'completed', arguments: JSON.stringify(block.args), call_id: block.id, name: block.name };
  return undefined;
}

export function responsesTurn(blocks: ReadonlyArray<TurnBlock>, responseId = 'resp_t'): string[] {
  const response = { id: responseId, object: 'response', model: 'gpt-test', status: 'in_progress', output: [] };
  const out = [responsesEvent('response.created', { response })];
  blocks.forEach((block, output_index) => {
    const item = responsesItem(block, output_index);
    if (item === undefined) return;
    const id = String(item['id']);
    if (block.kind === 'reasoning-item') {
      out.push(responsesEvent('response.output_item.added', { output_index, item: { id, type: 'reasoning', summary: [] } }));
      block.summary.forEach((pieces, summary_index) => {
        const at = { item_id: id, output_index, summary_index };
        out.push(responsesEvent('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } }));
        for (const delta of pieces) out.push(responsesEvent('response.reasoning_summary_text.delta', { ...at, delta }));
        out.push(
          responsesEvent('response.reasoning_summary_text.done', { ...at, text: joined(pieces) }),
          responsesEvent('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text: joined(pieces) } }),
        );
      });
    } else if (block.kind === 'text') {
      out.push(responsesEvent('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }));
      for (const delta of block.pieces) out.push(responsesEvent('response.output_text.delta', { item_id: id, output_index, content_index: 0, delta }));
    } else if (block.kind === 'call') {
      const [a, b] = halves(block.args);
      out.push(responsesEvent('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } }));
      for (const delta of [a, b]) out.push(responsesEvent('response.function_call_arguments.delta', { item_id: id, output_index, delta }));
      out.push(responsesEvent('response.function_call_arguments.done', { item_id: id, output_index, arguments: JSON.stringify(block.args) }));
    }
    out.push(responsesEvent('response.output_item.done', { output_index, item }));
  });
  const output = blocks.flatMap((b, i) => responsesItem(b, i) ?? []);
  return [...out, responsesEvent('response.completed', { response: { ...response, status: 'completed', output, usage: { input_tokens: 5, output_tokens: 9, total_tokens: 14 } } })];
}

/** The input items of the turn: reasoning items whole, text, calls (with their `fc_` ids when the turn had reasoning). */
export function responsesExpected(blocks: ReadonlyArray<TurnBlock>): unknown[] {
  const withReasoning = blocks.some((b) => b.kind === 'reasoning-item');
  const out: Array<Record<string, unknown>> = [];
  for (const block of blocks) {
    const last = out.at(-1);
    if (block.kind === 'reasoning-item')
      out.push({
        type: 'reasoning',
        id: block.id,
        summary: block.summary.map((s) => ({ type: 'summary_text', text: joined(s) })),
        ...(block.encrypted === undefined ? {} : { encrypted_content: block.encrypted }),
      });
    else if (block.kind === 'text' && last?.['role'] === 'assistant') last['content'] = `${String(last['content'])}${joined(block.pieces)}`;
    else if (block.kind === 'text') out.push({ role: 'assistant', content: joined(block.pieces) });
    else if (block.kind === 'call') out.push({ type: 'function_call', ...(withReasoning ? { id: fcId(block) } : {}), call_id: block.id, name: block.name, arguments: JSON.stringify(block.args) });
  }
  return out;
}

// --- OpenAI chat (DeepSeek-style reasoning_content) -------------------------------------------

export function chatTurn(blocks: ReadonlyArray<TurnBlock>): string[] {
  const out = [openaiChunk({ role: 'assistant' })];
  let calls = 0;
  for (const block of blocks) {
    if (block.kind === 'thinking')
      for (const reasoning of block.pieces)
        out.push(
          block.field === 'reasoning' ? sseEvent({ data: JSON.stringify({ id: 'chatcmpl-t', choices: [{ index: 0, delta: { reasoning }, finish_reason: null }] }) }) : openaiChunk({ reasoning }),
        );
    else if (block.kind === 'text') for (const content of block.pieces) out.push(openaiChunk({ content }));
    else if (block.kind === 'call') {
      const index = calls++;
      const [a, b] = halves(block.args);
      out.push(openaiChunk({ toolCalls: [{ index, id: block.id, name: block.name, arguments: a }] }), openaiChunk({ toolCalls: [{ index, arguments: b }] }));
    }
  }
  return [...out, openaiChunk({ finishReason: calls > 0 ? 'tool_calls' : 'stop' }), openaiDone()];
}

/** The assistant message: all text, the reasoning streamed in `reasoning_content` back in it (not that streamed in `reasoning`), the calls. */
export function chatExpected(blocks: ReadonlyArray<TurnBlock>): Record<string, unknown> {
  const text = blocks.flatMap((b) => (b.kind === 'text' ? b.pieces : [])).join('');
  const reasoning = blocks.flatMap((b) => (b.kind === 'thinking' && b.field === undefined ? b.pieces : [])).join('');
  const calls = blocks.flatMap((b) => (b.kind === 'call' ? [{ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.args) } }] : []));
  return { role: 'assistant', content: text === '' ? null : text, ...(reasoning === '' ? {} : { reasoning_content: reasoning }), ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

// --- Gemini ----------------------------------------------------------------------------------

const geminiParts = (parts: unknown[], finishReason?: string): string =>
  sseEvent({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }) }], modelVersion: 'gemini-test', responseId: 'g_t' }) });

export function geminiTurn(blocks: ReadonlyArray<TurnBlock>): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    const signed = (i: number, length: number, signature: string | undefined): Record<string, unknown> => (i === length - 1 && signature !== undefined ? { thoughtSignature: signature } : {});
    if (block.kind === 'thinking') block.pieces.forEach((text, i) => out.push(geminiParts([{ text, thought: true, ...signed(i, block.pieces.length, block.signature) }])));
    else if (block.kind === 'text') {
      const apart = block.signatureApart === true;
      block.pieces.forEach((text, i) => out.push(geminiParts([{ text, ...signed(i, block.pieces.length, apart ? undefined : block.signature) }])));
      if (apart && block.signature !== undefined) out.push(geminiParts([{ text: '', thoughtSignature: block.signature }]));
    } else if (block.kind === 'call')
      out.push(geminiParts([{ functionCall: { name: block.name, args: block.args }, ...(block.signature === undefined ? {} : { thoughtSignature: block.signature }) }]));
  }
  return [...out, geminiParts([], 'STOP')];
}

/**
 * The `model` content's parts: thought and text parts as streamed, each signature on its part;
 * consecutive pieces of one kind join until a signature ends a part.
 */
export function geminiExpected(blocks: ReadonlyArray<TurnBlock>): unknown[] {
  const out: Array<Record<string, unknown>> = [];
  for (const block of blocks) {
    if (block.kind === 'call') {
      out.push({ functionCall: { name: block.name, args: block.args }, ...(block.signature === undefined ? {} : { thoughtSignature: block.signature }) });
      continue;
    }
    if (block.kind !== 'thinking' && block.kind !== 'text') continue;
    const thought = block.kind === 'thinking';
    const last = out.at(-1);
    const open = last !== undefined && 'text' in last && (last['thought'] === true) === thought && last['thoughtSignature'] === undefined ? last : undefined;
    const part = open ?? { text: '', ...(thought ? { thought: true } : {}) };
    part['text'] = `${String(part['text'])}${joined(block.pieces)}`;
    if (block.signature !== undefined) part['thoughtSignature'] = block.signature;
    if (open === undefined) out.push(part);
  }
  return out;
}

// --- turns of every format, and final answers ----------------------------------------------

export function turnFor(format: TurnFormat, blocks: ReadonlyArray<TurnBlock>): string[] {
  switch (format) {
    case 'anthropic':
      return anthropicTurn(blocks);
    case 'openai-responses':
      return responsesTurn(blocks);
    case 'openai-chat':
      return chatTurn(blocks);
    case 'gemini':
      return geminiTurn(blocks);
  }
}

export function answerFor(format: TurnFormat, text: string): string[] {
  switch (format) {
    case 'anthropic':
      return anthropicTurn([{ kind: 'text', pieces: [text] }], 'end_turn');
    case 'openai-responses':
      return responsesTurn([{ kind: 'text', pieces: [text] }], 'resp_answer');
    case 'openai-chat':
      return chatTurn([{ kind: 'text', pieces: [text] }]);
    case 'gemini':
      return geminiTurn([{ kind: 'text', pieces: [text] }]);
  }
}

/** The assistant message (chat, Anthropic) or items / parts (Responses, Gemini) a loop sends back for the turn. */
export function expectedFor(format: TurnFormat, blocks: ReadonlyArray<TurnBlock>): unknown {
  switch (format) {
    case 'anthropic':
      return { role: 'assistant', content: anthropicExpected(blocks) };
    case 'openai-responses':
      return responsesExpected(blocks);
    case 'openai-chat':
      return chatExpected(blocks);
    case 'gemini':
      return { role: 'model', parts: geminiExpected(blocks) };
  }
}

// --- arbitraries ------------------------------------------------------------------------------
