/**
 * The stages import in one direction: the vocabulary (`events.ts`, `errors.ts`, `result.ts`, which
 * import nothing) ← `internal/` (leaf helpers) ← `sse/` ← `framing/` (the other byte framings) ← `providers/` ← `sources/` ← `calls/` (the
 * reducer) ← `parse/` ← `operators/` ← `read/` ← `retry/` ← the entries (`index.ts`,
 * `advanced.ts`) ← the wings (`tools/` ← `gateway/`, `websocket/`; `text/`, `sdk/`, `angular/`,
 * `async.ts`, `cli.ts`). The core never imports a wing; a wing imports no other wing, except that
 * the gateway may import the tools wing through its entry `tools/index.ts` (its public names, never
 * its internals), and the websocket wing its types the same way; and no src file is on an import
 * circle (type-only imports included).
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

const CORE = ['vocabulary', 'internal', 'sse', 'framing', 'providers', 'sources', 'calls', 'parse', 'operators', 'read', 'retry', 'entries'] as const;
const WINGS = ['tools', 'gateway', 'text', 'sdk', 'angular', 'async', 'cli', 'websocket'] as const;
/**
 * The imports between wings, each through the other wing's entry: the gateway (request translators)
 * uses the tools wing's public schema conversion; the websocket wing's `responsesWebSocket()` is a
 * tools wing's `ToolLoopRequest` (its types only); the angular wing's `injectChat()` runs client
 * tools with `runTools()`.
 */
const WING_ENTRIES: Readonly<Record<string, { readonly wing: string; readonly entry: string; readonly typesOnly?: boolean }>> = {
  gateway: { wing: 'tools', entry: path.join(SRC, 'tools', 'index.ts') },
  websocket: { wing: 'tools', entry: path.join(SRC, 'tools', 'index.ts'), typesOnly: true },
  angular: { wing: 'tools', entry: path.join(SRC, 'tools', 'index.ts') },
};

/** The stage of a source file: its name, its rank (wings share the last rank) and whether it is a wing. */
function stageOf(file: string): { readonly name: string; readonly rank: number; readonly wing: boolean } {
  const relative = path.relative(SRC, file).split(path.sep);
  const top = (relative.length > 1 ? relative[0] : relative[0]?.replace(/\.ts$/, '')) ?? '?';
  const name = ['events', 'errors', 'result'].includes(top) ? 'vocabulary' : ['index', 'advanced'].includes(top) ? 'entries' : top;
  const core = (CORE as readonly string[]).indexOf(name);
  if (core !== -1) return { name, rank: core, wing: false };
  if ((WINGS as readonly string[]).includes(name)) return { name, rank: CORE.length, wing: true };
  return { name: `unknown (${name})`, rank: -1, wing: false };
}

interface Import {
  readonly target: string;
  readonly typeOnly: boolean;
}

/** The relative imports and re-exports of a file, resolved to files. */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  for (const statement of source.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || statement.moduleSpecifier === undefined) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!specifier.startsWith('.')) continue;
    let typeOnly: boolean;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const named = clause?.namedBindings;
      typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly || (clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
    } else {
      const clause = statement.exportClause;
      typeOnly = statement.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly));
    }
    found.push({ specifier, typeOnly });
  }
  return found.map(({ specifier, typeOnly }) => {
    const base = path.resolve(path.dirname(file), specifier);
    for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) return { target: candidate, typeOnly };
      } catch {
        // try the next form
      }
    }
    return { target: base, typeOnly };
  });
}

const files = filesUnder(SRC);

describe('import direction', () => {
  it('knows the stage of every file', () => {
    expect(files.filter((f) => stageOf(f).rank === -1).map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it.each(files.map((f) => [path.relative(SRC, f), f] as const))('%s imports only from its stage or the stages before it (a wing: the core, or the tools entry from the gateway)', (_name, file) => {
    const from = stageOf(file);
    const wrong = importsOf(file)
      .map(({ target, typeOnly }) => ({ file: target, typeOnly, target: path.relative(SRC, target), stage: stageOf(target) }))
      .filter(({ file, typeOnly, stage }) => {
        if (from.name === 'vocabulary') return stage.name !== 'vocabulary';
        if (stage.wing) {
          if (stage.name === from.name) return false;
          const allowed = WING_ENTRIES[from.name];
          return !(allowed !== undefined && allowed.wing === stage.name && allowed.entry === file && (allowed.typesOnly !== true || typeOnly)); // the core imports no wing
        }
        return stage.rank > from.rank;
      })
      .map(({ target, stage }) => `${target} (${stage.name})`);
    expect(wrong).toEqual([]);
  });
});

describe('no import circles', () => {
  it('no src file reaches itself through its imports (type-only imports included)', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f).map((i) => i.target)]));
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, trail: string[]): void => {
      const seen = state.get(file);
      if (seen === 'done') return;
      if (seen === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(SRC, f)).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});
