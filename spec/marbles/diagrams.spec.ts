/**
 * `marbles/diagrams/<name>.txt` holds the marble diagram of each exported operator and source,
 * copied from its doc comment: this spec fails when a doc comment and its file drift apart, when an
 * operator has no diagram, or when a file has no exported function. After changing a diagram in a
 * doc comment, regenerate the files with `UPDATE_DIAGRAMS=1 npx jest spec/marbles/diagrams.spec.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { exportedFunctions } from '../helpers/docDiagrams';

const dir = path.resolve(__dirname, '../../marbles/diagrams');
const functions = exportedFunctions();
const withDiagrams = functions.filter((f) => f.diagram !== undefined);

if (process.env['UPDATE_DIAGRAMS'] === '1') {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of withDiagrams) fs.writeFileSync(path.join(dir, `${f.name}.txt`), `${f.diagram ?? ''}\n`);
}

describe('marble diagram files', () => {
  it('finds the exported operators', () => {
    expect(functions.filter((f) => f.operator).map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'decodeSse',
        'openaiChat',
        'openaiResponses',
        'anthropicMessages',
        'gemini',
        'cohereChat',
        'autoDetect',
        'accumulateToolCalls',
        'groupToolCalls',
        'toolCalls',
        'readStreamEvents',
        'readToolCalls',
      ]),
    );
  });

  it.each(functions.filter((f) => f.operator).map((f) => [f.name, f] as const))('operator %s has a diagram in its doc comment', (_, f) => {
    expect(f.diagram).toBeDefined();
  });

  it.each(withDiagrams.map((f) => [f.name, f] as const))('%s: marbles/diagrams file matches the doc comment', (name, f) => {
    const file = path.join(dir, `${name}.txt`);
    expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `(no file marbles/diagrams/${name}.txt; declared in ${f.file})`).toBe(`${f.diagram ?? ''}\n`);
  });

  it('has no file without an exported function with that diagram', () => {
    const names = new Set(withDiagrams.map((f) => `${f.name}.txt`));
    expect(fs.readdirSync(dir).filter((file) => !names.has(file))).toEqual([]);
  });
});
