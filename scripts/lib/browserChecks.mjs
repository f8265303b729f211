// What the two Chromium scripts (browser-test.mjs, angular-app-test.mjs) share: the browser they
// launch, and named checks that print `ok` / `FAIL` and are counted for the summary line.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Throws, naming the fix, when there is no Chromium (`/usr/bin/chromium`, or `CHROMIUM_PATH`). */
export function assertChromium() {
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
}

/**
 * Where a script saves its screenshot: the path after `--screenshot` on its command line, or
 * `.ci-out/screenshots/NAME.png` (untracked). Tests never write the committed pictures the docs show
 * (examples/browser/screenshot.png, examples/angular/screenshot.png); to renew one, pass its path.
 */
export function screenshotPath(name) {
  const at = process.argv.indexOf('--screenshot');
  const file = at === -1 ? fileURLToPath(new URL(`../../.ci-out/screenshots/${name}.png`, import.meta.url)) : path.resolve(process.argv[at + 1] ?? '');
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/** Headless Chromium. */
export async function launchChromium() {
  assertChromium();
  return chromium.launch({ executablePath, args: FLAGS });
}

/** Passed and failed checks so far. */
export const counts = { passed: 0, failed: 0 };

/** Run one named check: prints `ok name` or `FAIL name` with the reason, and counts it. */
export async function check(name, body) {
  try {
    await body();
    counts.passed++;
    console.log(`ok ${name}`);
  } catch (error) {
    counts.failed++;
    console.log(`FAIL ${name}\n  ${error?.message ?? error}`);
  }
}

/** Throws unless `actual` and `expected` are the same JSON. */
export function equal(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** A failure outside the checks (set-up): counted, with its stack. */
export function setupFailed(what, error) {
  counts.failed++;
  console.log(`FAIL ${what}\n  ${error?.stack ?? error}`);
}

/** Print `label: N passed, M failed` and exit (1 when anything failed). */
export function finish(label) {
  console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed === 0 ? 0 : 1);
}
