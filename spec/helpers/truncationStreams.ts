/** The streams the truncation tests cut: at least one of every wire format and dialect. */
export const TRUNCATION_STREAMS = [
  'examples/weather.sse', // openai chat
  'openai/chat-parallel-two-tools',
  'azure/chat-tool-call-content-filter',
  'anthropic/text-then-tool-use',
  'anthropic/parallel-no-arg-tools',
  'anthropic/max-tokens-truncated-tool-input',
  'openai/responses-function-call',
  'azure/responses-function-call',
  'google/gemini-parallel-function-calls-one-chunk',
  'google/vertex-streamed-args-two-calls',
  'cohere/v2-two-tool-calls-with-plan',
  'mistral/tool-call-no-index',
  'copilot/legacy-function-call-deltas',
  'openrouter/error-chunk-mid-stream',
  'openai/responses-error-insufficient-quota',
  'gemini-interactions/thought-text-and-two-streamed-calls',
  'gemini-interactions/data-only-crlf-one-call',
  'gemini-interactions/google-search-then-text',
  'gemini-interactions/error-event-mid-call',
] as const;
