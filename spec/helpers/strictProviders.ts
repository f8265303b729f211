/**
 * Scripted models that check the reasoning sent back as the real APIs do, and reject a request with
 * the provider's own status, error body and message when it is missing, modified or out of order:
 *
 * - Anthropic (thinking enabled): the last assistant turn must start with a thinking block; every
 *   thinking block's signature must match its text; the latest turn's thinking and redacted blocks
 *   must be exactly those streamed, in order.
 * - OpenAI Responses (`store: false`, encrypted reasoning): a reasoning item needs valid
 *   `encrypted_content` and its following item; a `function_call` that came after a reasoning item
 *   needs that item before it. (The API can tell only when the call carries its `fc_` id; this
 *   script tells by `call_id` too: without the id the API cannot pair them and the reasoning is lost.)
 * - DeepSeek thinking mode (chat): an assistant message with `tool_calls` in the current turn must
 *   carry `reasoning_content`.
 * - Gemini 3: the first `functionCall` part of each step of the current turn must carry its
 *   `thoughtSignature`; any signature must be the one issued for its part.
 *
 * Signatures and encrypted content are HMACs of what they cover, so a modified text fails.
 */
import { createHmac } from 'node:crypto';
import { ScriptedRejection } from './scriptedModel';
import type { ScriptedProvider, StrictProvider } from './strictProvider';

export { expectedTurn, strictSteps, type ScriptedProvider, type StrictProvider } from './strictProvider';
import { expectedFor, fcId, type CallBlock, type TurnBlock } from './reasoningTurns';

type Json = Record<string, unknown>;
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const sign = (kind: string, content: string): string => createHmac('sha256', 'scripted-secret').update(`${kind}\n${content}`).digest('base64');

const flip = (text: string): string => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
const calls = (blocks: TurnBlock[]): CallBlock[] => blocks.filter((b): b is CallBlock => b.kind === 'call');
const weather: Omit<CallBlock, 'signature'> = { kind: 'call', id: 'call_w', name: 'get_weather', args: { city: 'Paris' } };
const time: Omit<CallBlock, 'signature'> = { kind: 'call', id: 'call_t', name: 'get_time', args: { zone: 'Asia/Tokyo' } };
const search: Omit<CallBlock, 'signature'> = { kind: 'call', id: 'call_s', name: 'search', args: { q: 'rxjs' } };
const QUESTION = 'Weather in Paris, time in Tokyo, then search rxjs?';

// --- Anthropic --------------------------------------------------------------------------------

