// Run the gateway: `npm run example:gateway` (builds the package first; the example imports
// `rxjs-tool-calls` by its name, which resolves to this repository's dist/).
//
//   --demo               no keys, no network: scripted Anthropic and Gemini stand-ins on 127.0.0.1
//                        (demo.mjs) are the upstreams; `npm run example:gateway -- --demo`
//   PORT                 default 8787 (HOST default 127.0.0.1)
//   ANTHROPIC_API_KEY    sent as x-api-key;        ANTHROPIC_BASE_URL default https://api.anthropic.com
//   GEMINI_API_KEY       sent as x-goog-api-key;   GEMINI_BASE_URL default https://generativelanguage.googleapis.com
//   GATEWAY_MULTIPLIER   applied to every price in the cost log (e.g. 1.3); default 1
//   GATEWAY_IDLE_MS      end a stalled upstream after this many ms; default 120000
//
// Then point any OpenAI client at it (client.mjs does, with the `openai` SDK):
//   new OpenAI({ baseURL: 'http://127.0.0.1:8787/v1', apiKey: 'unused' })
//     .chat.completions.create({ model: 'claude-sonnet-4-5', stream: true, messages, tools })
// or a UI front end: `useChat` at http://127.0.0.1:8787/api/chat, an AG-UI client (`HttpAgent`) at
// http://127.0.0.1:8787/api/agent; the server offers them its get_weather tool (UI_TOOLS below).
import { startDemoUpstreams } from './demo.mjs';
import { createGateway } from './gateway.mjs';

const env = process.env;
const demo = process.argv.includes('--demo');
const port = Number(env.PORT ?? 8787);
const host = env.HOST ?? '127.0.0.1';
const stand = demo ? await startDemoUpstreams() : undefined;
/** The server's tools on the UI routes (chat function tools; `toolSpecs(tools, 'openai-chat')` writes them from your tool() records). */
const UI_TOOLS = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
];
const server = createGateway({
  anthropic: stand ? { url: stand.anthropic, apiKey: 'demo' } : { apiKey: env.ANTHROPIC_API_KEY, ...(env.ANTHROPIC_BASE_URL ? { url: env.ANTHROPIC_BASE_URL } : {}) },
  gemini: stand ? { url: stand.gemini, apiKey: 'demo' } : { apiKey: env.GEMINI_API_KEY, ...(env.GEMINI_BASE_URL ? { url: env.GEMINI_BASE_URL } : {}) },
  multiplier: env.GATEWAY_MULTIPLIER ?? 1,
  idleTimeoutMs: Number(env.GATEWAY_IDLE_MS ?? 120_000),
  uiTools: UI_TOOLS,
});
server.listen(port, host, () => {
  const origin = `http://${host}:${server.address().port}`;
  console.log(`gateway listening on ${origin}/v1/chat/completions (claude-* → Anthropic, gemini-* → Gemini); health: ${origin}/health`);
  console.log(`UI routes: ${origin}/api/chat (useChat, the AI SDK UI message stream), ${origin}/api/agent (AG-UI)`);
  if (stand !== undefined) {
    console.log(`demo: the upstreams are scripted stand-ins on 127.0.0.1 (Anthropic ${stand.anthropic}, Gemini ${stand.gemini}); no API keys, no network.`);
    console.log(`try:  node examples/gateway/client.mjs ${origin}/v1      (the openai SDK: a tool call, its result sent back, the answer)`);
  }
  console.log('one JSON line per request follows (outcome, usage, cost, latencies)');
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => (stand ? stand.close() : Promise.resolve()).then(() => process.exit(0)));
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
