// The Vercel AI SDK: `streamText` with tools declared without `execute` (jsonSchema({type:'object'})),
// over a provider whose `fetch` replays the recorded bytes.
//   openai-chat:      @ai-sdk/openai-compatible (chatModel)
//   anthropic:        @ai-sdk/anthropic
//   openai-responses: @ai-sdk/openai (.responses)
import { replayResponse } from './replay.mjs';

// The SDK prints compatibility warnings to the console (e.g. an unknown model id); they are noise here.
globalThis.AI_SDK_LOG_WARNINGS = false;

let current = [];
const fetchReplay = async () => replayResponse(current);
let ai;
const models = {};
const loadErrors = {};

const TOOL_NAMES = ['search_records', 'get_weather', 'write_file', 'run_query', 'lookup_user', 'create_ticket', 'send_email', 'translate_text'];
let tools;

export default {
  key: 'ai-sdk',
  label: 'Vercel AI SDK streamText',
  packages: ['ai', '@ai-sdk/openai-compatible', '@ai-sdk/anthropic', '@ai-sdk/openai'],
  async load() {
    ai = await import('ai');
    tools = Object.fromEntries(TOOL_NAMES.map((name) => [name, ai.tool({ description: name, inputSchema: ai.jsonSchema({ type: 'object' }) })]));
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    models['openai-chat'] = createOpenAICompatible({ name: 'bench', baseURL: 'http://bench.invalid/v1', apiKey: 'sk-bench', fetch: fetchReplay, includeUsage: true }).chatModel('gpt-4o-2024-08-06');
    try {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      models.anthropic = createAnthropic({ apiKey: 'sk-ant-bench', baseURL: 'http://bench.invalid/v1', fetch: fetchReplay })('claude-bench');
    } catch (error) {
      loadErrors.anthropic = error;
    }
    try {
      const { createOpenAI } = await import('@ai-sdk/openai');
      models['openai-responses'] = createOpenAI({ apiKey: 'sk-bench', baseURL: 'http://bench.invalid/v1', fetch: fetchReplay }).responses('gpt-4.1-2025-04-14');
    } catch (error) {
      loadErrors['openai-responses'] = error;
    }
    return null;
  },
  supports(format) {
    if (loadErrors[format]) return `provider failed to load: ${loadErrors[format].message}`;
    return true;
  },
  async run(chunks, format) {
    current = chunks;
    const calls = [];
    let failure;
    const result = ai.streamText({ model: models[format], prompt: 'bench', tools, maxRetries: 0, maxOutputTokens: 64000, onError: ({ error }) => (failure ??= error) });
    for await (const part of result.fullStream) {
      if (part.type === 'tool-call') calls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input });
      else if (part.type === 'error') failure ??= part.error;
    }
    if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
    return calls;
  },
};
