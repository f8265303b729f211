/**
 * The export list of every public entry is pinned in `exports.json`, so growing (or shrinking) the
 * public surface is a deliberate change: run `UPDATE_EXPORTS=1 npx jest spec/architecture/exports`
 * and commit the file. All entries together export at most 307 names and `/advanced` at most 30 (its
 * extension points only); the main entry (reading streams) keeps at most 30 run-time and 90 type
 * names (and 6 and 15 more for the framings and formats beyond SSE); every other product is a wing
 * with its own entry. (That every value a built `.d.ts` declares
 * exists at run time, in ESM and CommonJS, is checked on the built package by `scripts/smoke.mjs`.)
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
  'rxjs-tool-calls/gateway': 'src/gateway/index.ts',
  'rxjs-tool-calls/tools': 'src/tools/index.ts',
  'rxjs-tool-calls/text': 'src/text/index.ts',
  'rxjs-tool-calls/sdk': 'src/sdk/index.ts',
  'rxjs-tool-calls/angular': 'src/angular/index.ts',
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
      const typeOnly =
        declaration !== undefined &&
        ((ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly)) || (ts.isNamespaceExport(declaration) && declaration.parent.isTypeOnly));
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

  it('the main entry has at most 30 run-time and 90 type names, plus 6 and 15 for the framings and formats beyond SSE', () => {
    const main = listing['rxjs-tool-calls'];
    const framed = ['decodeAwsEventStream', 'decodeNdjson', 'decodeJsonArray', 'bedrockConverse', 'bedrockInvokeModel', 'ollamaChat'];
    const framedTypes = ['DecodeAwsEventStreamOptions', 'DecodeNdjsonOptions', 'DecodeJsonArrayOptions', 'FramingName'];
    const values = main.values.filter((name) => !framed.includes(name)).length;
    const types = main.types.filter((name) => !framedTypes.includes(name)).length;
    expect({ values: values <= 30, types: types <= 90, framed: main.values.length - values <= 6 && main.types.length - types <= 15 }).toEqual({ values: true, types: true, framed: true });
  });

  it('a surface a newcomer can hold: at most 307 names over all entries, at most 30 in /advanced', () => {
    const count = (entry: Entry) => listing[entry].values.length + listing[entry].types.length;
    const total = (Object.keys(ENTRIES) as Entry[]).reduce((sum, entry) => sum + count(entry), 0);
    expect({ total: total <= 307, advanced: count('rxjs-tool-calls/advanced') <= 30 }).toEqual({ total: true, advanced: true });
  });

  it('/advanced holds extension points only: nothing another entry exports, no decoder class, no reducer', () => {
    const advanced = [...listing['rxjs-tool-calls/advanced'].values, ...listing['rxjs-tool-calls/advanced'].types];
    const elsewhere = (Object.keys(ENTRIES) as Entry[]).filter((entry) => entry !== 'rxjs-tool-calls/advanced').flatMap((entry) => [...listing[entry].values, ...listing[entry].types]);
    expect(advanced.filter((name) => elsewhere.includes(name))).toEqual([]);
    expect(listing['rxjs-tool-calls/advanced'].values.filter((name) => /Decoder$|^(reduce|create|resolve|scan|decode)|^Auto/.test(name))).toEqual([]);
    expect(advanced.filter((name) => /State$|Tracked|^ToolCallsInput$|^StreamEnd$/.test(name))).toEqual([]);
  });

  it('every entry is an export of package.json, and every export of package.json an entry', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const published = Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? 'rxjs-tool-calls' : `rxjs-tool-calls/${key.slice(2)}`))
      .sort();
    expect(published).toEqual(Object.keys(ENTRIES).sort());
  });

  it('the run-time names are what the modules really export', async () => {
    for (const [entry, file] of Object.entries(ENTRIES) as Array<[Entry, string]>) {
      if (entry === 'rxjs-tool-calls/angular') continue; // Angular's packages are ESM only: the built package is checked by scripts/smoke.mjs
      const loaded = (await import(path.join(root, file))) as Record<string, unknown>;
      expect([entry, Object.keys(loaded).sort()]).toEqual([entry, listing[entry].values]);
    }
  });
});
