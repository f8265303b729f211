// `prepack` (npm runs it before `npm pack` and `npm publish`, `--dry-run` included): the tarball
// ships dist/, so dist/ must exist and be built from the sources being packed. When a file
// package.json points at in dist/ is missing, or a file dist/ is built from is newer than one of
// them, this builds dist/ (scripts/build.mjs); otherwise it leaves it as it is, so packing after
// `npm run build` costs no second build. Without the dev dependencies (tsup) it refuses, saying
// what to run. Writes only to stderr: `npm pack --json` writes its JSON to stdout.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What dist/ is built from: files, and folders whose files (specs excepted) count. */
const INPUTS = ['src', 'marbles', 'package.json', 'tsconfig.json', 'tsup.config.ts', 'scripts/build.mjs', 'scripts/dedupe-types.mjs'];

/** Every string leaf of a package.json field (`exports` conditions, `typesVersions` arrays). */
function leaves(value) {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(leaves);
}

/** The files under dist/ package.json points at (main, module, types, typesVersions, exports). */
export function distFiles(root) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const paths = [pkg.main, pkg.module, pkg.types, ...leaves(pkg.typesVersions), ...leaves(pkg.exports)]
    .filter((file) => typeof file === 'string' && !file.includes('*'))
    .map((file) => path.normalize(file))
    .filter((file) => file.split(path.sep)[0] === 'dist');
  return [...new Set(paths)].sort();
}

/** The input files (relative paths) with their modification times. */
function inputs(root) {
  const out = [];
  const walk = (relative) => {
    const full = path.join(root, relative);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const name of readdirSync(full).sort()) walk(path.join(relative, name));
    } else if (!relative.endsWith('.spec.ts')) out.push({ file: relative, mtimeMs: stat.mtimeMs });
  };
  for (const input of INPUTS) walk(input);
  return out;
}

/**
 * Why dist/ must be built before packing, or `undefined` when it is complete and newer than every
 * file it is built from.
 */
export function buildReason(root) {
  const files = distFiles(root);
  if (files.length === 0) return 'package.json points at no file in dist/';
  const missing = files.filter((file) => !existsSync(path.join(root, file)));
  if (missing.length === files.length) return 'dist/ is not built';
  if (missing.length > 0) return `dist/ lacks ${missing.join(', ')}`;
  const oldest = files.map((file) => ({ file, mtimeMs: statSync(path.join(root, file)).mtimeMs })).reduce((a, b) => (b.mtimeMs < a.mtimeMs ? b : a));
  const newer = inputs(root).filter((input) => input.mtimeMs > oldest.mtimeMs);
  if (newer.length === 0) return undefined;
  const shown = newer.slice(0, 3).map((input) => input.file.split(path.sep).join('/'));
  return `dist/ is older than ${shown.join(', ')}${newer.length > shown.length ? ` and ${newer.length - shown.length} more` : ''}`;
}

/** Build dist/ when {@link buildReason} says so; resolves with the exit code. */
async function prepack(root) {
  const log = (line) => console.error(line);
  const reason = buildReason(root);
  if (reason === undefined) {
    log(`prepack: dist/ is built from the current sources (${distFiles(root).length} entry files): packing it`);
    return 0;
  }
  if (!existsSync(path.join(root, 'node_modules', 'tsup'))) {
    log(`prepack: ${reason}, and building it needs the dev dependencies: run \`npm ci\` (or \`npm install\`) in ${root}, then pack again`);
    return 1;
  }
  log(`prepack: ${reason}: building it before packing`);
  const { build } = await import('./build.mjs');
  try {
    await build({ log, stdout: 'stderr' });
  } catch (error) {
    log(`prepack: ${error.message}; nothing was packed`);
    return error.exitCode ?? 1;
  }
  const after = buildReason(root);
  if (after === undefined) return 0;
  log(`prepack: after the build, ${after}; nothing was packed`);
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  prepack(fileURLToPath(new URL('..', import.meta.url))).then((code) => (process.exitCode = code));
}
