// Smoke test of the built package through its `exports` map: ESM `import` and CJS `require`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { from, lastValueFrom, toArray } from 'rxjs';

const require = createRequire(import.meta.url);
const bytes = new Uint8Array(readFileSync(new URL('../examples/weather.sse', import.meta.url)));
const esm = await import('rxjs-tool-calls');
const cjs = require('rxjs-tool-calls');
let failed = 0;
for (const [how, lib] of [['import', esm], ['require', cjs]]) {
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
console.log(`smoke: ${4 - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
