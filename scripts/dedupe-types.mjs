// After tsup: one copy of the declarations instead of two. tsup writes the same declarations twice,
// `.d.ts` for the ESM build and `.d.cts` for the CommonJS one (the same text, most of it doc
// comments). An ES module may import a CommonJS one, so TypeScript accepts an ESM declaration file
// that re-exports a CommonJS one under every moduleResolution (node10, node16, nodenext, bundler):
//
// - each entry's ESM declaration file becomes `export * from './index.cjs'`;
// - except an entry whose declarations import a package published as ES modules only (Angular):
//   under node16 a CommonJS declaration file may not import it, so that entry keeps its own ESM
//   file, whose imports of ESM chunks are pointed at the CommonJS chunks of the same content;
// - the ESM chunks nothing imports any more are removed.
//
// The entries are read from package.json `exports` (the condition pair `import.types` /
// `require.types`). Checked by scripts/runners.mjs (the tsc project) and `attw --pack`.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file) => readFileSync(file, 'utf8');

/** The relative and bare specifiers a declaration file imports or re-exports. */
const specifiers = (text) => [...text.matchAll(/^(?:import|export)\b[^;]*?['"]([^'"]+)['"];?$/gm)].map((match) => match[1]);

/** Whether a bare specifier names a package (or subpath) with no CommonJS form, resolved from the repository. */
function esmOnly(specifier) {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const file = path.join(root, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return false;
  const pkg = JSON.parse(read(file));
  const subpath = specifier === name ? '.' : `./${specifier.slice(name.length + 1)}`;
  const target = pkg.exports?.[subpath];
  return pkg.type === 'module' && !(target !== null && typeof target === 'object' && 'require' in target);
}

/** A chunk's text with the chunk names' hashes and extensions taken out (`'./events-DIPbtT9p.js'` → `'./events'`). */
const normalized = (text) => text.replace(/(['"])\.\/([A-Za-z0-9_]+)-[A-Za-z0-9_-]{8}\.c?js\1/g, "'./$2'");
const chunkBase = (name) => /^([A-Za-z0-9_]+)-[A-Za-z0-9_-]{8}\.d\.c?ts$/.exec(name)?.[1];

/** Rewrite dist/'s ESM declarations to use the CommonJS ones; returns how many files were rewritten and removed. */
export function dedupeTypes() {
  const pkg = JSON.parse(read(path.join(root, 'package.json')));
  const dist = path.join(root, 'dist');
  const names = readdirSync(dist);
  const stubs = new Map();
  const kept = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const esm = target?.import?.types;
    const cjs = target?.require?.types;
    if (typeof esm !== 'string' || typeof cjs !== 'string') continue;
    const esmFile = path.join(root, esm);
    const cjsFile = path.join(root, cjs);
    if (!existsSync(cjsFile)) throw new Error(`${subpath}: ${cjs} does not exist (run tsup first)`);
    const cjsText = read(cjsFile);
    if (specifiers(cjsText).some((specifier) => !specifier.startsWith('.') && esmOnly(specifier))) {
      kept.push(esmFile);
      continue;
    }
    let specifier = path
      .relative(path.dirname(esmFile), cjsFile)
      .split(path.sep)
      .join('/')
      .replace(/\.d\.cts$/, '.cjs');
    if (!specifier.startsWith('.')) specifier = `./${specifier}`;
    const hasDefault = /^export default |\bas default\b/m.test(cjsText);
    stubs.set(esmFile, `export * from '${specifier}';\n${hasDefault ? `export { default } from '${specifier}';\n` : ''}`);
  }
  for (const [file, text] of stubs) writeFileSync(file, text);

  // The kept ESM files: each import of an ESM chunk goes to the CommonJS chunk with the same text,
  // or, when there is none, the ESM chunk is kept too (and its imports pointed the same way).
  const cjsChunkFor = (esmName) => {
    const base = chunkBase(esmName);
    const text = normalized(read(path.join(dist, esmName)));
    return names.find((name) => name.endsWith('.d.cts') && chunkBase(name) === base && normalized(read(path.join(dist, name))) === text);
  };
  const keep = new Set(kept);
  for (let i = 0; i < kept.length; i++) {
    const file = kept[i];
    const text = read(file).replace(/(['"])\.\/([^'"]+)\.js\1/g, (whole, quote, spec) => {
      const esmName = `${spec}.d.ts`;
      if (!names.includes(esmName)) return whole;
      const cjsName = cjsChunkFor(esmName);
      if (cjsName !== undefined) return `${quote}./${cjsName.replace(/\.d\.cts$/, '.cjs')}${quote}`;
      const esmFile = path.join(dist, esmName);
      if (!keep.has(esmFile)) {
        keep.add(esmFile);
        kept.push(esmFile);
      }
      return whole;
    });
    writeFileSync(file, text);
  }

  // Every other ESM declaration file was imported only by the ones rewritten.
  const removed = [];
  for (const name of names) {
    const file = path.join(dist, name);
    if (name.endsWith('.d.ts') && !stubs.has(file) && !keep.has(file)) {
      rmSync(file);
      removed.push(name);
    }
  }
  // What is left must not import a removed file.
  for (const name of readdirSync(dist)) {
    if (!/\.d\.c?ts$/.test(name)) continue;
    for (const spec of specifiers(read(path.join(dist, name))).filter((s) => s.startsWith('.'))) {
      const base = path.resolve(dist, spec);
      const candidates = [base.replace(/\.cjs$/, '.d.cts'), base.replace(/\.js$/, '.d.ts'), `${base}.d.ts`, `${base}.d.cts`];
      if (!candidates.some((candidate) => existsSync(candidate))) throw new Error(`dist/${name} imports ${spec}, which no declaration file is left for`);
    }
  }
  return { stubs: stubs.size, kept: kept.length, removed: removed.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { stubs, kept, removed } = dedupeTypes();
  console.log(`types: ${stubs} ESM declaration files re-export their CommonJS ones, ${kept} kept (they import ESM-only packages); ${removed} duplicate declaration files removed`);
}
