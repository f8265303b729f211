// Smoke test of the built package through its `exports` map: ESM `import` and CJS `require`; the
// optional peers (zod, Angular) are never loaded by the main entry, and `rxjs-tool-calls/angular`
// is a separate entry that uses the main one (one copy of every class).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { from, lastValueFrom, toArray } from 'rxjs';

const require = createRequire(import.meta.url);
const bytes = new Uint8Array(readFileSync(new URL('../examples/weather.sse', import.meta.url)));
const esm = await import('rxjs-tool-calls');
const cjs = require('rxjs-tool-calls');
let failed = 0;
for (const [how, lib] of [
  ['import', esm],
  ['require', cjs],
]) {
  const results = await lastValueFrom(from([bytes]).pipe(lib.readToolCalls(), toArray()));
  const names = results.map((r) => (r.success ? r.data.name : r.error.code)).join(',');
  const ok = names === 'get_weather,get_time' && typeof lib.decodeSse === 'function';
  if (!ok) failed++;
  console.log(`${ok ? 'ok' : 'FAIL'} ${how}: ${names}`);
}
// zod is an optional peer: the built entry points must never load it.
for (const file of ['../dist/index.js', '../dist/index.cjs']) {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const loadsZod = /from ['"]zod['"]|require\(['"]zod['"]\)/.test(text);
  if (loadsZod) failed++;
  console.log(`${loadsZod ? 'FAIL' : 'ok'} ${file.slice(3)} does not load zod`);
}
let total = 4;
const check = (ok, what) => {
  total++;
  if (!ok) failed++;
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
};
// The main entry never names Angular; the Angular entry imports the main entry instead of a copy of it.
for (const file of ['../dist/index.js', '../dist/index.cjs']) {
  check(!readFileSync(new URL(file, import.meta.url), 'utf8').includes('@angular/'), `${file.slice(3)} does not load Angular`);
}
for (const file of ['../dist/angular.js', '../dist/angular.cjs']) {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const usesMain = /from ['"]rxjs-tool-calls['"]|require\(['"]rxjs-tool-calls['"]\)/.test(text);
  // Nothing of the library's own code but the Angular glue: no shared chunk, no copy of the tracker or the error classes.
  const ownCode = /from ['"]\.\/chunk-|require\(['"]\.\/chunk-|ToolCallTracker|ERROR_MESSAGES/.test(text);
  check(usesMain && !ownCode, `${file.slice(3)} imports the main entry, with no copy of its code`);
}
await import('@angular/compiler'); // plain Node: Angular's partially compiled classes need the JIT compiler
const angularEsm = await import('rxjs-tool-calls/angular');
const angularCjs = require('rxjs-tool-calls/angular');
for (const [how, lib] of [
  ['import', angularEsm],
  ['require', angularCjs],
]) {
  check(typeof lib.streamFrom === 'function' && typeof lib.injectChatStream === 'function', `${how} rxjs-tool-calls/angular: streamFrom, injectChatStream`);
}
// An app with rxjs only (no zod, no Angular): the main entry loads and works; the Angular entry
// fails for want of Angular, naming it.
const app = mkdtempSync(join(tmpdir(), 'rxjs-tool-calls-smoke-'));
try {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const pkg = join(app, 'node_modules', 'rxjs-tool-calls');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
  symlinkSync(join(root, 'node_modules', 'rxjs'), join(app, 'node_modules', 'rxjs'), 'dir');
  writeFileSync(join(app, 'main.mjs'), "import { readToolCalls, chatState } from 'rxjs-tool-calls'; console.log(typeof readToolCalls, typeof chatState);");
  writeFileSync(join(app, 'main.cjs'), "const { readToolCalls, chatState } = require('rxjs-tool-calls'); console.log(typeof readToolCalls, typeof chatState);");
  writeFileSync(join(app, 'angular.mjs'), "import('rxjs-tool-calls/angular').then(() => console.log('loaded'), (e) => console.log(e.code, e.message.split('\\n')[0]));");
  const run = (file) => execFileSync(process.execPath, [file], { cwd: app, encoding: 'utf8' }).trim();
  check(run('main.mjs') === 'function function', 'without the optional peers: import rxjs-tool-calls');
  check(run('main.cjs') === 'function function', 'without the optional peers: require rxjs-tool-calls');
  const angular = run('angular.mjs');
  check(angular.startsWith('ERR_MODULE_NOT_FOUND') && angular.includes('@angular/'), `without Angular: rxjs-tool-calls/angular fails naming it (${angular})`);
} finally {
  rmSync(app, { recursive: true, force: true });
}
console.log(`smoke: ${total - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
