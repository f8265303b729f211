import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the shared recorded provider streams live (read in place, never copied into the repo). */
export const FIXTURES_DIR = resolve(__dirname, '../../../shared/fixtures');

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
