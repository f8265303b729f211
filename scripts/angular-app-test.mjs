// The Angular CLI example app, end to end: installs its dependencies (`npm ci` in examples/angular,
// which packs this repository as `rxjs-tool-calls`: run `npm run build` first), builds it with
// `ng build`, serves it with its scripted SSE endpoint from one 127.0.0.1 server
// (examples/angular/server.mjs), and drives it in headless Chromium (playwright-core +
// /usr/bin/chromium): the text and the partial arguments show while the answer streams, the
// validated arguments at the end, and Stop cancels a turn keeping what arrived. Then the same app
// against a backend of each UI protocol (`?backend=ai-sdk-ui`, `?backend=ag-ui`), whose answers are
// written by the protocols' own producers (the `ai` package's `streamText` over its mock model →
// `toUIMessageStreamResponse()`; `@ag-ui/encoder`): the request each expects, the live arguments,
// the validated result and the backend tool's output. Saves a mid-stream
// screenshot to .ci-out/screenshots/angular-app.png (`--screenshot examples/angular/screenshot.png`
// renews the committed picture). Prints the seconds of each phase and
// "angular-app: N passed, M failed"; exits 1 on failure. `--skip-install` / `--skip-build` reuse
// what is there.
/* global window, document, MutationObserver -- the functions passed to page.evaluate run in the page */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EventEncoder } from '@ag-ui/encoder';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { assertChromium, check, equal, finish, launchChromium, screenshotPath, setupFailed } from './lib/browserChecks.mjs';

const app = fileURLToPath(new URL('../examples/angular/', import.meta.url));
const screenshot = screenshotPath('angular-app');
const ANSWER_TEXT = 'Let me check the weather in Zürich for the next three days.';

