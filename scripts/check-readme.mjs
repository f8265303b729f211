#!/usr/bin/env node
// npm run check:readme — every ```ts block of README.md and of every docs/*.md page type-checks
// against the built package.
//
// Each block is compiled as its own module (strict, noUncheckedIndexedAccess,
// exactOptionalPropertyTypes) in a temporary directory where `rxjs-tool-calls` resolves to this
// package through its `exports` (dist/ and its .d.ts: run `npm run build` first) and every other
// import (rxjs, zod, openai, @anthropic-ai/sdk, @angular/*, …) to this repository's node_modules.
//
// A block imports every library, rxjs and SDK name it uses. Only the reader's own values (`url`,
// `messages`, `history`, …) may be left to the reader, and only when declared, in one of two ways:
//   1. in the block itself, as the reader would see it: `declare const url: string;`
//   2. hidden, in an HTML comment right before the block (invisible on GitHub and npm):
//        <!-- readme-declare: declare const url: string; declare const messages: object[]; -->
// Blocks that are not meant to compile are not ```ts (use ```text, ```sh, …).
//
// Usage: node scripts/check-readme.mjs [FILE.md …] (default: README.md and docs/*.md). Prints each
// file's count and each failing block with the file's line of each error, then one line over all
// files, "check-readme: N passed, N failed"; exits 1 when a block fails.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuilt, typecheckBlocks } from './lib/typecheckBlocks.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = path.join(root, 'docs');
const pages =
  process.argv.length > 2
    ? process.argv.slice(2).map((file) => path.resolve(file))
    : [
        path.join(root, 'README.md'),
        ...(existsSync(docsDir)
          ? readdirSync(docsDir)
              .filter((name) => name.endsWith('.md'))
              .sort()
              .map((name) => path.join(docsDir, name))
          : []),
      ];

/** The ```ts blocks: their code, the README line of their first code line, and hidden declarations. */
function extractBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript)\s*$/.exec(lines[i]);
    if (open === null) {
      // skip over other fences so that a ```ts inside them is not taken
      const other = /^(\s*)(```+|~~~+)/.exec(lines[i]);
      if (other !== null) {
        const fence = other[2];
        for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence); i++);
      }
      continue;
    }
    const indent = open[1].length;
    let declared = '';
    for (let j = i - 1; j >= 0 && lines[j].trim() !== ''; j--) {
      const m = /<!--\s*readme-declare:([\s\S]*?)-->/.exec(lines[j]);
      if (m !== null) declared = `${m[1].trim()}\n${declared}`;
      else break;
    }
    const code = [];
    const start = i + 2; // 1-based line of the first code line
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) code.push(lines[i].slice(Math.min(indent, lines[i].length - lines[i].trimStart().length)));
    blocks.push({ code: code.join('\n'), start, declared });
  }
  return blocks;
}

if (!isBuilt(root)) {
  console.error('check-readme: dist/ is missing: run `npm run build` first');
  console.log('check-readme: 0 passed, 1 failed');
  process.exit(1);
}

// Every block of every page, each compiled as its own module in one program.
const blocks = pages.flatMap((page) => extractBlocks(readFileSync(page, 'utf8')).map((block) => ({ ...block, page, name: path.relative(root, page) })));
// The hidden declarations go on the first line, so the block's own lines keep their numbers (+1).
const { errors, outside } = typecheckBlocks(
  root,
  blocks.map((block) => `${block.declared.replace(/\n/g, ' ')} export {};\n${block.code}\n`),
  'check-readme',
);
for (const e of outside) console.log(`(outside the blocks) error TS${e.code}: ${e.message}`);
let passed = 0;
let failed = 0;
for (const page of pages) {
  const name = path.relative(root, page);
  const own = blocks.map((block, n) => ({ block, n })).filter(({ block }) => block.page === page);
  const failures = own.filter(({ n }) => errors[n].length > 0);
  console.log(`${failures.length === 0 ? 'ok  ' : 'FAIL'} ${name}: ${own.length - failures.length} passed, ${failures.length} failed`);
  passed += own.length - failures.length;
  failed += failures.length;
  for (const { block, n } of failures) {
    console.log(`  ✗ ${name}:${block.start - 1}:`);
    for (const e of errors[n]) {
      const where = e.line === 0 ? 'readme-declare comment' : `${name}:${block.start + e.line - 1}`;
      console.log(`      ${where}: TS${e.code} ${e.message.split('\n').join('\n        ')}`);
    }
  }
}
console.log(`check-readme: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
