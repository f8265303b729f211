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
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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

/** A directory whose node_modules holds this package (as `rxjs-tool-calls`) and links to every dependency. */
function workspace() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'check-readme-'));
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(root, 'node_modules'))) {
    if (name.startsWith('.') || name === 'rxjs-tool-calls') continue;
    symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name));
  }
  symlinkSync(root, path.join(modules, 'rxjs-tool-calls'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'readme-blocks', type: 'module', private: true }));
  return dir;
}

if (!existsSync(path.join(root, 'dist', 'index.d.ts'))) {
  console.error('check-readme: dist/ is missing: run `npm run build` first');
  console.log('check-readme: 0 passed, 1 failed');
  process.exit(1);
}

// Every block of every page, each compiled as its own module in one program.
const blocks = pages.flatMap((page) => extractBlocks(readFileSync(page, 'utf8')).map((block) => ({ ...block, page, name: path.relative(root, page) })));
const dir = workspace();
try {
  // The hidden declarations go on the first line, so the block's own lines keep their numbers (+1).
  const files = blocks.map((block, n) => {
    const file = path.join(dir, `block${String(n + 1).padStart(3, '0')}.ts`);
    writeFileSync(file, `${block.declared.replace(/\n/g, ' ')} export {};\n${block.code}\n`);
    return file;
  });
  const options = {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [path.join(dir, 'node_modules', '@types')],
    esModuleInterop: true,
    isolatedModules: true,
    resolveJsonModule: true,
  };
  const program = ts.createProgram(files, options);
  const byFile = new Map(files.map((f) => [f, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName;
    const list = file === undefined ? undefined : byFile.get(path.resolve(file));
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (list === undefined) {
      console.log(`(outside the blocks) error TS${d.code}: ${message}`);
      continue;
    }
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    list.push({ line, code: d.code, message });
  }
  let passed = 0;
  let failed = 0;
  for (const page of pages) {
    const name = path.relative(root, page);
    const own = blocks.map((block, n) => ({ block, n })).filter(({ block }) => block.page === page);
    const failures = own.filter(({ n }) => byFile.get(files[n]).length > 0);
    console.log(`${failures.length === 0 ? 'ok  ' : 'FAIL'} ${name}: ${own.length - failures.length} passed, ${failures.length} failed`);
    passed += own.length - failures.length;
    failed += failures.length;
    for (const { block, n } of failures) {
      console.log(`  ✗ ${name}:${block.start - 1}:`);
      for (const e of byFile.get(files[n])) {
        const where = e.line === 0 ? 'readme-declare comment' : `${name}:${block.start + e.line - 1}`;
        console.log(`      ${where}: TS${e.code} ${e.message.split('\n').join('\n        ')}`);
      }
    }
  }
  console.log(`check-readme: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
