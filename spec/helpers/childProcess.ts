/**
 * Run a TypeScript entry file in a child Node.js process with its own heap limit, for specs where
 * memory is the point (an out-of-memory crash must be seen as such, not take jest down with it).
 *
 * The entry is bundled with esbuild (a devDependency; `src/` is bundled in, so no `dist/` build is
 * needed) into a temporary directory, then run with `node --max-old-space-size=…`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

/** How a child process ended. */
export interface ChildResult {
  /** The exit code (`null` when a signal ended it). */
  readonly code: number | null;
  /** The signal that ended it, if any. */
  readonly signal: NodeJS.Signals | null;
  /** Everything it wrote to stdout. */
  readonly stdout: string;
  /** Everything it wrote to stderr. */
  readonly stderr: string;
  /** V8 ran out of heap ("JavaScript heap out of memory" / "Allocation failed"). */
  readonly outOfMemory: boolean;
  /** It was killed after the timeout. */
  readonly timedOut: boolean;
}

/** Options of {@link ChildScript.run}. */
export interface RunChildOptions {
  /** `--max-old-space-size` in MB (V8's limit on its old generation). */
  readonly maxOldSpaceMb?: number;
  /** Kill it after this long. Default 60 s. */
  readonly timeoutMs?: number;
  /** More Node.js flags (e.g. `--expose-gc`). */
  readonly nodeFlags?: ReadonlyArray<string>;
}

/** A bundled entry file, ready to run in child processes. */
export interface ChildScript {
  /** Run it with `args`. */
  run(args: ReadonlyArray<string>, options?: RunChildOptions): Promise<ChildResult>;
  /** Delete the bundle. */
  dispose(): void;
}

/** Bundle `entry` (an absolute path to a `.ts` file) for Node.js into a fresh temporary directory. */
export async function bundleChild(entry: string): Promise<ChildScript> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-child-'));
  const outfile = path.join(dir, `${path.basename(entry, '.ts')}.mjs`);
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent' });
  return {
    run: (args, options = {}) => runNode(outfile, args, options),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function runNode(file: string, args: ReadonlyArray<string>, options: RunChildOptions): Promise<ChildResult> {
  const flags = [...(options.maxOldSpaceMb === undefined ? [] : [`--max-old-space-size=${options.maxOldSpaceMb}`]), ...(options.nodeFlags ?? [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const outOfMemory = /heap out of memory|Allocation failed|Invalid string length|Reached heap limit/.test(stderr);
      resolve({ code, signal, stdout, stderr, outOfMemory, timedOut });
    });
  });
}

/** The last line of `stdout` parsed as JSON (children report one JSON line at the end). */
export function lastJsonLine<T>(result: ChildResult): T {
  const lines = result.stdout.trim().split('\n');
  const last = lines[lines.length - 1] ?? '';
  if (result.code !== 0 || last === '') {
    throw new Error(`child failed (code ${result.code}, signal ${result.signal}${result.outOfMemory ? ', out of memory' : ''}${result.timedOut ? ', timed out' : ''}):\n${result.stderr.slice(-2000)}`);
  }
  return JSON.parse(last) as T;
}
