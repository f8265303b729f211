/**
 * Steering messages in every format: a user's text as the format's user message, and steers
 * appended to the next request so that it stays valid (Anthropic and Bedrock, whose tool results
 * are a user turn, get the steer inside that turn, after the results; Gemini keeps its
 * function-response turn to the responses alone).
 *
 * @module
 */
import type { MessageFormat } from './index';

type Json = Readonly<Record<string, unknown>>;

/** The formats that refuse two `user` turns in a row (or merge them): a steer joins the `user` turn before it. */
const JOINS_USER_TURN: ReadonlySet<MessageFormat> = new Set<MessageFormat>(['anthropic', 'bedrock-invoke-model', 'bedrock-converse', 'gemini']);

/** A Gemini content that answers calls: it must hold its `functionResponse` parts alone. */
const answersCalls = (format: MessageFormat, message: Json): boolean =>
  format === 'gemini' && Array.isArray(message['parts']) && (message['parts'] as Array<Json | null>).some((p) => p?.['functionResponse'] !== undefined);

/** `text` as the user message of `format`. */
export function userTextMessage(format: MessageFormat, text: string): object {
  switch (format) {
    case 'anthropic':
    case 'bedrock-invoke-model':
      return { role: 'user', content: [{ type: 'text', text }] };
    case 'bedrock-converse':
      return { role: 'user', content: [{ text }] };
    case 'gemini':
      return { role: 'user', parts: [{ text }] };
    case 'gemini-interactions':
      return { type: 'user_input', content: [{ type: 'text', text }] };
    case 'openai-realtime':
      return { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } };
    default:
      // OpenAI chat and Responses, Ollama.
      return { role: 'user', content: text };
  }
}

const isUser = (message: unknown): message is Json => typeof message === 'object' && message !== null && (message as Json)['role'] === 'user';

/** A user message's content as blocks (Anthropic's string content as one text block; Converse and Gemini have arrays only). */
const blocksOf = (format: MessageFormat, message: Json): unknown[] => {
  const content = format === 'gemini' ? message['parts'] : message['content'];
  return Array.isArray(content) ? content : typeof content === 'string' ? [{ type: 'text', text: content }] : [];
};

/** Two user messages of `format` as one: the first one's blocks (tool results first), then the second's. */
function joined(format: MessageFormat, first: Json, second: Json): object {
  const blocks = [...blocksOf(format, first), ...blocksOf(format, second)];
  return format === 'gemini' ? { ...first, parts: blocks } : { ...first, content: blocks };
}

/**
 * `history` with `steers` appended, as the next request of `format` takes them (a new array;
 * nothing in `history` is changed):
 *
 * - Anthropic (and InvokeModel), Bedrock Converse: a steer that is a `user` message joins the
 *   `user` turn that ends the history (the step's tool results, or the question): its blocks go
 *   after the ones there, so that the turns still alternate.
 * - Gemini: the same, except after a content of `functionResponse` parts, which must hold them
 *   alone (Gemini 3 refuses text beside them, "Requests ending with a model turn are not
 *   supported": vellum-ai/vellum-assistant#39495, agentgateway/agentgateway#2811): the steer is the
 *   next `user` content, as dust-tt/dust#32270 sends it.
 * - OpenAI Realtime: the steers' items go before the `response.create` that ends the history (one
 *   is added when none does), so that the response answers them too.
 * - The other formats (OpenAI chat and Responses, Ollama, Gemini Interactions): appended as they
 *   are, one message (item, step) each, after the tool results.
 */
export function appendSteers(format: MessageFormat, history: ReadonlyArray<object>, steers: ReadonlyArray<object>): object[] {
  const out = history.slice();
  if (format === 'openai-realtime') {
    const last = out.at(-1) as Json | undefined;
    if (last?.['type'] === 'response.create') out.pop();
    return [...out, ...steers, last?.['type'] === 'response.create' ? last : { type: 'response.create' }];
  }
  for (const steer of steers) {
    const last = out.at(-1);
    if (JOINS_USER_TURN.has(format) && isUser(last) && isUser(steer) && !answersCalls(format, last)) out[out.length - 1] = joined(format, last, steer);
    else out.push(steer);
  }
  return out;
}
