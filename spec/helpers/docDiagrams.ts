/**
 * The marble diagrams in the doc comments of the functions the public entries export (the ```text
 * blocks), read with the TypeScript compiler API, and whether each function is an operator.
 */
import path from 'node:path';
import ts from 'typescript';

export interface ExportedFunction {
  readonly name: string;
  /** The file that declares it, relative to the repository. */
  readonly file: string;
  /** Returns an `OperatorFunction`. */
  readonly operator: boolean;
  /** The doc comment's ```text blocks, joined by a blank line; `undefined` when it has none. */
  readonly diagram: string | undefined;
}

const root = path.resolve(__dirname, '../..');

/** The raw doc comment of a declaration, with the leading ` * ` of each line removed. */
function docText(declaration: ts.Node): string {
  const source = declaration.getSourceFile();
  const docs = ts.getJSDocCommentsAndTags(declaration).filter(ts.isJSDoc);
  const last = docs[docs.length - 1];
  if (last === undefined) return '';
  const raw = source.text.slice(last.pos, last.end);
  return raw
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n');
}

/** The ```text blocks of a doc comment, exactly as written (joined by a blank line). */
export function diagramsOf(doc: string): string | undefined {
  const blocks = [...doc.matchAll(/^```text\n([\s\S]*?)\n```$/gm)].map((m) => (m[1] ?? '').replace(/[ \t]+$/gm, ''));
  return blocks.length === 0 ? undefined : blocks.join('\n\n');
}

/** The entries whose functions are documented with diagrams (the main entry and the wings). */
export const DOCUMENTED_ENTRIES = [
  'src/index.ts',
  'src/gateway/index.ts',
  'src/tools/index.ts',
  'src/text/index.ts',
  'src/sdk/index.ts',
  'src/angular/index.ts',
  'src/async.ts',
  'src/websocket/index.ts',
];

/** Every function the public entries export (each once). */
export function exportedFunctions(): ExportedFunction[] {
  const entries = DOCUMENTED_ENTRIES.map((file) => path.join(root, file));
  const program = ts.createProgram(entries, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const found: ExportedFunction[] = [];
  const seen = new Set<string>();
  const exports = entries.flatMap((entry) => {
    const source = program.getSourceFile(entry);
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${entry} not found`);
    return checker.getExportsOfModule(moduleSymbol);
  });
  for (const exported of exports) {
    if (seen.has(exported.name)) continue;
    seen.add(exported.name);
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = (symbol.declarations ?? []).find((d) => ts.isFunctionDeclaration(d) || ts.isVariableDeclaration(d));
    if (declaration === undefined) continue;
    // A function, or a constant that can be called (a wire format: `openaiChat()`, …).
    const signature = ts.isFunctionDeclaration(declaration) ? checker.getSignatureFromDeclaration(declaration) : checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures()[0];
    if (signature === undefined) continue;
    const returned = checker.typeToString(checker.getReturnTypeOfSignature(signature));
    // A variable's doc comment sits on its statement.
    const documented = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
    found.push({
      name: exported.name,
      file: path.relative(root, declaration.getSourceFile().fileName),
      operator: returned.startsWith('OperatorFunction<'),
      diagram: diagramsOf(docText(documented)),
    });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
