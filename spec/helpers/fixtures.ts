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
}

export interface Fixture {
  /** `provider/name` */
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly expected: Expected;
}

/** Every `.sse` fixture with its `.expected.json`, sorted by name. */
export function loadFixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const dir of readdirSync(FIXTURES_DIR, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(FIXTURES_DIR, dir.name))) {
      if (!file.endsWith('.sse')) continue;
      const base = file.slice(0, -'.sse'.length);
      out.push({
        name: `${dir.name}/${base}`,
        bytes: new Uint8Array(readFileSync(join(FIXTURES_DIR, dir.name, file))),
        expected: JSON.parse(readFileSync(join(FIXTURES_DIR, dir.name, `${base}.expected.json`), 'utf8')) as Expected,
      });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
