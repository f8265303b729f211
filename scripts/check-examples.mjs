#!/usr/bin/env node
// npm run check:examples — every ```ts block inside an `@example` of a doc comment in src/**/*.ts
// and marbles/**/*.ts type-checks against the built package, as README blocks do
// (scripts/check-readme.mjs; both compile through scripts/lib/typecheckBlocks.mjs).
//
// Each block is compiled as its own module (strict, noUncheckedIndexedAccess,
// exactOptionalPropertyTypes) where `rxjs-tool-calls` and `rxjs-tool-calls/<wing>` resolve to
// dist/ through the package's `exports` (run `npm run build` first). So a block imports every
// library name it uses from the entry that really exports it, and every rxjs and SDK name too; the
// reader's own values (`url`, `messages`, `events$`, …) are declared in the block itself, as the
// reader sees them on the page: `declare const events$: Observable<StreamEvent>;`. Code in a doc
// comment that is not meant to compile is not ```ts (use ```text).
//
// Usage: node scripts/check-examples.mjs [FILE.ts …] (default: src/**/*.ts and marbles/**/*.ts).
// Prints each file's count, each failing block with the source line of each error, then one line
// over all files, "check-examples: N passed, N failed"; exits 1 when a block fails.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exampleBlocks } from './lib/exampleBlocks.mjs';
import { isBuilt, typecheckBlocks } from './lib/typecheckBlocks.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every .ts file under `dir`, sorted (specs excluded). */
function sources(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return sources(file);
      return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts') ? [file] : [];
    });
}

const files = process.argv.length > 2 ? process.argv.slice(2).map((file) => path.resolve(file)) : [...sources(path.join(root, 'src')), ...sources(path.join(root, 'marbles'))];

if (!isBuilt(root)) {
  console.error('check-examples: dist/ is missing: run `npm run build` first');
  console.log('check-examples: 0 passed, 1 failed');
  process.exit(1);
}

const blocks = files.flatMap((file) => exampleBlocks(readFileSync(file, 'utf8'), file).map((block) => ({ ...block, file })));
// `export {};` goes on the first line, so the block's own lines keep their numbers (+1).
const { errors, outside } = typecheckBlocks(
  root,
  blocks.map((block) => `export {};\n${block.code}\n`),
  'check-examples',
);
for (const e of outside) console.log(`(outside the blocks) error TS${e.code}: ${e.message}`);
let passed = 0;
let failed = 0;
for (const file of files) {
  const name = path.relative(root, file);
  const own = blocks.map((block, n) => ({ block, n })).filter(({ block }) => block.file === file);
  if (own.length === 0) continue;
  const failures = own.filter(({ n }) => errors[n].length > 0);
  console.log(`${failures.length === 0 ? 'ok  ' : 'FAIL'} ${name}: ${own.length - failures.length} passed, ${failures.length} failed`);
  passed += own.length - failures.length;
  failed += failures.length;
  for (const { block, n } of failures) {
    console.log(`  ✗ ${name}:${block.start - 1}:`);
    for (const e of errors[n]) console.log(`      ${name}:${block.start + e.line - 1}: TS${e.code} ${e.message.split('\n').join('\n        ')}`);
  }
}
console.log(`check-examples: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