/** Run a phase, print its seconds. */
function timed(what, run) {
  const start = performance.now();
  run();
  console.log(`${what}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
/** `text` cut after the SSE event holding `marker`: the part before the hold point, and the rest. */
function splitAfter(text, marker) {
  const at = text.indexOf('\n\n', text.indexOf(marker)) + 2;
  if (at < 2 || text.indexOf(marker) < 0) throw new Error(`no ${marker} in the stream`);
  return { head: text.slice(0, at), tail: text.slice(at) };
}

/** The scripted answer as the AI SDK writes it: `streamText` over its mock model, the tool run on the server. */
async function aiSdkAnswer({ ANSWER, FRAGMENTS, HOLD_AFTER, OUTPUT }) {
  const words = ['Let me check ', 'the weather in ', 'Zürich ', 'for the next ', 'three days.'];
  const model = new MockLanguageModelV3({
    doStream: async () => ({
      stream: convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't0' },
        ...words.map((delta) => ({ type: 'text-delta', id: 't0', delta })),
        { type: 'text-end', id: 't0' },
        { type: 'tool-input-start', id: 'call_ai_1', toolName: 'get_weather' },
        ...FRAGMENTS.map((delta) => ({ type: 'tool-input-delta', id: 'call_ai_1', delta })),
        { type: 'tool-input-end', id: 'call_ai_1' },
        { type: 'tool-call', toolCallId: 'call_ai_1', toolName: 'get_weather', input: JSON.stringify(ANSWER.arguments) },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: { inputTokens: { total: 52, noCache: 52 }, outputTokens: { total: 31, text: 31 } } },
      ]),
    }),
  });
  const result = streamText({ model, prompt: 'weather', stopWhen: stepCountIs(1), tools: { get_weather: tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => OUTPUT }) } });
  const text = await result.toUIMessageStreamResponse({ messageMetadata: ({ part }) => (part.type === 'finish' ? { totalUsage: part.totalUsage } : undefined) }).text();
  // Hold after the fragment that completes the city, as the other endpoints do (the fragment as a JSON string's content).
  return splitAfter(text, JSON.stringify(FRAGMENTS[HOLD_AFTER - 1]).slice(1, -1));
}

/** The scripted answer as `@ag-ui/encoder` writes its events. */
function agUiAnswer({ agUiEvents }) {
  const encoder = new EventEncoder();
  const { head, tail } = agUiEvents();
  return { head: head.map((event) => encoder.encodeSSE(event)).join(''), tail: tail.map((event) => encoder.encodeSSE(event)).join('') };
}

const sh = (command, args) => execFileSync(command, args, { cwd: app, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NG_CLI_ANALYTICS: 'false', NO_COLOR: '1' } });

let browser;
let server;
try {
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) throw new Error('the library is not built: run `npm run build` first');
  assertChromium();
  if (!process.argv.includes('--skip-install')) timed('npm ci (examples/angular)', () => sh('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']));
  if (!process.argv.includes('--skip-build')) timed('ng build', () => sh('npx', ['ng', 'build']));
  const started = performance.now();
  const { startServer } = await import('../examples/angular/server.mjs');
  server = await startServer({ hold: true, delayMs: 8, chunkSize: 16 });
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 900, height: 400 }, deviceScaleFactor: 1 });
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
  await page.goto(`${server.origin}/`);
  await page.waitForSelector('button.ask:not([disabled])');
  // Every distinct text and arguments the page shows, recorded in the page as the DOM changes.
  await page.evaluate(() => {
    const seen = (window.__seen = { text: [], args: [] });
    const record = () => {
      const text = document.querySelector('.text')?.textContent ?? '';
      const args = document.querySelector('.call .args')?.textContent ?? '';
      if (text !== '' && seen.text.at(-1) !== text) seen.text.push(text);
      if (args !== '' && seen.args.at(-1) !== args) seen.args.push(args);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const view = () =>
    page.evaluate(() => ({
      status: document.querySelector('.status')?.getAttribute('data-status'),
      text: document.querySelector('.text')?.textContent,
      calls: [...document.querySelectorAll('.call')].map((li) => ({
        name: li.getAttribute('data-name'),
        outcome: li.getAttribute('data-outcome'),
        city: li.querySelector('.city').textContent,
        days: li.querySelector('.days').textContent,
        args: JSON.parse(li.querySelector('.args').textContent),
      })),
      error: document.querySelector('.error')?.textContent,
    }));

  await page.click('button.ask');
  await check('the prompt is posted to the endpoint as a chat request', async () => {
    for (let i = 0; i < 100 && server.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    equal(server.requests[0]?.body, { model: 'demo-model', stream: true, messages: [{ role: 'user', content: 'What will the weather be in Zürich this week?' }] }, 'request body');
  });
  await check('while streaming: the text and the partial arguments (city complete, days not yet)', async () => {
    await page.waitForFunction(() => document.querySelector('.call .args')?.textContent?.includes('Zürich'), null, { timeout: 15000 });
    const shown = await view();
    equal(shown, { status: 'streaming', text: ANSWER_TEXT, calls: [{ name: 'get_weather', outcome: 'receiving', city: 'Zürich', days: '…', args: { city: 'Zürich' } }] }, 'the page mid-stream');
    equal(await page.isDisabled('button.ask'), true, 'Ask is disabled while streaming');
  });
  await page.screenshot({ path: screenshot });
  server.release();
  await check('at the end: the validated arguments, the finish reason and the usage', async () => {
    await page.waitForSelector('.status[data-status="done"]', { timeout: 15000 });
    const shown = await view();
    equal(
      shown,
      { status: 'done', text: ANSWER_TEXT, calls: [{ name: 'get_weather', outcome: 'ok', city: 'Zürich', days: '3', args: { city: 'Zürich', days: 3, units: 'celsius' } }] },
      'the page at the end',
    );
    const status = await page.textContent('.status');
    if (!status.includes('tool-calls') || !status.includes('83 tokens')) throw new Error(`status line: ${status}`);
  });
  await check('the text and the arguments grew through several values on the page', async () => {
    const seen = await page.evaluate(() => window.__seen);
    if (seen.text.length < 3 || !seen.text.every((t, i) => i === 0 || t.startsWith(seen.text[i - 1]))) throw new Error(`texts shown: ${JSON.stringify(seen.text)}`);
    const args = seen.args.map((a) => JSON.parse(a));
    if (args.length < 4) throw new Error(`arguments shown: ${JSON.stringify(args)}`);
    equal(args.at(-1), { city: 'Zürich', days: 3, units: 'celsius' }, 'the last arguments shown');
  });
  await check('Stop cancels a turn: the request is aborted, the state ends with the AbortError, what arrived stays', async () => {
    await page.click('button.ask');
    await page.waitForFunction(() => document.querySelector('.call .args')?.textContent?.includes('Zürich') && document.querySelector('.status')?.getAttribute('data-status') === 'streaming', null, {
      timeout: 15000,
    });
    await page.click('button.stop');
    await page.waitForSelector('.status[data-status="error"]', { timeout: 5000 });
    const shown = await view();
    equal([shown.text, shown.calls.map((c) => [c.outcome, c.args]), shown.error?.startsWith('AbortError')], [ANSWER_TEXT, [['incomplete', { city: 'Zürich' }]], true], 'the cancelled turn');
    await Promise.race([server.requests.at(-1).closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the request was not aborted')), 3000))]);
    server.release();
  });
  // The same app against a backend of each UI protocol: only what it posts differs.
  const scripted = await import('../examples/angular/server.mjs');
  const ui = await startServer({ hold: true, delayMs: 8, chunkSize: 16, streams: { '/api/ui-chat': await aiSdkAnswer(scripted), '/api/agent': agUiAnswer(scripted) } });
  try {
    for (const [backend, path, expectedBody] of [
      [
        'ai-sdk-ui',
        '/api/ui-chat',
        { id: 'chat-1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What will the weather be in Zürich this week?' }] }], trigger: 'submit-message' },
      ],
      [
        'ag-ui',
        '/api/agent',
        {
          threadId: 'thread-1',
          runId: 'run-1',
          messages: [{ id: 'u1', role: 'user', content: 'What will the weather be in Zürich this week?' }],
          tools: [],
          context: [],
          state: {},
          forwardedProps: {},
        },
      ],
    ]) {
      await page.goto(`${ui.origin}/?backend=${backend}`);
      await page.waitForSelector('button.ask:not([disabled])');
      await page.click('button.ask');
      await check(`${backend}: the request is what such a backend expects, posted to ${path}`, async () => {
        for (let i = 0; i < 100 && ui.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
        const request = ui.requests.at(-1);
        equal([request?.path, request?.body], [path, expectedBody], 'request');
      });
      await check(`${backend}: while streaming, the text and the partial arguments`, async () => {
        await page.waitForFunction(() => document.querySelector('.call .args')?.textContent?.includes('Zürich'), null, { timeout: 15000 });
        const shown = await view();
        equal(shown, { status: 'streaming', text: ANSWER_TEXT, calls: [{ name: 'get_weather', outcome: 'receiving', city: 'Zürich', days: '…', args: { city: 'Zürich' } }] }, 'the page mid-stream');
      });
      ui.release();
      await check(`${backend}: at the end, the validated arguments, the backend tool's output, the finish and the usage`, async () => {
        await page.waitForSelector('.status[data-status="done"]', { timeout: 15000 });
        const shown = await view();
        equal(shown.calls, [{ name: 'get_weather', outcome: 'ok', city: 'Zürich', days: '3', args: { city: 'Zürich', days: 3, units: 'celsius' } }], 'the call at the end');
        const output = (await page.textContent('.call .output'))?.replace(/\s+/g, ' ').trim();
        if (!output?.includes('"celsius": 7') && !output?.includes('\\"celsius\\":7')) throw new Error(`the tool's output shown: ${output}`);
        // The AI SDK passes the model's finish on; an AG-UI run whose calls were all answered finished (`stop`).
        const status = await page.textContent('.status');
        if (!status.includes(backend === 'ai-sdk-ui' ? 'finish: tool-calls' : 'finish: stop') || !status.includes('83 tokens')) throw new Error(`status line: ${status}`);
      });
    }
  } finally {
    await ui.close();
  }
  // The multi-turn chat page (injectChat): two user turns, a client tool approved in the template
  // and run in the browser with a progress value, its output sent back as the next request.
  await page.goto(`${server.origin}/?page=chat`);
  await page.waitForSelector('button.send:not([disabled])');
  const turns = () => server.requests.filter((r) => r.path === '/api/turns');
  const messagesShown = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.message')].map((li) => ({
        role: li.classList.contains('user') ? 'user' : 'assistant',
        text: (li.classList.contains('user') ? li.textContent : li.querySelector('.text')?.textContent)?.trim(),
        calls: [...li.querySelectorAll('.call')].map((c) => [c.getAttribute('data-name'), c.querySelector('.approval')?.textContent ?? null, c.querySelector('.output')?.textContent ?? null]),
      })),
    );
  await page.fill('input[name="prompt"]', 'Where am I, and what is the weather?');
  await page.click('button.send');
  await check('chat: the backend asks for the client tool; its approval shows in the template', async () => {
    await page.waitForSelector('button.approve', { timeout: 15000 });
    equal(await page.textContent('.chat-status'), 'awaiting-approval', 'status');
    equal(
      turns()[0]?.body,
      { id: 'chat-1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where am I, and what is the weather?' }] }], trigger: 'submit-message' },
      'the first request',
    );
    equal(
      await messagesShown(),
      [
        { role: 'user', text: 'Where am I, and what is the weather?', calls: [] },
        { role: 'assistant', text: 'Let me find where you are.', calls: [['locate', 'waiting for approval', null]] },
      ],
      'the page',
    );
  });
  await page.click('button.approve');
  await check('chat: approved, the tool runs in the browser and its progress value shows on the call', async () => {
    await page.waitForSelector('.call[data-name="locate"] .output.progress', { timeout: 15000 });
    equal(await page.textContent('.call[data-name="locate"] .output'), 'progress: "asking the browser…"', 'the progress value');
    equal([await page.textContent('.chat-status'), turns().length, await page.$('button.approve')], ['running', 1, null], 'running, no request yet, no approval left');
  });
  await page.click('button.finish-locating');
  await check('chat: the output goes back as the next request by itself; the backend’s tool output shows', async () => {
    await page.waitForSelector('.chat-status[data-status="ready"]', { timeout: 15000 });
    const parts = turns()[1]?.body?.messages?.[1]?.parts;
    equal(
      parts,
      [
        { type: 'text', text: 'Let me find where you are.' },
        { type: 'tool-locate', toolCallId: 'call_locate', input: {}, state: 'output-available', output: 'Zürich' },
      ],
      'the tool output sent back',
    );
    const shown = await messagesShown();
    equal(shown[1]?.calls, [['locate', 'approved', '"Zürich"']], 'the client call');
    equal(
      [shown[2]?.text, shown[2]?.calls[0]?.[0], shown[2]?.calls[0]?.[2]?.replace(/\s+/g, '')],
      ['You are in Zürich. Checking the weather there.', 'get_weather', '{"celsius":7,"sky":"clear"}'],
      'the second step',
    );
  });
  await page.fill('input[name="prompt"]', 'And tomorrow?');
  await page.click('button.send');
  await check('chat: a second user turn carries the whole conversation', async () => {
    await page.waitForFunction(() => document.querySelectorAll('.message').length === 5 && document.querySelector('.chat-status')?.getAttribute('data-status') === 'ready', null, { timeout: 15000 });
    equal(turns().length, 3, 'requests');
    equal(
      turns()[2]?.body?.messages?.map((m) => [m.role, m.parts.map((p) => p.type)]),
      [
        ['user', ['text']],
        ['assistant', ['text', 'tool-locate']],
        ['assistant', ['text', 'tool-get_weather']],
        ['user', ['text']],
      ],
      'the conversation posted',
    );
    equal((await messagesShown()).at(-1)?.text, 'Tomorrow: 9°C and sunny in Zürich.', 'the last answer');
  });
  await check('no page errors', async () => equal(pageErrors, [], 'page errors'));
  console.log(`browser test: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`screenshot: ${screenshot}`);
} catch (error) {
  setupFailed('angular app test setup', error);
} finally {
  await browser?.close();
  await server?.close();
}
finish('angular-app');
