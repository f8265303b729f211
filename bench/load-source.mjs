// Bundle modules of src/ with esbuild into .bench-out/ and import them: what the benchmarks that
// time the source as it is (not dist/) share.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Build `contents` (export statements relative to the project root, e.g.
 * `export { partialObject } from './src/index.ts';`) into `.bench-out/<name>.mjs`
 * and import it.
 */
export async function loadSource(name, contents) {
  const outfile = join(root, '.bench-out', `${name}.mjs`);
  await build({ stdin: { contents, resolveDir: root, loader: 'ts' }, bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, logLevel: 'warning' });
  return import(pathToFileURL(outfile).href);
}

/** Every public entry of the package mapped to its source, for esbuild's `alias` (`rxjs-tool-calls/gateway` → `src/gateway/index.ts`, …). */
export function entryAliases() {
  const entries = {
    '': 'src/index.ts',
    '/gateway': 'src/gateway/index.ts',
    '/tools': 'src/tools/index.ts',
    '/text': 'src/text/index.ts',
    '/sdk': 'src/sdk/index.ts',
    '/angular': 'src/angular/index.ts',
    '/async': 'src/async.ts',
    '/marbles': 'marbles/index.ts',
    '/advanced': 'src/advanced.ts',
    '/websocket': 'src/websocket/index.ts',
  };
  return Object.fromEntries(Object.entries(entries).map(([suffix, file]) => [`rxjs-tool-calls${suffix}`, join(root, file)]));
}
