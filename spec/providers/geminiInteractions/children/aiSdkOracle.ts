/**
 * The AI SDK's reading of Gemini Interactions streams (`@ai-sdk/google`'s `google.interactions()`,
 * an ESM-only package, so it runs here, in a child process): given a JSON file of SSE texts, it
 * replays each through the provider's own `fetch` and prints, as one JSON line, what the AI SDK made
 * of each: its function calls, text, reasoning, finish, usage, provider-run tools and errors.
 */
import { readFileSync } from 'node:fs';
import { createGoogle } from '@ai-sdk/google';

interface OracleView {
  /** Function calls; `input` is the parsed arguments, or `{ unparsed: text }` when they are not JSON. */
  calls: Array<{ id: string; name: string; input: unknown }>;
  providerTools: Array<{ id: string; name: string; kind: 'call' | 'result' }>;
  text: string;
  reasoning: string;
  finish: string | undefined;
  rawFinish: string | undefined;
  outputTokens: number | undefined;
  errors: string[];
}

/** The arguments parsed, or `{ unparsed: text }`. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { unparsed: text };
  }
}

async function read(sse: string): Promise<OracleView> {
  const google = createGoogle({
    apiKey: 'test-key',
    fetch: async () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const model = google.interactions('gemini-3-flash-preview');
  const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }] });
  const view: OracleView = { calls: [], providerTools: [], text: '', reasoning: '', finish: undefined, rawFinish: undefined, outputTokens: undefined, errors: [] };
  const reader = stream.getReader();
  for (;;) {
    const { done, value: part } = await reader.read();
    if (done) break;
    switch (part.type) {
      case 'tool-call':
        if (part.providerExecuted === true) view.providerTools.push({ id: part.toolCallId, name: part.toolName, kind: 'call' });
        else view.calls.push({ id: part.toolCallId, name: part.toolName, input: parsed(part.input) });
        break;
      case 'tool-result':
        view.providerTools.push({ id: part.toolCallId, name: part.toolName, kind: 'result' });
        break;
      case 'text-delta':
        view.text += part.delta;
        break;
      case 'reasoning-delta':
        view.reasoning += part.delta;
        break;
      case 'finish':
        view.finish = part.finishReason.unified;
        view.rawFinish = part.finishReason.raw;
        view.outputTokens = part.usage.outputTokens.total;
        break;
      case 'error':
        view.errors.push(part.error instanceof Error ? part.error.message : JSON.stringify(part.error));
        break;
      default:
        break;
    }
  }
  return view;
}

const streams = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as string[];
const views: OracleView[] = [];
for (const sse of streams) views.push(await read(sse));
process.stdout.write(`${JSON.stringify(views)}\n`);
