// Scripted upstreams for trying the gateway without API keys: `node examples/gateway/server.mjs --demo`
// (or `npm run example:gateway -- --demo`) starts a stand-in Anthropic Messages API and a stand-in
// Gemini API on 127.0.0.1 and points the gateway at them.
//
// They are not models: each answer is made from the request. With tools and no tool results yet,
// the answer is a short text and one call per tool (at most two), its arguments made up from the
// tool's JSON schema (`city` → "Paris", an enum → its first value, …) and streamed in small pieces;
// with tool results, a text that quotes them; without tools, a text that echoes the question. The
// events are written with the library's own encoders (`encodeAnthropicMessages`, `encodeGemini`),
// a few milliseconds apart, so a client sees them arrive live.
import http from 'node:http';
import { concatMap, delay, from, of } from 'rxjs';
import { encodeAnthropicMessages, encodeGemini } from 'rxjs-tool-calls/gateway';

/** Sample values for common argument names; anything else gets a value of its type. */
const SAMPLES = { city: 'Paris', location: 'Paris, France', country: 'France', tz: 'Europe/Paris', timezone: 'Europe/Paris', query: 'weather in Paris', unit: 'celsius', date: '2025-06-01' };

/** A value that fits `schema` (a JSON schema, or a Gemini schema with upper-case types). */
function sampleOf(schema, name, depth = 0) {
  if (schema === null || typeof schema !== 'object' || depth > 6) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = String(Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? 'object' : 'string'))).toLowerCase();
  if (type === 'object') {
    const value = {};
    for (const [key, child] of Object.entries(schema.properties ?? {})) value[key] = sampleOf(child, key, depth + 1);
    return value;
  }
  if (type === 'array') return [sampleOf(schema.items ?? {}, name, depth + 1)];
  if (type === 'integer' || type === 'number') return 3;
  if (type === 'boolean') return true;
  return Object.hasOwn(SAMPLES, name) ? SAMPLES[name] : `example ${name ?? 'text'}`;
}

/** Cut a JSON text into pieces of a few characters, as a model streams arguments. */
function pieces(text, size = 6) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * The events of one answer. `tools` are `{ name, schema }`; `results` the tool results' text when
 * the last turn carried some; `question` the last user text.
 */
function answerEvents({ tools, results, question, inputTokens }) {
  const events = [];
  let output = 0;
  const text = (value) => {
    for (const piece of value.split(/(?<= )/)) {
      events.push({ type: 'text-delta', choice: 0, text: piece });
      output++;
    }
  };
  if (results.length > 0) {
    text(`Here is what the tools returned: ${results.join('; ')}.`);
    events.push({ type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' });
  } else if (tools.length > 0) {
    text('Let me look that up.');
    tools.slice(0, 2).forEach((tool, index) => {
      const args = JSON.stringify(sampleOf(tool.schema, undefined) ?? {});
      pieces(args).forEach((piece, i) => {
        events.push({ type: 'tool-call-delta', choice: 0, index, ...(i === 0 ? { id: `demo_${Date.now().toString(36)}_${index}`, name: tool.name } : {}), argumentsDelta: piece });
        output++;
      });
      events.push({ type: 'tool-call-end', choice: 0, index });
    });
    events.push({ type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' });
  } else {
    text(`You said: ${question || '(nothing)'}. This is the demo upstream: send tools to see tool calls.`);
    events.push({ type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' });
  }
  events.push({ type: 'usage', inputTokens, outputTokens: output, totalTokens: inputTokens + output, raw: null });
  events.push({ type: 'done' });
  return events;
}

/** The text of a content value: a string, or the text parts of an array. */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : typeof part?.content === 'string' ? part.content : textOf(part?.content))).join(' ');
}

/** What an Anthropic Messages request asks: its tools, tool results and question. */
function readAnthropic(body) {
  const last = body.messages?.at(-1);
  const blocks = Array.isArray(last?.content) ? last.content : [];
  return {
    tools: (body.tools ?? []).map((tool) => ({ name: tool.name, schema: tool.input_schema })),
    results: blocks.filter((b) => b?.type === 'tool_result').map((b) => textOf(b.content)),
    question: textOf(last?.content),
  };
}

/** What a Gemini request asks. */
function readGemini(body) {
  const last = body.contents?.at(-1);
  const parts = last?.parts ?? [];
  return {
    tools: (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => ({ name: d.name, schema: d.parameters ?? d.parametersJsonSchema })),
    results: parts.filter((p) => p.functionResponse !== undefined).map((p) => JSON.stringify(p.functionResponse.response ?? {})),
    question: parts.map((p) => p.text ?? '').join(' '),
  };
}

/** One stand-in API: `route` says whether a request is for it and which model it names. */
function upstream(route, read, encode, pauseMs) {
  return http.createServer((req, res) => {
    const model = route(req);
    if (model === undefined) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"not JSON"}}');
      }
      const asked = read(body);
      const inputTokens = Math.max(1, Math.round(JSON.stringify(body).length / 4));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const subscription = from(answerEvents({ ...asked, inputTokens }))
        .pipe(
          concatMap((event) => of(event).pipe(delay(pauseMs))),
          encode(model),
        )
        .subscribe({ next: (sse) => res.write(sse), complete: () => res.end(), error: () => res.destroy() });
      res.on('close', () => subscription.unsubscribe());
    });
  });
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

/**
 * Start the stand-in Anthropic and Gemini APIs on 127.0.0.1 (free ports).
 *
 * @param {{ pauseMs?: number }} [options] The pause between two events (default 15 ms).
 * @returns {Promise<{ anthropic: string, gemini: string, close(): Promise<void> }>} Their origins, and a way to stop them.
 */
export async function startDemoUpstreams(options = {}) {
  const pauseMs = options.pauseMs ?? 15;
  const anthropic = upstream(
    (req) => (req.method === 'POST' && req.url === '/v1/messages' ? 'claude-demo' : undefined),
    readAnthropic,
    (model) => encodeAnthropicMessages({ model }),
    pauseMs,
  );
  const gemini = upstream(
    (req) => (req.method === 'POST' ? /^\/v1beta\/models\/([^:/]+):streamGenerateContent/.exec(req.url ?? '')?.[1] : undefined),
    readGemini,
    (model) => encodeGemini({ model }),
    pauseMs,
  );
  const [anthropicUrl, geminiUrl] = await Promise.all([listen(anthropic), listen(gemini)]);
  return {
    anthropic: anthropicUrl,
    gemini: geminiUrl,
    close: () =>
      Promise.all(
        [anthropic, gemini].map((server) => {
          server.closeAllConnections();
          return new Promise((resolve) => server.close(resolve));
        }),
      ).then(() => undefined),
  };
}
