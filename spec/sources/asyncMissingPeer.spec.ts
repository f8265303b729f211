/**
 * `rxjs-tool-calls/async` without `rxjs-for-await` installed: loading the entry fails at once with
 * Node's module-not-found error naming the package to install. The entry is bundled (ESM and CJS, `rxjs-for-await` left external) into a
 * temporary directory where Node cannot resolve that package, then run in a child process; the
 * same bundles with the package linked in work.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const root = path.resolve(__dirname, '../..');
let dir = '';

const stream = [openaiChunk({ toolCalls: [{ id: 'c1', name: 'f', arguments: '{"a":1}' }] }), openaiChunk({ finishReason: 'tool_calls' }), openaiDone()].join('');
const loop = (load: string) => `
const { of } = require('./rx.cjs');
(async () => {
  let m;
  try {
    m = await ${load};
  } catch (error) {
    console.log('load failed', error.code, /'rxjs-for-await'/.test(error.message));
    return;
  }
  for await (const r of m.eachToolCall(of(${JSON.stringify(stream)}))) console.log('result', r.success && r.data.name);
  console.log('done');
})();
`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-async-'));
  const entry = path.join(root, 'src/async.ts');
  const common = { entryPoints: [entry], bundle: true, platform: 'node' as const, target: 'node20', external: ['rxjs-for-await'], logLevel: 'silent' as const };
  await build({ ...common, format: 'esm', outfile: path.join(dir, 'async.mjs') });
  await build({ ...common, format: 'cjs', outfile: path.join(dir, 'async.cjs') });
  await build({ entryPoints: ['rxjs'], bundle: true, platform: 'node', format: 'cjs', outfile: path.join(dir, 'rx.cjs'), nodePaths: [path.join(root, 'node_modules')], logLevel: 'silent' });
  writeFileSync(path.join(dir, 'run.mjs'), `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${loop(`import('./async.mjs')`)}`);
  writeFileSync(path.join(dir, 'run.cjs'), loop(`Promise.resolve().then(() => require('./async.cjs'))`));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const node = async (file: string): Promise<string> => (await promisify(execFile)(process.execPath, [path.join(dir, file)], { cwd: dir, timeout: 20_000 })).stdout;

describe('rxjs-tool-calls/async without rxjs-for-await', () => {
  it.each([
    ['run.mjs', 'ERR_MODULE_NOT_FOUND'],
    ['run.cjs', 'MODULE_NOT_FOUND'],
  ])('%s: loading the entry fails with %s naming the package to install', async (file, code) => {
    expect(await node(file)).toBe(`load failed ${code} true\n`);
  });

  it.each(['run.mjs', 'run.cjs'])('%s: with the package installed, the same bundle reads the stream', async (file) => {
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    const link = path.join(dir, 'node_modules/rxjs-for-await');
    rmSync(link, { force: true });
    symlinkSync(path.join(root, 'node_modules/rxjs-for-await'), link);
    try {
      expect(await node(file)).toBe('result f\ndone\n');
    } finally {
      rmSync(link, { force: true });
    }
  });
});
