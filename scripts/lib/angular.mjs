// The one place the Angular test environment is set up: Angular 21's real HttpClient with the fetch
// backend, in plain Node (no DOM), through the public TestBed API. Also compiles the example service
// (examples/angular/*.ts) with esbuild so the test runs the code the README shows. Import this module
// before any other Angular module: it loads @angular/compiler (JIT) first.
import '@angular/compiler'; // JIT: @Injectable classes compile on first use
import { HttpClient, provideHttpClient, withFetch } from '@angular/common/http';
import { provideZonelessChangeDetection } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { BrowserTestingModule, platformBrowserTesting } from '@angular/platform-browser/testing';
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';

export { HttpClient };

const root = fileURLToPath(new URL('../..', import.meta.url));

/** An injector with `HttpClient` (fetch backend, zoneless); call once per process. */
export function angularInjector() {
  TestBed.initTestEnvironment(BrowserTestingModule, platformBrowserTesting(), { teardown: { destroyAfterEach: false } });
  TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection(), provideHttpClient(withFetch())] });
  return TestBed;
}

/**
 * Compile an example module to ESM (everything but the example itself stays external: Angular, rxjs,
 * and `rxjs-tool-calls`, which resolves to the built `dist/` through the package's own exports).
 */
export async function importExample(relativePath) {
  const outfile = `${root}examples/angular/.compiled/${relativePath.replace(/\.ts$/, '.mjs').replaceAll('/', '_')}`;
  // `tsconfigRaw: {}`: ignore tsconfig.json's `paths` (which map rxjs-tool-calls to src/ for type checking).
  await build({ entryPoints: [`${root}${relativePath}`], bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', tsconfigRaw: {}, outfile, logLevel: 'error' });
  return import(pathToFileURL(outfile).href);
}
