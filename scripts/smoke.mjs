// Smoke test of the built package through its `exports` map: ESM `import` and CJS `require` of
// every entry, each value its .d.ts / .d.cts declares present at run time; errors made by one copy
// of the code are recognised by every other (ESM and CJS, every entry); the optional peers (zod,
// Angular) are never loaded by the main entry.
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
// The Angular entry reads through the main entry: no copy of the reducer in it.
for (const file of ['../dist/angular.js', '../dist/angular.cjs']) {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const usesMain = /from ['"]rxjs-tool-calls['"]|require\(['"]rxjs-tool-calls['"]\)/.test(text);
  check(usesMain && !text.includes('reduceToolCalls'), `${file.slice(3)} imports the main entry, with no copy of the reducer`);
}
// Every entry, both ways: each value its declarations name exists at run time.
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const entries = Object.keys(manifest.exports).filter((key) => key !== './package.json');
const ts = (await import('typescript')).default;
/** The value names a declaration file exports (what `import { x }` may name at run time). */
function declaredValues(file) {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(file));
  return checker
    .getExportsOfModule(symbol)
    .filter((exported) => {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = exported.declarations?.[0];
      const typeOnly = declaration !== undefined && ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly);
      return !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0;
    })
    .map((exported) => exported.name);
}
await import('@angular/compiler'); // plain Node: Angular's partially compiled classes need the JIT compiler
const loaded = {};
for (const key of entries) {
  const name = key === '.' ? 'rxjs-tool-calls' : `rxjs-tool-calls/${key.slice(2)}`;
  const conditions = manifest.exports[key];
  for (const [how, load, types] of [
    ['import', () => import(name), conditions.import.types],
    ['require', () => require(name), conditions.require.types],
  ]) {
    const module = await load();
    loaded[`${how} ${name}`] = module;
    const declared = declaredValues(fileURLToPath(new URL(`../${types}`, import.meta.url)));
    const missing = declared.filter((value) => module[value] === undefined);
    check(declared.length > 0 && missing.length === 0, `${how} ${name}: the ${declared.length} values of ${types} exist${missing.length === 0 ? '' : `; missing: ${missing.join(', ')}`}`);
  }
}
// One error family whichever copy made the error: ESM and CJS, main entry and wings.
const made = [
  new esm.ToolStreamError('idle-timeout', { timeoutMs: 1 }),
  new cjs.ToolStreamError('idle-timeout', { timeoutMs: 1 }),
  loaded['require rxjs-tool-calls/advanced'].httpProviderError(429, '{}'),
  loaded['import rxjs-tool-calls/advanced'].httpProviderError(429, '{}'),
];
check(
  made.every((error) => error instanceof esm.ToolStreamError && error instanceof cjs.ToolStreamError && esm.isToolStreamError(error) && cjs.isToolStreamError(error)),
  'an error of any copy (ESM, CJS, any entry) is instanceof ToolStreamError of every copy',
);
// Every copy prints its errors as ToolStreamError (console.error shows util.inspect's output).
const { inspect } = await import('node:util');
for (const [n, error] of made.entries()) {
  const first = inspect(error).split('\n')[0];
  check(error.name === 'ToolStreamError' && error.constructor.name === 'ToolStreamError' && first === `ToolStreamError: ${error.message}`, `error ${n + 1} of 4 prints as ToolStreamError (${first})`);
}
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
