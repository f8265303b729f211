/**
 * `rxjs-tool-calls/async` without `rxjs-for-await` installed: the loop fails with an error naming
 * the package to install. The entry is bundled (ESM and CJS, `rxjs-for-await` left external) into a
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
${load}
const { of } = rx;
(async () => {
  try {
    for await (const r of m.eachToolCall(of(${JSON.stringify(stream)}))) console.log('result', r.success && r.data.name);
    console.log('done');
  } catch (error) {
    console.log('error', error.message);
  }
})();
`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-async-'));
  const entry = path.join(root, 'src/async.ts');
  const common = { entryPoints: [entry], bundle: true, platform: 'node' as const, target: 'node20', external: ['rxjs-for-await'], logLevel: 'silent' as const };
  await build({ ...common, format: 'esm', outfile: path.join(dir, 'async.mjs') });
  await build({ ...common, format: 'cjs', outfile: path.join(dir, 'async.cjs') });
  await build({ entryPoints: ['rxjs'], bundle: true, platform: 'node', format: 'cjs', outfile: path.join(dir, 'rx.cjs'), nodePaths: [path.join(root, 'node_modules')], logLevel: 'silent' });
  writeFileSync(path.join(dir, 'run.mjs'), loop(`import * as m from './async.mjs'; import rx from './rx.cjs';`));
  writeFileSync(path.join(dir, 'run.cjs'), loop(`const m = require('./async.cjs'); const rx = require('./rx.cjs');`));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const node = async (file: string): Promise<string> => (await promisify(execFile)(process.execPath, [path.join(dir, file)], { cwd: dir, timeout: 20_000 })).stdout;

describe('rxjs-tool-calls/async without rxjs-for-await', () => {
  it.each(['run.mjs', 'run.cjs'])('%s: the loop throws an error that names the package to install', async (file) => {
    expect(await node(file)).toBe('error rxjs-tool-calls/async needs the optional peer dependency rxjs-for-await, which is not installed: run `npm install rxjs-for-await`\n');
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
