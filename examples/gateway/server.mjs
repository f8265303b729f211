// Run the gateway: `npm run example:gateway` (builds the package first; the example imports
// `rxjs-tool-calls` by its name, which resolves to this repository's dist/).
//
//   PORT                 default 8787 (HOST default 127.0.0.1)
//   ANTHROPIC_API_KEY    sent as x-api-key;        ANTHROPIC_BASE_URL default https://api.anthropic.com
//   GEMINI_API_KEY       sent as x-goog-api-key;   GEMINI_BASE_URL default https://generativelanguage.googleapis.com
//   GATEWAY_MULTIPLIER   applied to every price in the cost log (e.g. 1.3); default 1
//   GATEWAY_IDLE_MS      end a stalled upstream after this many ms; default 120000
//
// Then point any OpenAI client at it:
//   new OpenAI({ baseURL: 'http://127.0.0.1:8787/v1', apiKey: 'unused' })
//     .chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages, tools })
import { createGateway } from './gateway.mjs';

const env = process.env;
const port = Number(env.PORT ?? 8787);
const host = env.HOST ?? '127.0.0.1';
const server = createGateway({
  anthropic: { apiKey: env.ANTHROPIC_API_KEY, ...(env.ANTHROPIC_BASE_URL ? { url: env.ANTHROPIC_BASE_URL } : {}) },
  gemini: { apiKey: env.GEMINI_API_KEY, ...(env.GEMINI_BASE_URL ? { url: env.GEMINI_BASE_URL } : {}) },
  multiplier: env.GATEWAY_MULTIPLIER ?? 1,
  idleTimeoutMs: Number(env.GATEWAY_IDLE_MS ?? 120_000),
});
server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`gateway listening on http://${host}:${actual}/v1/chat/completions (claude-* → Anthropic, gemini-* → Gemini)`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
