// Browser test: bundles the built library for the browser (failing on Node-only APIs), serves
// examples/browser with its replay server, loads it in real headless Chromium (playwright-core +
// /usr/bin/chromium, e.g. Debian's `apt-get install -y chromium`), checks what the page rendered and
// saves a screenshot to .ci-out/screenshots/browser.png (`--screenshot PATH` for another place:
// `--screenshot examples/browser/screenshot.png` renews the committed picture). Run `npm run build` first.
// Prints "browser: N passed, M failed"; exits 1 on failure.
import { check, equal, finish, launchChromium, screenshotPath, setupFailed } from './lib/browserChecks.mjs';
import { startServer } from '../examples/browser/server.mjs';
import { buildBrowserBundle } from './build-browser.mjs';

const screenshot = screenshotPath('browser');

let browser;
let server;
try {
  await check('the browser bundle of dist/index.js has no Node-only APIs', async () => {
    const problems = await buildBrowserBundle();
    if (problems.length) throw new Error(problems.join('\n  '));
  });
  server = await startServer({ delayMs: 25 });
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1200, height: 480 }, deviceScaleFactor: 1 });
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
  await page.goto(`${server.origin}/`);

  await check('both panels stream and finish (weather done, error failed)', async () => {
    await page.waitForFunction(() => [...document.querySelectorAll('section[data-url]')].every((s) => s.dataset.state === 'done' || s.dataset.state === 'failed'), null, { timeout: 15000 });
    equal(
      await page.$$eval('section[data-url]', (sections) => sections.map((s) => [s.id, s.dataset.state])),
      [
        ['weather', 'done'],
        ['error', 'failed'],
      ],
      'states',
    );
  });
  const panel = (id) =>
    page.$eval(`#${id}`, (section) => ({
      text: section.querySelector('.text').textContent,
      calls: [...section.querySelectorAll('li')].map((li) => [li.className, li.querySelector('.name').textContent, li.querySelector('.args').textContent, li.querySelector('.result').textContent]),
      error: section.querySelector('.error').textContent,
    }));
  await check('weather: text and both validated results rendered', async () => {
    const { text, calls, error } = await panel('weather');
    equal(text, 'Let me check the weather in Zürich and the time in Tōkyō.', 'text');
    equal(
      calls,
      [
        ['ok', 'get_weather', '{"city": "Z\\u00fcrich", "units": "celsius"}', '✓ {"city":"Zürich","units":"celsius"}'],
        ['ok', 'get_time', '{"tz": "Asia/Tokyo", "label": "東京 🗼"}', '✓ {"tz":"Asia/Tokyo","label":"東京 🗼"}'],
      ],
      'calls',
    );
    equal(error, '', 'error');
  });
  await check('error: the complete call, the cut call as incomplete, and the typed provider error', async () => {
    const { text, calls, error } = await panel('error');
    equal(text, 'Booking a table and checking the forecast.', 'text');
    equal(
      calls.map(([kind, name, , result]) => [kind, name, result]),
      [
        ['ok', 'get_weather', '✓ {"city":"Lisbon","day":"friday"}'],
        ['bad', 'book_table', '✗ incomplete (provider-error)'],
      ],
      'calls',
    );
    if (!error.startsWith('provider-error: ') || !error.includes('Overloaded')) throw new Error(`error box: ${error}`);
  });
  await check("each call's arguments grew live (several distinct snapshots)", async () => {
    const history = await page.evaluate(() => window.__toolCallHistory);
    const counts = Object.values(history).flatMap((calls) => Object.values(calls).map((shown) => shown.length));
    equal(counts.length, 4, 'calls seen');
    if (!counts.every((n) => n >= 3)) throw new Error(`snapshots per call: ${counts}`);
  });
  await check('no page errors', async () => equal(pageErrors, [], 'page errors'));
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`screenshot: ${screenshot}`);
} catch (error) {
  setupFailed('browser test setup', error);
} finally {
  await browser?.close();
  await server?.close();
}
finish('browser');
