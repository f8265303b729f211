// The official SDKs over a replayed HTTP response: a custom `fetch` answers every request with the
// recorded bytes, so the SDK's real transport → SSE → stream-helper path runs.
//   openai-chat / openai-responses: `openai` (chat.completions.stream / responses.stream)
//   anthropic:                      `@anthropic-ai/sdk` (messages.stream)
import { replayResponse } from './replay.mjs';

let current = [];
const fetchReplay = async () => replayResponse(current);
let openai;
let anthropic;

async function openaiChat() {
  const stream = openai.chat.completions.stream({
    model: 'gpt-4o-2024-08-06',
    messages: [{ role: 'user', content: 'bench' }],
    stream_options: { include_usage: true },
  });
  const completion = await stream.finalChatCompletion();
  return (completion.choices[0].message.tool_calls ?? []).map((tc) => ({ id: tc.id, name: tc.function.name, arguments: JSON.parse(tc.function.arguments) }));
}

async function openaiResponses() {
  const stream = openai.responses.stream({ model: 'gpt-4.1-2025-04-14', input: 'bench' });
  const response = await stream.finalResponse();
  return response.output.filter((item) => item.type === 'function_call').map((item) => ({ id: item.call_id, name: item.name, arguments: JSON.parse(item.arguments) }));
}

async function anthropicMessages() {
  const stream = anthropic.messages.stream({ model: 'claude-bench', max_tokens: 64000, messages: [{ role: 'user', content: 'bench' }] });
  const message = await stream.finalMessage();
  return message.content.filter((block) => block.type === 'tool_use').map((block) => ({ id: block.id, name: block.name, arguments: block.input }));
}

const BY_FORMAT = { 'openai-chat': openaiChat, 'openai-responses': openaiResponses, anthropic: anthropicMessages };

export default {
  key: 'sdk',
  label: 'official SDK (openai / @anthropic-ai/sdk)',
  packages: ['openai', '@anthropic-ai/sdk'],
  async load() {
    const { default: OpenAI } = await import('openai');
    openai = new OpenAI({ apiKey: 'sk-bench', baseURL: 'http://bench.invalid/v1', fetch: fetchReplay, maxRetries: 0 });
    try {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      anthropic = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: 'http://bench.invalid', fetch: fetchReplay, maxRetries: 0 });
    } catch (error) {
      anthropic = { error };
    }
    return null;
  },
  supports(format) {
    if (format === 'anthropic' && anthropic?.error) return `@anthropic-ai/sdk failed to load: ${anthropic.error.message}`;
    return true;
  },
  async run(chunks, format) {
    current = chunks;
    return BY_FORMAT[format]();
  },
};
