/**
 * The main entry point runs in browsers: bundled for platform "browser", nothing in it imports a
 * Node.js built-in module (or the optional rxjs-for-await, which lives in `rxjs-tool-calls/async`).
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';

const root = path.resolve(__dirname, '../..');
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

async function bundle(contents: string): Promise<{ metafile: Metafile; errors: string[] }> {
  try {
    const result = await build({ stdin: { contents, resolveDir: root, loader: 'ts' }, bundle: true, write: false, platform: 'browser', format: 'esm', metafile: true, logLevel: 'silent' });
    return { metafile: result.metafile, errors: [] };
  } catch (error) {
    return { metafile: { inputs: {}, outputs: {} }, errors: (error as { errors?: { text: string }[] }).errors?.map((e) => e.text) ?? [String(error)] };
  }
}

const imports = (metafile: Metafile): string[] => Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));

describe('the browser bundle of src/index.ts', () => {
  it('builds for platform "browser" and imports no Node.js built-in', async () => {
    const { metafile, errors } = await bundle("export * from './src/index';");
    expect(errors).toEqual([]);
    expect(Object.keys(metafile.inputs).some((file) => file.startsWith('src/sources/'))).toBe(true);
    expect(imports(metafile).filter((p) => builtins.has(p) || p.startsWith('node:'))).toEqual([]);
  });

  it('does not load rxjs-for-await (only the rxjs-tool-calls/async entry does)', async () => {
    const main = await bundle("export * from './src/index';");
    expect(Object.keys(main.metafile.inputs).filter((file) => file.includes('rxjs-for-await'))).toEqual([]);
    const asyncEntry = await bundle("export * from './src/async';");
    expect(Object.keys(asyncEntry.metafile.inputs).some((file) => file.includes('rxjs-for-await'))).toBe(true);
  });

  it('would fail on a Node built-in (the check is not vacuous)', async () => {
    const { errors } = await bundle("import http from 'node:http'; export const x = http;");
    expect(errors.join('\n')).toMatch(/node:http/);
  });
});
