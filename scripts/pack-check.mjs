// The published tarball against its budgets: `npm pack --dry-run --json`, which runs the prepack
// script (scripts/prepack.mjs: it builds dist/ when dist/ is missing or older than its sources, so
// after `npm run build` it builds nothing). Checks that prepack ran and dist/ is packed, the packed
// and unpacked sizes (in kB of 1,000 bytes, as npm prints them), that no source map is packed, that
// LICENSE, README.md and CHANGELOG.md are, and that every file package.json points at (main,
// module, types, bin, typesVersions, each entry of exports) is in the tarball. Prints
// "pack: N passed, M failed"; exits 1 on failure.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// The tarball holds the code twice (ESM and CommonJS: jest's default CommonJS mode cannot load ES
// modules) and the type declarations, most of them the doc comments editors show on hover. The code
// is not minified: minifying drops the `/* @__PURE__ */` marks users' bundlers tree-shake by, and
// the readable stack traces. The budget is the size when it was last set with a little room to
// grow: it stops growth no one decided on.
const BUDGET = { packed: 548_000, unpacked: 2_260_000 };
const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

let passed = 0;
let failed = 0;
function check(what, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`);
}
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** Every string leaf of a package.json field (`exports` conditions, `typesVersions` arrays, `bin`). */
function leaves(value) {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(leaves);
}

let pack;
const npm = spawnSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const prepack = (npm.stderr ?? '').split('\n').filter((line) => line.startsWith('prepack: '));
for (const line of prepack) console.log(line);
check(
  'npm pack runs prepack (dist/ built from the current sources)',
  npm.status === 0 && prepack.length > 0,
  npm.status === 0 ? '' : `exit code ${npm.status}: ${(npm.stderr ?? '').trim().split('\n').at(-1)}`,
);
try {
  [pack] = JSON.parse(npm.stdout);
} catch (error) {
  check('npm pack --dry-run --json prints JSON', false, error.message.split('\n')[0]);
}
if (pack) {
  const files = new Set(pack.files.map((file) => file.path));
  console.log(`${pack.filename}: ${pack.files.length} files, ${kB(pack.size)} packed, ${kB(pack.unpackedSize)} unpacked`);
  const dist = [...files].filter((file) => file.startsWith('dist/'));
  check('dist/ packed', dist.length > 0, `${dist.length} files`);
  check(`packed size ≤ ${kB(BUDGET.packed)}`, pack.size <= BUDGET.packed, kB(pack.size));
  check(`unpacked size ≤ ${kB(BUDGET.unpacked)}`, pack.unpackedSize <= BUDGET.unpacked, kB(pack.unpackedSize));
  const maps = [...files].filter((file) => file.endsWith('.map'));
  check('no source maps packed', maps.length === 0, maps.join(', '));
  for (const file of ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json']) check(`${file} packed`, files.has(file));
  const pointedAt = [pkg.main, pkg.module, pkg.types, ...leaves(pkg.bin), ...leaves(pkg.typesVersions), ...leaves(pkg.exports)].filter((path) => path !== undefined && !path.includes('*'));
  const missing = [...new Set(pointedAt.map((path) => path.replace(/^\.\//, '')))].filter((path) => !files.has(path));
  check(`every file package.json points at is packed (${new Set(pointedAt).size} paths)`, missing.length === 0, missing.length ? `missing: ${missing.join(', ')}` : '');
}
console.log(`pack: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