const anthropicError = (message: string): ScriptedRejection => new ScriptedRejection(400, { type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_scripted' }, message);
const thinking = (text: string): TurnBlock => ({ kind: 'thinking', pieces: [text.slice(0, 9), text.slice(9)], signature: sign('thinking', text) });
const anthropicTurns: [TurnBlock[], TurnBlock[]] = [
  [
    thinking('The user wants two things; both tools can run at once.'),
    { kind: 'redacted', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
    { kind: 'text', pieces: ['Let me ', 'check.'] },
    weather,
    time,
  ],
  [thinking('Now search, as asked.'), search],
];
/** The streamed thinking / redacted blocks of the turn whose calls are `ids`, as the API remembers them. */
const issuedReasoning = (ids: string[]): Json[] => {
  const turn = anthropicTurns.find((t) => calls(t).some((c) => ids.includes(c.id))) ?? [];
  return asArray((expectedFor('anthropic', turn) as Json)['content']).filter((b) => b['type'] === 'thinking' || b['type'] === 'redacted_thinking');
};

export const strictAnthropic: StrictProvider = {
  format: 'anthropic',
  question: { role: 'user', content: QUESTION },
  turns: anthropicTurns,
  body: (messages) => ({ model: 'claude-test', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, stream: true, messages }),
  check(body) {
    const messages = asArray(body['messages']);
    messages.forEach((message, i) => {
      if (message['role'] !== 'assistant') return;
      asArray(message['content']).forEach((block, j) => {
        if (block['type'] !== 'thinking') return;
        if (typeof block['signature'] !== 'string') throw anthropicError(`messages.${i}.content.${j}.thinking.signature: Field required`);
        if (block['signature'] !== sign('thinking', String(block['thinking']))) throw anthropicError(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
      });
    });
    const last = messages.map((m) => m['role']).lastIndexOf('assistant');
    const blocks = asArray(messages[last]?.['content']);
    const first = blocks[0]?.['type'];
    if (first !== 'thinking' && first !== 'redacted_thinking') {
      throw anthropicError(
        `messages.${last}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
      );
    }
    const sent = blocks.filter((b) => b['type'] === 'thinking' || b['type'] === 'redacted_thinking');
    const issued = issuedReasoning(blocks.filter((b) => b['type'] === 'tool_use').map((b) => String(b['id'])));
    const at = issued.findIndex((b, k) => JSON.stringify(b) !== JSON.stringify(sent[k]));
    if (at >= 0 || sent.length !== issued.length) {
      const j = blocks.indexOf(sent[at < 0 ? issued.length : at] ?? blocks[0] ?? {});
      throw anthropicError(
        `messages.${last}.content.${j}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`,
      );
    }
  },
  strip: (body) => ({
    ...body,
    messages: asArray(body['messages']).map((m) =>
      m['role'] === 'assistant' ? { ...m, content: asArray(m['content']).filter((b) => b['type'] !== 'thinking' && b['type'] !== 'redacted_thinking') } : m,
    ),
  }),
  tamper: (body) => ({
    ...body,
    messages: asArray(body['messages']).map((m) =>
      m['role'] === 'assistant' ? { ...m, content: asArray(m['content']).map((b) => (b['type'] === 'thinking' ? { ...b, thinking: `${String(b['thinking'])}!` } : b)) } : m,
    ),
  }),
  strippedError: /Expected `thinking` or `redacted_thinking`, but found `text`/,
  tamperedError: /^messages\.1\.content\.0: Invalid `signature` in `thinking` block$/,
};

// --- OpenAI Responses ------------------------------------------------------------------------

const responsesError = (status: number, message: string, param: string | null, code: string | null): ScriptedRejection =>
  new ScriptedRejection(status, { error: { message, type: 'invalid_request_error', param, code } }, message);
const seal = (id: string): string => `gAAAAB${Buffer.from(id).toString('base64')}.${sign('encrypted', id)}`;
const responsesTurns: [TurnBlock[], TurnBlock[]] = [
  [{ kind: 'reasoning-item', id: 'rs_1', summary: [['Two tools, ', 'in parallel.'], ['Then answer.']], encrypted: seal('rs_1') }, weather, time],
  [{ kind: 'reasoning-item', id: 'rs_2', summary: [], encrypted: seal('rs_2') }, search],
];
/** Per reasoning item: the item that followed it; per call id: the reasoning item before it in its response. */
const follower = new Map<string, string>();
const reasoningOf = new Map<string, string>();
for (const turn of responsesTurns) {
  let reasoning: string | undefined;
  turn.forEach((block, i) => {
    const next = turn[i + 1];
    if (block.kind === 'reasoning-item') {
      reasoning = block.id;
      if (next?.kind === 'call') follower.set(block.id, fcId(next));
    }
    if (block.kind === 'call' && reasoning !== undefined) reasoningOf.set(block.id, reasoning);
  });
}

export const strictResponses: StrictProvider = {
  format: 'openai-responses',
  question: { role: 'user', content: QUESTION },
  turns: responsesTurns,
  body: (messages) => ({ model: 'gpt-test', store: false, include: ['reasoning.encrypted_content'], stream: true, input: messages }),
  check(body) {
    const input = asArray(body['input']);
    input.forEach((item, k) => {
      if (item['type'] === 'reasoning') {
        const id = String(item['id']);
        if (typeof item['encrypted_content'] !== 'string')
          throw responsesError(
            404,
            `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
            'input',
            null,
          );
        if (item['encrypted_content'] !== seal(id))
          throw responsesError(400, `The encrypted content for item ${id} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`, null, 'invalid_encrypted_content');
        const next = input[k + 1];
        if (follower.has(id) && (next?.['type'] !== 'function_call' || next['id'] !== follower.get(id)))
          throw responsesError(400, `Item '${id}' of type 'reasoning' was provided without its required following item.`, 'input', null);
      }
      if (item['type'] === 'function_call') {
        const reasoning = reasoningOf.get(String(item['call_id']));
        if (reasoning !== undefined && !input.slice(0, k).some((i) => i['type'] === 'reasoning' && i['id'] === reasoning)) {
          throw responsesError(
            400,
            `Item '${typeof item['id'] === 'string' ? item['id'] : `fc_${String(item['call_id'])}`}' of type 'function_call' was provided without its required 'reasoning' item: '${reasoning}'.`,
            'input',
            null,
          );
        }
      }
    });
  },
  strip: (body) => ({ ...body, input: asArray(body['input']).filter((i) => i['type'] !== 'reasoning') }),
  tamper: (body) => ({ ...body, input: asArray(body['input']).map((i) => (i['type'] === 'reasoning' ? { ...i, encrypted_content: flip(String(i['encrypted_content'])) } : i)) }),
  strippedError: /Item 'fc_call_w' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'/,
  tamperedError: /^The encrypted content for item rs_1 could not be verified\. Reason: Encrypted content could not be decrypted or parsed\.$/,
};

// --- DeepSeek thinking mode (chat) ---------------------------------------------------------

const deepseekMessage = 'The `reasoning_content` in the thinking mode must be passed back to the API.';
const deepseekError = (): ScriptedRejection =>
  new ScriptedRejection(400, { error: { message: deepseekMessage, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }, deepseekMessage);

export const strictDeepSeek: StrictProvider = {
  format: 'openai-chat',
  question: { role: 'user', content: QUESTION },
  turns: [
    [{ kind: 'thinking', pieces: ['The user wants ', 'weather and time.'] }, { kind: 'text', pieces: ['Let me check.'] }, weather, time],
    [{ kind: 'thinking', pieces: ['Now ', 'search.'] }, search],
  ],
  body: (messages) => ({ model: 'deepseek-v4-flash', thinking: { type: 'enabled' }, stream: true, messages }),
  check(body) {
    const messages = asArray(body['messages']);
    const turnStart = messages.map((m) => m['role']).lastIndexOf('user');
    for (const message of messages.slice(turnStart + 1)) {
      const reasoning = message['reasoning_content'];
      if (message['role'] === 'assistant' && asArray(message['tool_calls']).length > 0 && (typeof reasoning !== 'string' || reasoning === '')) throw deepseekError();
    }
  },
  strip: (body) => ({ ...body, messages: asArray(body['messages']).map(({ reasoning_content: _dropped, ...m }) => m) }),
  tamper: (body) => ({ ...body, messages: asArray(body['messages']).map((m) => (typeof m['reasoning_content'] === 'string' ? { ...m, reasoning_content: '' } : m)) }),
  strippedError: /The `reasoning_content` in the thinking mode must be passed back to the API\./,
  tamperedError: /The `reasoning_content` in the thinking mode must be passed back to the API\./,
};

// --- Groq (chat, reasoning streamed in `reasoning`; either field refused back) ----------------

/** Groq: streams the reasoning in `delta.reasoning` and rejects an assistant message with `reasoning_content` or `reasoning`. */
export const strictGroq: ScriptedProvider = {
  format: 'openai-chat',
  question: { role: 'user', content: QUESTION },
  turns: [
    [{ kind: 'thinking', pieces: ['Weather and ', 'time.'], field: 'reasoning' }, weather, time],
    [{ kind: 'thinking', pieces: ['Search.'], field: 'reasoning' }, search],
  ],
  body: (messages) => ({ model: 'openai/gpt-oss-120b', stream: true, messages }),
  check(body) {
    asArray(body['messages']).forEach((message, i) => {
      const field = ['reasoning_content', 'reasoning'].find((f) => f in message);
      if (message['role'] !== 'assistant' || field === undefined) return;
      const text = `'messages.${i}' : for 'role:assistant' the following must be satisfied[('messages.${i}' : property '${field}' is unsupported)]`;
      throw new ScriptedRejection(400, { error: { message: text, type: 'invalid_request_error' } }, text);
    });
  },
};

// --- Gemini 3 --------------------------------------------------------------------------------

const geminiError = (message: string): ScriptedRejection => new ScriptedRejection(400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } }, message);
const signedCall = (call: Omit<CallBlock, 'signature'>): CallBlock => ({ ...call, signature: sign('call', `${call.name}\n${JSON.stringify(call.args)}`) });
/** What a part's signature must cover: its call, or its text. */
const coveredBy = (part: Json): string => {
  const call = part['functionCall'] as Json | undefined;
  return call === undefined ? sign('text', String(part['text'])) : sign('call', `${String(call['name'])}\n${JSON.stringify(call['args'])}`);
};

export const strictGemini: StrictProvider = {
  format: 'gemini',
  question: { role: 'user', parts: [{ text: QUESTION }] },
  turns: [
    // Parallel calls: only the first carries a signature; the text part has its own.
    [{ kind: 'thinking', pieces: ['Two lookups', ' at once.'] }, { kind: 'text', pieces: ['Let me ', 'check.'], signature: sign('text', 'Let me check.') }, signedCall(weather), time],
    [signedCall(search)],
  ],
  body: (messages) => ({ contents: messages, generationConfig: { thinkingConfig: { includeThoughts: true } } }),
  check(body) {
    const contents = asArray(body['contents']);
    contents.forEach((content) => {
      for (const part of asArray(content['parts'])) if (part['thoughtSignature'] !== undefined && part['thoughtSignature'] !== coveredBy(part)) throw geminiError('Corrupted thought signature.');
    });
    // The current turn begins at the last user content with text (not only function responses).
    const turnStart = contents.map((c) => c['role'] === 'user' && asArray(c['parts']).some((p) => typeof p['text'] === 'string')).lastIndexOf(true);
    contents.forEach((content, k) => {
      if (k <= turnStart || content['role'] !== 'model') return;
      const first = asArray(content['parts']).find((p) => p['functionCall'] !== undefined);
      if (first === undefined || typeof first['thoughtSignature'] === 'string') return;
      const name = String((first['functionCall'] as Json)['name']);
      throw geminiError(
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${k + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    });
  },
  strip: (body) => ({ ...body, contents: asArray(body['contents']).map((c) => ({ ...c, parts: asArray(c['parts']).map(({ thoughtSignature: _dropped, ...p }) => p) })) }),
  tamper: (body) => ({
    ...body,
    contents: asArray(body['contents']).map((c) => ({
      ...c,
      parts: asArray(c['parts']).map((p) => (typeof p['thoughtSignature'] === 'string' ? { ...p, thoughtSignature: flip(p['thoughtSignature']) } : p)),
    })),
  }),
  strippedError: /Function call is missing a thought_signature in functionCall parts\. .*`default_api:get_weather` , position 2\./,
  tamperedError: /^Corrupted thought signature\.$/,
};

export const STRICT_PROVIDERS: ReadonlyArray<StrictProvider> = [strictDeepSeek, strictResponses, strictAnthropic, strictGemini];
