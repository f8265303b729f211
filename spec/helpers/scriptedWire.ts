/**
 * What the scripted model says, and how to read what it received back, per wire format.
 */
import type { MessageFormat } from 'rxjs-tool-calls/tools';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import type { ScriptedBody } from './scriptedModel';

export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** A tool result as the model received it. */
export interface ReceivedResult {
  readonly id: string;
  readonly content: string;
  readonly isError: boolean;
}

export interface ScriptedWire {
  readonly format: MessageFormat;
  /** A turn with some text, then the calls (each call's JSON split in two pieces). */
  calls(calls: ReadonlyArray<ScriptedCall>, text?: string): string[];
  /** The same turn, up to the point where its calls are complete, for streams held open after it (chat: through `[DONE]`, since a finish never closes calls; other formats: without their terminator). */
  callsOpen(calls: ReadonlyArray<ScriptedCall>): string[];
  /** A final answer. */
  answer(text: string): string[];
  /** The tool results at the end of the request's messages. */
  results(body: ScriptedBody): ReceivedResult[];
  /** The ids of the calls in the assistant turn before them. */
  callIds(body: ScriptedBody): string[];
}

const halves = (args: unknown): [string, string] => {
  const json = JSON.stringify(args);
  const cut = Math.floor(json.length / 2);
  return [json.slice(0, cut), json.slice(cut)];
};

type Block = Record<string, unknown>;
const asBlocks = (value: unknown): Block[] => (Array.isArray(value) ? (value as Block[]) : []);

export const openaiChatWire: ScriptedWire = {
  format: 'openai-chat',
  calls(calls, text) {
    const pieces = this.callsOpen(calls);
    if (text !== undefined) pieces.splice(1, 0, openaiChunk({ content: text }));
    return pieces;
  },
  callsOpen(calls) {
    const pieces = [openaiChunk({ role: 'assistant' })];
    calls.forEach((call, index) => {
      const [a, b] = halves(call.args);
      pieces.push(openaiChunk({ toolCalls: [{ index, id: call.id, name: call.name, arguments: a }] }), openaiChunk({ toolCalls: [{ index, arguments: b }] }));
    });
    // Chat calls complete at [DONE] (a finish never closes them: fragments may follow it); the
    // connection is held open after it.
    return [...pieces, openaiChunk({ finishReason: 'tool_calls' }), openaiDone()];
  },
  answer(text) {
    return [openaiChunk({ role: 'assistant', content: text }), openaiChunk({ finishReason: 'stop' }), openaiDone()];
  },
  results(body) {
    const messages = body.messages;
    const last = messages.map((m) => m['role']).lastIndexOf('assistant');
    return messages.slice(last + 1).map((m) => ({ id: String(m['tool_call_id']), content: String(m['content']), isError: false }));
  },
  callIds(body) {
    const assistant = [...body.messages].reverse().find((m) => m['role'] === 'assistant');
    return asBlocks(assistant?.['tool_calls']).map((c) => String(c['id']));
  },
};

const start = anthropicEvent('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: { input_tokens: 5, output_tokens: 1 } } });
const textBlock = (index: number, text: string): string[] => [
  anthropicEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index, delta: { type: 'text_delta', text } }),
  anthropicEvent('content_block_stop', { index }),
];
const stop = (reason: string): string[] => [anthropicEvent('message_delta', { delta: { stop_reason: reason }, usage: { output_tokens: 9 } }), anthropicEvent('message_stop')];

export const anthropicWire: ScriptedWire = {
  format: 'anthropic',
  calls(calls, text) {
    const pieces = [start, ...(text === undefined ? [] : textBlock(0, text))];
    const offset = text === undefined ? 0 : 1;
    calls.forEach((call, i) => {
      const index = i + offset;
      const [a, b] = halves(call.args);
      pieces.push(
        anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }),
        anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: a } }),
        anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: b } }),
        anthropicEvent('content_block_stop', { index }),
      );
    });
    return [...pieces, ...stop('tool_use')];
  },
  callsOpen(calls) {
    return this.calls(calls).slice(0, -2);
  },
  answer(text) {
    return [start, ...textBlock(0, text), ...stop('end_turn')];
  },
  results(body) {
    const last = body.messages.at(-1);
    return asBlocks(last?.['content'])
      .filter((b) => b['type'] === 'tool_result')
      .map((b) => ({ id: String(b['tool_use_id']), content: String(b['content']), isError: b['is_error'] === true }));
  },
  callIds(body) {
    const assistant = body.messages.at(-2);
    return asBlocks(assistant?.['content'])
      .filter((b) => b['type'] === 'tool_use')
      .map((b) => String(b['id']));
  },
};
