/** Test-only access to the shared conformance fixtures, read in place (never copied into the repo). */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { from, type OperatorFunction } from 'rxjs';
import type { SseEvent, StreamEvent } from '../../src/events';
import { splitSse } from './sse';

export const FIXTURES_DIR = path.resolve(__dirname, '../../../shared/fixtures');

export interface ExpectedCall {
  index: number;
  id: string | null;
  itemId?: string;
  name: string;
  type?: string;
  caller?: unknown;
  arguments: unknown;
  rawArguments: string | null;
  thoughtSignaturePresent?: boolean;
  blockStopped?: boolean;
}

export interface Expected {
  api: string;
  toolCalls: ExpectedCall[];
  finishReason: string | null;
  text: string;
  reasoning?: string;
  errors?: Array<{ error: Record<string, unknown> }>;
}

/** `dir/name` stems of every fixture in the given provider folders matching `filter`. */
export function fixtureNames(dirs: readonly string[], filter: (name: string) => boolean = () => true): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(path.join(FIXTURES_DIR, dir))
      .filter((file) => file.endsWith('.sse') && filter(file))
      .map((file) => `${dir}/${file.slice(0, -'.sse'.length)}`),
  );
}

export function loadFixture(stem: string): { events: SseEvent[]; expected: Expected } {
  const text = readFileSync(path.join(FIXTURES_DIR, `${stem}.sse`), 'utf8');
  const expected = JSON.parse(readFileSync(path.join(FIXTURES_DIR, `${stem}.expected.json`), 'utf8')) as Expected;
  return { events: splitSse(text), expected };
}

/** Run SSE events through an adapter synchronously: every event emitted, and the error if it failed. */
export function runAdapter(events: readonly SseEvent[], adapter: OperatorFunction<SseEvent, StreamEvent>): { out: StreamEvent[]; error: unknown; completed: boolean } {
  const out: StreamEvent[] = [];
  let error: unknown;
  let completed = false;
  from(events)
    .pipe(adapter)
    .subscribe({ next: (event) => out.push(event), error: (e: unknown) => (error = e), complete: () => (completed = true) });
  return { out, error, completed };
}
