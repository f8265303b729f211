import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where the shared recorded provider streams live (read in place, never copied into the repo):
 * `../shared/fixtures` beside the repository, or the directory `RXJS_TOOL_CALLS_FIXTURES` names.
 * The one place that knows it; jest's global setup (spec/helpers/fixturesSetup.ts) stops the run
 * when it is missing.
 */
export const FIXTURES_DIR = resolve(process.env['RXJS_TOOL_CALLS_FIXTURES'] || resolve(__dirname, '../../../shared/fixtures'));

/**
 * What is wrong with {@link FIXTURES_DIR}, in one line, or `undefined` when it is a directory with at
 * least one provider's recordings in it.
 */
export function fixturesProblem(dir = FIXTURES_DIR): string | undefined {
  const where = `expected at ${dir} (../shared/fixtures beside the repository, or set RXJS_TOOL_CALLS_FIXTURES to their directory)`;
  if (!existsSync(dir)) return `the recorded provider streams are missing: ${where}`;
  if (!statSync(dir).isDirectory()) return `the recorded provider streams are not a directory: ${where}`;
  const providers = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && readdirSync(join(dir, entry.name)).some((file) => file.endsWith('.sse')));
  if (providers.length === 0) return `the recorded provider streams directory holds no <provider>/*.sse recordings: ${where}`;
  return undefined;
}

export interface ExpectedToolCall {
  readonly index: number;
  readonly indexOnWire?: boolean;
  readonly id: string | null;
  readonly name: string;
  readonly arguments: unknown;
  readonly rawArguments: string | null;
  readonly blockStopped?: boolean;
  readonly itemId?: string;
}

export interface Expected {
  readonly api: string;
  readonly sseEventCount: number;
  readonly toolCalls: ReadonlyArray<ExpectedToolCall>;
  readonly finishReason: string | null;
  readonly text: string;
  readonly reasoning?: string;
  readonly errors?: ReadonlyArray<unknown>;
  /** Our own streams (spec/fixtures/sse): the last usage event's counts. */
  readonly usage?: Readonly<Record<string, number>>;
  /** Our own streams: the provider-run tools, each with its input and result. */
  readonly providerTools?: ReadonlyArray<{ readonly id: string; readonly tool: string; readonly input?: unknown; readonly result?: unknown }>;
}

export interface Fixture {
  /** `provider/name` */
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly expected: Expected;
}

/** Every `.sse` fixture with its `.expected.json` under `root` (`<provider>/<name>.sse`), sorted by name. */
function fixturesIn(root: string): Fixture[] {
  const out: Fixture[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(root, dir.name))) {
      if (!file.endsWith('.sse')) continue;
      const base = file.slice(0, -'.sse'.length);
      out.push({
        name: `${dir.name}/${base}`,
        bytes: new Uint8Array(readFileSync(join(root, dir.name, file))),
        expected: JSON.parse(readFileSync(join(root, dir.name, `${base}.expected.json`), 'utf8')) as Expected,
      });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Every shared `.sse` fixture (../shared/fixtures) with its `.expected.json`, sorted by name. */
export function loadFixtures(): Fixture[] {
  return fixturesIn(FIXTURES_DIR);
}

/**
 * Where our own streams in the shape of a format's recordings live (formats the shared fixtures do
 * not cover: Gemini's Interactions API), in the same layout.
 */
export const OWN_FIXTURES_DIR = resolve(__dirname, '../fixtures/sse');

/** Our own `.sse` streams (spec/fixtures/sse) with their `.expected.json`, sorted by name. */
export function loadOwnFixtures(): Fixture[] {
  return fixturesIn(OWN_FIXTURES_DIR);
}
