// `npm run build`: tsup (ESM, CommonJS and declarations into dist/, its per-file table silenced),
// then one copy of the declarations (scripts/dedupe-types.mjs). Says what it is doing: a line when
// it starts, one every 10 s while tsup runs, and one when it is done. tsup's errors and warnings
// are shown as they come. Exits with tsup's code when it fails.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Build dist/; resolves when it is done, rejects when tsup fails. `log` receives the progress lines;
 * `stdout: 'stderr'` sends what tsup prints to stdout to stderr instead (for `npm pack --json`).
 */
export async function build({ log = (line) => console.log(line), stdout = 'inherit' } = {}) {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 1000);
  log('build: tsup → dist/ (ESM, CommonJS and type declarations; about 30-60 s on 2 cores)');
  const tick = setInterval(() => log(`build: still building (${seconds()} s)`), 10_000);
  try {
    const tsup = path.join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
    const code = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [tsup, '--silent'], { cwd: root, stdio: ['ignore', stdout === 'stderr' ? process.stderr : 'inherit', 'inherit'] });
      child.on('error', reject);
      child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    });
    if (code !== 0) throw Object.assign(new Error(`build: tsup failed (exit code ${code})`), { exitCode: code });
  } finally {
    clearInterval(tick);
  }
  const { dedupeTypes } = await import('./dedupe-types.mjs');
  const { stubs, kept, removed } = dedupeTypes();
  const dist = path.join(root, 'dist');
  const files = readdirSync(dist).filter((name) => statSync(path.join(dist, name)).isFile());
  const bytes = files.reduce((sum, name) => sum + statSync(path.join(dist, name)).size, 0);
  log(
    `build: done in ${seconds()} s: dist/ has ${files.length} files, ${(bytes / 1000).toFixed(0)} kB (declarations once: ${stubs} ESM entry files re-export the CommonJS ones, ${kept} import them, ${removed} duplicates removed)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await build();
  } catch (error) {
    console.error(error.message);
    process.exit(error.exitCode ?? 1);
  }
}
