// `npm run size`: the minified + gzipped size of typical imports of the built package (rxjs
// external), as a user's bundler (esbuild) would tree-shake them, checked against budgets.
// Prints one line per case and `size: N passed, N failed`; exits 1 when a budget is exceeded.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'dist/index.js'))) {
  console.error('dist/index.js is missing: run `npm run build` first');
  process.exit(1);
}

/**
 * Each case: what a user writes, and its budget in KiB of gzip. The composed stages carry only what
 * they name; `readToolCalls()` carries every framing and format, also with a named `provider`:
 * auto-detection is its default, and a bundler cannot drop a default it cannot prove unused. Each
 * budget is the size measured when it was last set, rounded up (0.3–0.5 KiB): a budget stops
 * growth no one decided on; it is not a goal.
 */
const CASES = [
  {
    name: 'fromResponse + decodeSse + toolCalls (the format-independent core, no format)',
    budget: 15,
    code: "import { fromResponse, decodeSse, toolCalls } from 'rxjs-tool-calls'; export const read = (r) => [fromResponse(r).pipe(decodeSse()), toolCalls()];",
  },
  {
    name: 'fromResponse + decodeSse + openaiChat + toolCalls (one format, composed)',
    budget: 17.8,
    code: "import { fromResponse, decodeSse, openaiChat, toolCalls } from 'rxjs-tool-calls'; export const read = (r) => fromResponse(r).pipe(decodeSse(), openaiChat(), toolCalls());",
  },
  {
    name: 'fromResponse + readToolCalls({ provider: openaiChat })',
    budget: 42,
    code: "import { fromResponse, readToolCalls, openaiChat } from 'rxjs-tool-calls'; export const read = (r) => fromResponse(r).pipe(readToolCalls({ provider: openaiChat }));",
  },
  {
    name: 'fromResponse + readToolCalls() (auto-detection: every format)',
    budget: 42,
    code: "import { fromResponse, readToolCalls } from 'rxjs-tool-calls'; export const read = (r) => fromResponse(r).pipe(readToolCalls());",
  },
  {
    name: 'fromResponse + decodeAwsEventStream + bedrockConverse + toolCalls (Bedrock, composed)',
    budget: 18.4,
    code: "import { fromResponse, decodeAwsEventStream, bedrockConverse, toolCalls } from 'rxjs-tool-calls'; export const read = (r) => fromResponse(r).pipe(decodeAwsEventStream(), bedrockConverse(), toolCalls());",
  },
  {
    name: 'fromResponse + decodeNdjson + ollamaChat + toolCalls (Ollama, composed)',
    budget: 16,
    code: "import { fromResponse, decodeNdjson, ollamaChat, toolCalls } from 'rxjs-tool-calls'; export const read = (r) => fromResponse(r).pipe(decodeNdjson(), ollamaChat(), toolCalls());",
  },
  // The whole main entry: every framing, format, source and operator (the wings are entries of their own).
  { name: 'everything in the main entry', budget: 53.8, code: "export * from 'rxjs-tool-calls';" },
  // The websocket wing: a socket's records read, and the loop's request (with toolLoop, which it is for).
  {
    name: 'fromWebSocket + openaiRealtime + toolCalls (a Realtime session, composed)',
    budget: 15.8,
    code: "import { openaiRealtime, toolCalls } from 'rxjs-tool-calls'; import { fromWebSocket } from 'rxjs-tool-calls/websocket'; export const read = (url, WebSocketCtor) => fromWebSocket(url, { WebSocketCtor }).pipe(openaiRealtime(), toolCalls());",
  },
  {
    name: 'toolLoop + responsesWebSocket',
    budget: 56.5,
    code: "import { toolLoop } from 'rxjs-tool-calls/tools'; import { responsesWebSocket } from 'rxjs-tool-calls/websocket'; export const loop = (url, WebSocketCtor, tools) => toolLoop(responsesWebSocket(url, { WebSocketCtor }), tools, { format: 'openai-responses' });",
  },
];

let passed = 0;
let failed = 0;
for (const { name, budget, code } of CASES) {
  const result = await build({
    stdin: { contents: code, resolveDir: root, sourcefile: 'entry.js' },
    alias: { 'rxjs-tool-calls': join(root, 'dist/index.js'), 'rxjs-tool-calls/tools': join(root, 'dist/tools.js'), 'rxjs-tool-calls/websocket': join(root, 'dist/websocket.js') },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    external: ['rxjs', 'rxjs/*'],
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0].contents;
  const gzip = gzipSync(bytes, { level: 9 }).length / 1024;
  const ok = gzip <= budget;
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${gzip.toFixed(1).padStart(5)} KiB gzip (${(bytes.length / 1024).toFixed(1)} KiB min; budget ${budget})  ${name}`);
}
console.log(`size: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
