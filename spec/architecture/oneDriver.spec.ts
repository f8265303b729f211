/**
 * One driver of the reducer: `src/calls/driver.ts` is the only file that imports the reducer
 * (`src/calls/reducer.ts`), so the options of the tool-call operators are resolved, and the end of a
 * stream is read, in one place. Every operator that tracks tool calls is built on the driver, and
 * none keeps a reducer of its own.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(__dirname, '../../src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The files a source file imports (relative imports, resolved to `.ts` files). */
function importedFiles(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || statement.moduleSpecifier === undefined) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!specifier.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), specifier);
    out.push(path.relative(SRC, statSync(`${base}.ts`, { throwIfNoEntry: false })?.isFile() === true ? `${base}.ts` : path.join(base, 'index.ts')));
  }
  return out;
}

/** The identifiers a file calls (`reduceToolCalls(...)`, `new CallDriver(...)`). */
function calledNames(file: string): Set<string> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ts.isIdentifier(node.expression)) names.add(node.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

const files = filesUnder(SRC);

/** Every operator, reader, encoder and recorder that tracks tool calls. */
const CONSUMERS = [
  'read/readToolCalls.ts',
  'operators/toolCalls.ts',
  'operators/groupToolCalls.ts',
  'operators/accumulateToolCalls.ts',
  'operators/eventsAndResults.ts',
  'operators/partialToolCalls.ts',
  'operators/chatState.ts',
  'operators/partialObject.ts',
  'gateway/encode/encodeWith.ts',
  'retry/delivered.ts',
];

describe('one driver of the reducer', () => {
  it('only src/calls/driver.ts imports the reducer', () => {
    const importers = files.filter((file) => importedFiles(file).includes(path.join('calls', 'reducer.ts'))).map((file) => path.relative(SRC, file));
    expect(importers).toEqual([path.join('calls', 'driver.ts')]);
  });

  it('only the driver calls reduceToolCalls', () => {
    const callers = files.filter((file) => calledNames(file).has('reduceToolCalls')).map((file) => path.relative(SRC, file));
    expect(callers).toEqual([path.join('calls', 'driver.ts')]);
  });

  it.each(CONSUMERS)('%s is built on the driver (it makes a CallDriver)', (file) => {
    expect(calledNames(path.join(SRC, file)).has('CallDriver')).toBe(true);
  });

  it('nothing else makes a driver: every consumer is listed above', () => {
    const makers = files.filter((file) => calledNames(file).has('CallDriver')).map((file) => path.relative(SRC, file).split(path.sep).join('/'));
    expect(makers.sort()).toEqual([...CONSUMERS].sort());
  });

  it('groupToolCalls() is rxjs groupBy over the driver (the card)', () => {
    expect(calledNames(path.join(SRC, 'operators/groupToolCalls.ts')).has('groupBy')).toBe(true);
  });
});
