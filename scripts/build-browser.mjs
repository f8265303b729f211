// The browser bundle of the built library (dist/index.js, with rxjs's `share` for the demo) for
// examples/browser, built with esbuild for platform "browser". Fails when anything in the bundle
// would need a Node.js built-in module. Run `npm run build` first.
import { builtinModules } from 'node:module';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
export const BUNDLE = `${root}examples/browser/dist/rxjs-tool-calls.js`;

/** Node built-ins the bundle's inputs import, and `node:` / `require(` traces in its text. */
export function nodeOnlyTraces(metafile, text) {
  const found = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) if (builtins.has(imported.path) || imported.path.startsWith('node:')) found.push(`${file} imports ${imported.path}`);
  }
  for (const match of text.matchAll(/\b(?:from\s*["']node:[^"']+["']|require\(\s*["'][^"']+["']\s*\)|process\.versions\.node)/g)) found.push(`bundle text: ${match[0]}`);
  return found;
}

/** Build the bundle; returns the problems found (empty when it is browser-clean). */
export async function buildBrowserBundle() {
  const result = await build({
    stdin: { contents: "export * from './dist/index.js';\nexport { share } from 'rxjs';\n", resolveDir: root, sourcefile: 'browser-entry.js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: false,
    metafile: true,
    outfile: BUNDLE,
    logLevel: 'error',
  });
  const { readFileSync } = await import('node:fs');
  return nodeOnlyTraces(result.metafile, readFileSync(BUNDLE, 'utf8'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await buildBrowserBundle();
  for (const problem of problems) console.error(problem);
  console.log(problems.length ? `browser bundle: ${problems.length} Node-only traces` : `browser bundle: ${BUNDLE} (no Node-only APIs)`);
  process.exitCode = problems.length ? 1 : 0;
}
