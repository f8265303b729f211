// Type-checks code blocks (README ```ts blocks, doc-comment @example blocks) against the BUILT
// package, the way a reader who installed it would compile them: each block is its own module
// (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes) in a temporary directory where
// `rxjs-tool-calls` and its subpath entries resolve to this package through its `exports` (dist/
// and its .d.ts: run `npm run build` first) and every other import (rxjs, zod, openai,
// @anthropic-ai/sdk, @angular/*, …) to this repository's node_modules.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

/** Whether dist/ holds the built declarations the blocks compile against. */
export function isBuilt(root) {
  return existsSync(path.join(root, 'dist', 'index.d.ts'));
}

/** A directory whose node_modules holds this package (as `rxjs-tool-calls`) and links to every dependency. */
function workspace(root, prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(root, 'node_modules'))) {
    if (name.startsWith('.') || name === 'rxjs-tool-calls') continue;
    symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name));
  }
  symlinkSync(root, path.join(modules, 'rxjs-tool-calls'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `${prefix}-blocks`, type: 'module', private: true }));
  return dir;
}

/**
 * Compiles every block as its own module in one program.
 *
 * @param root The package's directory (its dist/ and node_modules/).
 * @param sources Each block's module text.
 * @param prefix The temporary directory's name prefix.
 * @return For each block, in order, its errors: `{ line, code, message }` with `line` 0-based in the
 *   block's module text; and the errors outside every block (`{ code, message }`).
 */
export function typecheckBlocks(root, sources, prefix) {
  const dir = workspace(root, prefix);
  try {
    const files = sources.map((source, n) => {
      const file = path.join(dir, `block${String(n + 1).padStart(3, '0')}.ts`);
      writeFileSync(file, source);
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
    const outside = [];
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const file = d.file?.fileName;
      const list = file === undefined ? undefined : byFile.get(path.resolve(file));
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (list === undefined) {
        outside.push({ code: d.code, message });
        continue;
      }
      const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
      list.push({ line, code: d.code, message });
    }
    return { errors: files.map((f) => byFile.get(f)), outside };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
