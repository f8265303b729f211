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
import ts from 'typescript';
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

/** The doc comments (`/** … *\/`) of a source file, each with the 0-based line it starts on: the leading comments of every token, so never text inside a string. */
function docComments(file) {
  const text = readFileSync(file, 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Map();
  const visit = (node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
      if (range.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith('/**', range.pos) && !seen.has(range.pos)) {
        seen.set(range.pos, { text: text.slice(range.pos, range.end), line: sourceFile.getLineAndCharacterOfPosition(range.pos).line });
      }
    }
    for (const child of node.getChildren(sourceFile)) visit(child);
  };
  visit(sourceFile);
  return [...seen.entries()].sort(([a], [b]) => a - b).map(([, comment]) => comment);
}

/**
 * The ```ts blocks inside `@example` sections of one doc comment: their code (the comment's `* `
 * prefix removed) and the 1-based source line of their first code line. An `@example` section runs
 * to the next block tag or the comment's end.
 */
function exampleBlocks(comment) {
  const lines = comment.text.split('\n').map((line, i) => {
    let body = i === 0 ? line.replace(/^\/\*\*\s?/, '') : line.replace(/^\s*\*(?!\/) ?/, '');
    body = body.replace(/\s*\*\/\s*$/, '');
    return body;
  });
  const blocks = [];
  let inExample = false;
  for (let i = 0; i < lines.length; i++) {
    const tag = /^\s*@(\w+)/.exec(lines[i]);
    if (tag !== null) {
      inExample = tag[1] === 'example';
      continue;
    }
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (open === null) continue;
    const code = [];
    const start = comment.line + i + 2;
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) code.push(lines[i].slice(Math.min(open[1].length, lines[i].length - lines[i].trimStart().length)));
    if (inExample && (open[2] === 'ts' || open[2] === 'typescript')) blocks.push({ code: code.join('\n'), start });
  }
  return blocks;
}

if (!isBuilt(root)) {
  console.error('check-examples: dist/ is missing: run `npm run build` first');
  console.log('check-examples: 0 passed, 1 failed');
  process.exit(1);
}

const blocks = files.flatMap((file) =>
  docComments(file)
    .flatMap(exampleBlocks)
    .map((block) => ({ ...block, file })),
);
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
