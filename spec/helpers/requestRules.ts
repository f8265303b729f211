/**
 * Each message format's rules of a valid conversation, checked as the APIs check a request (with
 * their own wording where it is known): every call answered (by id, or by name where the format
 * pairs by name), results where the API wants them, turns alternating where the API refuses two
 * `user` turns in a row (Bedrock: "A conversation must alternate between user and assistant roles",
 * Portkey-AI/gateway#748, langchain-ai/langchain-aws#130; Gemini likewise, where a content of
 * function responses holds nothing else and may be followed by the user's), no blank text block
 * (Bedrock, aws-samples/bedrock-engineer#8). Used by the scripted models to refuse a bad request.
 */
import type { MessageFormat } from 'rxjs-tool-calls/tools';

type Json = Record<string, unknown>;
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function alternate(messages: ReadonlyArray<Json>, roleOf: (m: Json) => unknown, message: string): void {
  messages.forEach((m, i) => {
    if (i > 0 && roleOf(m) === roleOf(messages[i - 1] ?? {})) throw new Error(`${message} (messages.${i} is a second '${str(roleOf(m))}' turn)`);
  });
}

/** Throws, as the API would answer, when `messages` is not a valid conversation of `format`. */
export function checkConversation(format: MessageFormat, messages: ReadonlyArray<Json>): void {
  switch (format) {
    case 'openai-chat':
    case 'ollama': {
      messages.forEach((m, i) => {
        const calls = asArray(m['tool_calls']);
        if (m['role'] === 'tool' && !messages.slice(0, i).some((p, k) => asArray(p['tool_calls']).length > 0 && messages.slice(k + 1, i).every((q) => q['role'] === 'tool'))) {
          throw new Error(`Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.${i})`);
        }
        if (m['role'] !== 'assistant' || calls.length === 0) return;
        const answers = messages.slice(i + 1, i + 1 + calls.length);
        const key = (c: Json): string => (format === 'ollama' ? str((c['function'] as Json)['name']) : str(c['id']));
        const answered = answers.filter((a) => a['role'] === 'tool').map((a) => str(format === 'ollama' ? a['tool_name'] : a['tool_call_id']));
        const missing = calls.map(key).filter((id, k) => answered[k] !== id);
        if (missing.length > 0)
          throw new Error(
            `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
          );
      });
      return;
    }
    case 'openai-responses': {
      messages.forEach((m, i) => {
        if (m['type'] === 'function_call' && !messages.slice(i + 1).some((o) => o['type'] === 'function_call_output' && o['call_id'] === m['call_id']))
          throw new Error(`No tool output found for function call ${str(m['call_id'])}.`);
        if (m['type'] === 'function_call_output' && !messages.slice(0, i).some((c) => c['type'] === 'function_call' && c['call_id'] === m['call_id']))
          throw new Error(`No tool call found for function call output with call_id ${str(m['call_id'])}.`);
      });
      return;
    }
    case 'anthropic':
    case 'bedrock-invoke-model': {
      alternate(messages, (m) => m['role'], 'A conversation must alternate between user and assistant roles');
      messages.forEach((m, i) => {
        const content = asArray(m['content']);
        content.forEach((b, j) => {
          if (b['type'] === 'text' && str(b['text']).trim() === '') throw new Error(`messages.${i}.content.${j}: text content blocks must be non-empty`);
        });
        const ids = content.filter((b) => b['type'] === 'tool_use').map((b) => str(b['id']));
        if (m['role'] !== 'assistant' || ids.length === 0) return;
        const next = asArray(messages[i + 1]?.['content']);
        const leading = next.slice(0, ids.length).filter((b) => b['type'] === 'tool_result');
        const missing = ids.filter((id) => !leading.some((b) => b['tool_use_id'] === id));
        if (missing.length > 0)
          throw new Error(
            `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
          );
      });
      return;
    }
    case 'bedrock-converse': {
      alternate(messages, (m) => m['role'], 'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.');
      messages.forEach((m, i) => {
        const content = asArray(m['content']);
        content.forEach((b, j) => {
          if ('text' in b && str(b['text']).trim() === '')
            throw new Error(`The text field in the ContentBlock object at messages.${i}.content.${j} is blank. Add text to the text field, and try again.`);
        });
        const ids = content.flatMap((b) => (b['toolUse'] === undefined ? [] : [str((b['toolUse'] as Json)['toolUseId'])]));
        if (ids.length === 0) return;
        const results = asArray(messages[i + 1]?.['content']).flatMap((b) => (b['toolResult'] === undefined ? [] : [str((b['toolResult'] as Json)['toolUseId'])]));
        const missing = ids.filter((id) => !results.includes(id));
        if (missing.length > 0) throw new Error(`Expected toolResult blocks at messages.${i + 1}.content for the following Ids: ${missing.join(', ')}`);
      });
      return;
    }
    case 'gemini': {
      const responses = (m: Json | undefined): Json[] => asArray(m?.['parts']).filter((p) => p['functionResponse'] !== undefined);
      messages.forEach((m, i) => {
        const previous = messages[i - 1];
        // Two model turns, or two user turns unless the first answers calls (a function-response content, then the user's: dust-tt/dust#32270).
        if (i > 0 && m['role'] === previous?.['role'] && !(m['role'] === 'user' && responses(previous).length > 0))
          throw new Error('Please ensure that multiturn requests alternate between user and model.');
        // A content that answers calls holds its functionResponse parts alone (Gemini 3: vellum-ai/vellum-assistant#39495, agentgateway/agentgateway#2811).
        if (responses(m).length > 0 && responses(m).length !== asArray(m['parts']).length) throw new Error('Requests ending with a model turn are not supported.');
        const calls = asArray(m['parts']).filter((p) => p['functionCall'] !== undefined).length;
        if (calls === 0) return;
        if (responses(messages[i + 1]).length !== calls)
          throw new Error('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
      });
      return;
    }
    case 'gemini-interactions': {
      messages.forEach((m, i) => {
        if (m['type'] === 'function_call' && !messages.slice(i + 1).some((r) => r['type'] === 'function_result' && r['call_id'] === m['id']))
          throw new Error(`function_call ${str(m['id'])} has no function_result in the input.`);
        if (m['type'] === 'function_result' && !messages.slice(0, i).some((c) => c['type'] === 'function_call' && c['id'] === m['call_id']))
          throw new Error(`function_result ${str(m['call_id'])} answers no function_call.`);
      });
      return;
    }
    case 'openai-realtime':
      return;
  }
}

/** Where each format keeps a user message's text (never a tool result's content). */
export function userTexts(format: MessageFormat, message: Json): string[] {
  switch (format) {
    case 'gemini':
      return message['role'] === 'user' ? asArray(message['parts']).flatMap((p) => (typeof p['text'] === 'string' ? [p['text']] : [])) : [];
    case 'gemini-interactions':
      return message['type'] === 'user_input' ? asArray(message['content']).map((c) => str(c['text'])) : [];
    case 'bedrock-converse':
      return message['role'] === 'user' ? asArray(message['content']).flatMap((b) => (typeof b['text'] === 'string' ? [b['text']] : [])) : [];
    case 'anthropic':
    case 'bedrock-invoke-model':
      if (message['role'] !== 'user') return [];
      return typeof message['content'] === 'string' ? [message['content']] : asArray(message['content']).flatMap((b) => (b['type'] === 'text' ? [str(b['text'])] : []));
    case 'openai-realtime': {
      const item = (message['item'] ?? {}) as Json;
      return item['role'] === 'user' ? asArray(item['content']).map((c) => str(c['text'])) : [];
    }
    default:
      return message['role'] === 'user' ? (typeof message['content'] === 'string' ? [message['content']] : asArray(message['content']).map((c) => str(c['text']))) : [];
  }
}

/** The tool results' texts of a conversation, in order (what the model reads as outputs). */
export function resultTexts(format: MessageFormat, messages: ReadonlyArray<Json>): string[] {
  return messages.flatMap((m): string[] => {
    switch (format) {
      case 'openai-chat':
      case 'ollama':
        return m['role'] === 'tool' ? [str(m['content'])] : [];
      case 'openai-responses':
        return m['type'] === 'function_call_output' ? [str(m['output'])] : [];
      case 'gemini-interactions':
        return m['type'] === 'function_result' ? [str(m['result'])] : [];
      case 'anthropic':
      case 'bedrock-invoke-model':
        return asArray(m['content']).flatMap((b) => (b['type'] === 'tool_result' ? [str(b['content'])] : []));
      case 'bedrock-converse':
        return asArray(m['content']).flatMap((b) => (b['toolResult'] === undefined ? [] : [str(asArray((b['toolResult'] as Json)['content'])[0]?.['text'])]));
      case 'gemini':
        return asArray(m['parts']).flatMap((p) => (p['functionResponse'] === undefined ? [] : [str(((p['functionResponse'] as Json)['response'] as Json)['output'])]));
      case 'openai-realtime':
        return (m['item'] as Json | undefined)?.['type'] === 'function_call_output' ? [str((m['item'] as Json)['output'])] : [];
    }
  });
}
