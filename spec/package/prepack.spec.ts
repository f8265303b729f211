/**
 * `npm pack` ships dist/: the prepack script (scripts/prepack.mjs) builds dist/ when a file
 * package.json points at is missing or older than a file it is built from, and refuses, saying what
 * to run, when the dev dependencies needed to build are not installed. Here on small packages in a
 * temporary directory (a real build is CI's `build` step; scripts/pack-check.mjs then checks that
 * `npm pack` ran prepack and packed dist/).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildReason, distFiles } from '../../scripts/prepack.mjs';

const root = path.join(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; exports: Record<string, unknown>; main: string };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-prepack-'));
  mkdirSync(path.join(dir, 'src'));
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync(path.join(root, 'scripts/prepack.mjs'), path.join(dir, 'scripts/prepack.mjs'));
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'prepack-fixture',
      version: '1.0.0',
      main: './dist/index.cjs',
      exports: { '.': { import: './dist/index.js', require: './dist/index.cjs' }, './package.json': './package.json' },
      files: ['dist'],
      scripts: { prepack: pkg.scripts['prepack'] },
    }),
  );
  writeFileSync(path.join(dir, 'src/index.ts'), 'export const x = 1;\n');
  writeFileSync(path.join(dir, 'src/index.spec.ts'), '');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Write dist/ files at `seconds` from now (negative: in the past). */
function writeDist(files: ReadonlyArray<string>, seconds = 0): void {
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (const file of files) {
    writeFileSync(path.join(dir, 'dist', file), '');
    const at = Date.now() / 1000 + seconds;
    utimesSync(path.join(dir, 'dist', file), at, at);
  }
}
const touch = (file: string, seconds: number): void => {
  const at = Date.now() / 1000 + seconds;
  utimesSync(path.join(dir, file), at, at);
};

function run(file: string, args: ReadonlyArray<string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { cwd: dir, env: { ...process.env, npm_config_loglevel: 'error' }, timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe('prepack', () => {
  it("is the package's prepack script", () => {
    expect(pkg.scripts['prepack']).toBe('node scripts/prepack.mjs');
  });

  it('knows every dist/ file package.json points at', () => {
    const files = distFiles(root);
    expect(files).toContain(path.normalize(pkg.main));
    expect(files.length).toBeGreaterThan(Object.keys(pkg.exports).length);
    expect(files.every((file) => file.startsWith(`dist${path.sep}`))).toBe(true);
  });

  it('builds when dist/ is missing, lacks a file, or is older than a source; not when it is complete and newer', () => {
    expect(buildReason(dir)).toBe('dist/ is not built');
    writeDist(['index.js']);
    expect(buildReason(dir)).toBe(`dist/ lacks ${path.join('dist', 'index.cjs')}`);
    touch('src/index.ts', -60);
    touch('package.json', -60);
    writeDist(['index.js', 'index.cjs']);
    expect(buildReason(dir)).toBeUndefined();
    touch('src/index.spec.ts', 60); // a spec is not built into dist/
    expect(buildReason(dir)).toBeUndefined();
    touch('src/index.ts', 60);
    expect(buildReason(dir)).toBe('dist/ is older than src/index.ts');
    touch('package.json', 60);
    expect(buildReason(dir)).toBe('dist/ is older than src/index.ts, package.json');
  });

  it('npm pack on a clone without dist/ and without its dev dependencies refuses, saying what to run', async () => {
    const { code, stdout, stderr } = await run('npm', ['pack', '--dry-run', '--json']);
    expect(code).not.toBe(0);
    expect(stdout).not.toContain('"filename"');
    expect(stderr).toContain(`prepack: dist/ is not built, and building it needs the dev dependencies: run \`npm ci\` (or \`npm install\`) in ${dir}${path.sep}, then pack again`);
  }, 60_000);

  it('npm pack with dist/ built from the current sources packs it, with prepack saying so on stderr and JSON alone on stdout', async () => {
    touch('src/index.ts', -60);
    touch('src/index.spec.ts', -60);
    touch('package.json', -60);
    writeDist(['index.js', 'index.cjs']);
    const { code, stdout, stderr } = await run('npm', ['pack', '--dry-run', '--json']);
    expect(code).toBe(0);
    expect(stderr).toContain('prepack: dist/ is built from the current sources (2 entry files): packing it');
    const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    expect(packed.files.map((f) => f.path).sort()).toEqual(['dist/index.cjs', 'dist/index.js', 'package.json']);
  }, 60_000);
});
