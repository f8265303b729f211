// After tsup: one copy of the declarations instead of two. tsup writes the same declarations twice,
// `.d.ts` for the ESM build and `.d.cts` for the CommonJS one (370 kB each, three quarters of it doc
// comments). Each entry's ESM declaration file becomes one line that re-exports its CommonJS one
// (`export * from './index.cjs'`: an ES module may import a CommonJS one, so TypeScript accepts it
// under every moduleResolution: node10, node16, nodenext, bundler), and the ESM declaration chunks,
// which nothing imports any more, are removed. The entries are read from package.json `exports`
// (each condition pair `import.types` / `require.types`).
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Rewrite dist/'s ESM declarations as re-exports of the CommonJS ones; returns how many files were rewritten and removed. */
export function dedupeTypes() {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dist = path.join(root, 'dist');
  const stubs = new Map();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const esm = target?.import?.types;
    const cjs = target?.require?.types;
    if (typeof esm !== 'string' || typeof cjs !== 'string') continue;
    const esmFile = path.join(root, esm);
    const cjsFile = path.join(root, cjs);
    if (!existsSync(cjsFile)) throw new Error(`${subpath}: ${cjs} does not exist (run tsup first)`);
    let specifier = path
      .relative(path.dirname(esmFile), cjsFile)
      .split(path.sep)
      .join('/')
      .replace(/\.d\.cts$/, '.cjs');
    if (!specifier.startsWith('.')) specifier = `./${specifier}`;
    const hasDefault = /^export default |\bas default\b/m.test(readFileSync(cjsFile, 'utf8'));
    stubs.set(esmFile, `export * from '${specifier}';\n${hasDefault ? `export { default } from '${specifier}';\n` : ''}`);
  }
  for (const [file, text] of stubs) writeFileSync(file, text);

  // Every other ESM declaration file under dist/ was imported only by the ones just rewritten.
  const removed = [];
  for (const name of readdirSync(dist, { recursive: true })) {
    const file = path.join(dist, name);
    if (file.endsWith('.d.ts') && !stubs.has(file)) {
      rmSync(file);
      removed.push(name);
    }
  }
  // What is left must not import a removed file.
  for (const name of readdirSync(dist, { recursive: true })) {
    if (!/\.d\.c?ts$/.test(name)) continue;
    const file = path.join(dist, name);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom ['"](\.[^'"]+)['"]/gm)) {
      const base = path.resolve(path.dirname(file), spec);
      const candidates = [base.replace(/\.cjs$/, '.d.cts'), base.replace(/\.js$/, '.d.ts'), `${base}.d.ts`, `${base}.d.cts`];
      if (!candidates.some((candidate) => existsSync(candidate))) throw new Error(`${name} imports ${spec}, which no declaration file is left for`);
    }
  }
  return { stubs: stubs.size, removed: removed.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { stubs, removed } = dedupeTypes();
  console.log(`types: ${stubs} ESM declaration files re-export their CommonJS ones; ${removed} duplicate declaration files removed`);
}
