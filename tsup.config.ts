import path from 'node:path';
import { defineConfig } from 'tsup';

const mainEntry = path.resolve('src/index.ts');

/**
 * Secondary entry points (`rxjs-tool-calls/async`, `rxjs-tool-calls/angular`) import the main entry as the package itself
 * instead of bundling a second copy of it: one copy of every class, so `instanceof` holds.
 */
const mainEntryAsPackage = {
  name: 'main-entry-as-package',
  setup(build: { onResolve(options: { filter: RegExp }, callback: (args: { path: string; resolveDir: string }) => { path: string; external: boolean } | undefined): void }) {
    build.onResolve({ filter: /^\.\.?\/index$/ }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path) + '.ts';
      return resolved === mainEntry ? { path: 'rxjs-tool-calls', external: true } : undefined;
    });
  },
};

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    gateway: 'src/gateway/index.ts',
    tools: 'src/tools/index.ts',
    text: 'src/text/index.ts',
    sdk: 'src/sdk/index.ts',
    angular: 'src/angular/index.ts',
    async: 'src/async.ts',
    marbles: 'marbles/index.ts',
    advanced: 'src/advanced.ts',
    websocket: 'src/websocket/index.ts',
    cli: 'src/cli.ts',
  },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  // No source maps: the output is not minified (stack traces and debuggers read it as it is), maps with
  // their sources inlined were 2.75 MB of a 4.5 MB package, and maps without them point at src/, which is not shipped.
  sourcemap: false,
  clean: true,
  target: 'es2022',
  splitting: true,
  treeshake: true,
  external: ['rxjs', 'zod', 'rxjs-for-await', '@angular/core', '@angular/common'],
  esbuildPlugins: [mainEntryAsPackage],
});
