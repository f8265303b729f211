/**
 * The export list of every public entry is pinned in `exports.json`, so growing (or shrinking) the
 * public surface is a deliberate change: run `UPDATE_EXPORTS=1 npx jest spec/architecture/exports`
 * and commit the file. The main entry keeps at most 66 run-time names (60, and the 3 framings and 3
 * formats of the non-SSE issue, 31, took 6: issue 29 allots them up to 6 beside its smaller entry;
 * its 2 encoders and 2 request translators stay beside the others until the gateway wing exists).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../..');
const snapshotFile = path.join(__dirname, 'exports.json');

const ENTRIES = {
  'rxjs-tool-calls': 'src/index.ts',
  'rxjs-tool-calls/advanced': 'src/advanced.ts',
  'rxjs-tool-calls/async': 'src/async.ts',
  'rxjs-tool-calls/marbles': 'marbles/index.ts',
} as const;

type Entry = keyof typeof ENTRIES;
type Listing = Record<Entry, { readonly values: string[]; readonly types: string[] }>;

/** Every entry's exports, split into run-time values and type-only names (from the TypeScript program). */
function listExports(): Listing {
  const files = Object.values(ENTRIES).map((f) => path.join(root, f));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const out = {} as Listing;
  for (const [entry, file] of Object.entries(ENTRIES) as Array<[Entry, string]>) {
    const source = program.getSourceFile(path.join(root, file));
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${file} not found`);
    const values: string[] = [];
    const types: string[] = [];
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const declaration = exported.declarations?.[0];
      const typeOnly = declaration !== undefined && ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly);
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!typeOnly && target.flags & ts.SymbolFlags.Value) values.push(exported.name);
      else types.push(exported.name);
    }
    out[entry] = { values: values.sort(), types: types.sort() };
  }
  return out;
}

describe('public entries', () => {
  const listing = listExports();

  it('export exactly the names pinned in exports.json', () => {
    if (process.env['UPDATE_EXPORTS'] === '1' || !existsSync(snapshotFile)) writeFileSync(snapshotFile, `${JSON.stringify(listing, null, 2)}\n`);
    expect(listing).toEqual(JSON.parse(readFileSync(snapshotFile, 'utf8')));
  });

  it('the main entry has at most 66 run-time names', () => {
    expect(listing['rxjs-tool-calls'].values.length).toBeLessThanOrEqual(66);
  });

  it('the run-time names are what the modules really export', async () => {
    for (const [entry, file] of Object.entries(ENTRIES) as Array<[Entry, string]>) {
      const loaded = (await import(path.join(root, file))) as Record<string, unknown>;
      expect([entry, Object.keys(loaded).sort()]).toEqual([entry, listing[entry].values]);
    }
  });
});
