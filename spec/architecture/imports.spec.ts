/**
 * The stages import in one direction: vocabulary (`events.ts`, `errors/`, `result.ts`, `internal/`)
 * ← `sse/` and `framing/` (the byte framings, side by side) ← `providers/` ← `accumulate/` ← `parse/` ← compositions (everything else), and
 * `sources/` come after `providers/` (an HTTP error body is read as the provider's error). Type-only imports may cross; run-time imports may not.
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

/** The stage of a source file: its rank, and whether it is a source (which may use the vocabulary only). */
function stageOf(file: string): { readonly name: string; readonly rank: number } {
  const relative = path.relative(SRC, file).split(path.sep);
  const top = relative.length > 1 ? relative[0] : relative[0]?.replace(/\.ts$/, '');
  switch (top) {
    case 'events':
    case 'errors':
    case 'result':
    case 'internal':
      return { name: 'vocabulary', rank: 0 };
    case 'sse':
      return { name: 'sse', rank: 1 };
    case 'framing':
      return { name: 'framing', rank: 1 };
    case 'providers':
      return { name: 'providers', rank: 2 };
    case 'sources':
      return { name: 'sources', rank: 2.5 };
    case 'accumulate':
      return { name: 'accumulate', rank: 3 };
    case 'parse':
      return { name: 'parse', rank: 4 };
    default:
      return { name: `compositions (${top ?? '?'})`, rank: 5 };
  }
}

/** The run-time (not type-only) relative imports of a file, resolved to files. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || statement.moduleSpecifier === undefined) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!specifier.startsWith('.')) continue;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause === undefined) {
        found.push(specifier);
        continue;
      }
      if (clause.isTypeOnly) continue;
      const named = clause.namedBindings;
      const allTypes = clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (!allTypes) found.push(specifier);
    } else {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      const allTypes = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      if (!allTypes) found.push(specifier);
    }
  }
  return found.map((specifier) => {
    const base = path.resolve(path.dirname(file), specifier);
    for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // try the next form
      }
    }
    return base;
  });
}

const ENTRIES = new Set(['index.ts', 'advanced.ts', 'async.ts', 'cli.ts'].map((f) => path.join(SRC, f)));

describe('import direction', () => {
  const files = filesUnder(SRC).filter((f) => !ENTRIES.has(f));

  it('covers every stage', () => {
    const stages = new Set(files.map((f) => stageOf(f).name.replace(/ \(.*\)$/, '')));
    expect([...stages].sort()).toEqual(['accumulate', 'compositions', 'framing', 'parse', 'providers', 'sources', 'sse', 'vocabulary']);
  });

  it.each(files.map((f) => [path.relative(SRC, f), f] as const))('%s imports only from its stage or the stages before it', (_name, file) => {
    const from = stageOf(file);
    const wrong = runtimeImports(file)
      .map((target) => ({ target: path.relative(SRC, target), stage: stageOf(target) }))
      .filter(({ stage }) => {
        return stage.rank > from.rank;
      })
      .map(({ target, stage }) => `${target} (${stage.name})`);
    expect(wrong).toEqual([]);
  });
});
