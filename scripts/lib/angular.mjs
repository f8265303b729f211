// The one place the Angular test environment is set up: Angular 21's real HttpClient with the fetch
// backend, signals and effects, in plain Node (no DOM), through the public TestBed API. Import this
// module before any other Angular module: it loads @angular/compiler (JIT) first.
import '@angular/compiler'; // JIT: @Injectable classes compile on first use
import { DOCUMENT } from '@angular/common';
import { HttpClient, provideHttpClient, withFetch } from '@angular/common/http';
import { provideZonelessChangeDetection } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { BrowserTestingModule, platformBrowserTesting } from '@angular/platform-browser/testing';

export { HttpClient };

/**
 * Plain Node has no DOM. Nothing here renders, but `TestBed.tick()` (which runs the effects behind
 * `rxResource()`) builds the DOM renderer, which reads the document's head: an empty one does.
 */
const element = { querySelector: () => null, querySelectorAll: () => [], getAttribute: () => null, appendChild: () => undefined, removeChild: () => undefined };
const emptyDocument = { ...element, head: element, body: element };

/** An injector with `HttpClient` (fetch backend, zoneless); call once per process. */
export function angularInjector() {
  TestBed.initTestEnvironment(BrowserTestingModule, platformBrowserTesting(), { teardown: { destroyAfterEach: false } });
  TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection(), provideHttpClient(withFetch()), { provide: DOCUMENT, useValue: emptyDocument }] });
  return TestBed;
}
