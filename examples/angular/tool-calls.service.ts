/**
 * An Angular service that streams a chat completion through `HttpClient` and exposes its text, its
 * tool calls (growing live) and their results as signals, plus plain observables for other uses.
 *
 * `HttpClient` must use the fetch backend for streaming: `provideHttpClient(withFetch())`.
 */
import { HttpClient } from '@angular/common/http';
import { DestroyRef, Injectable, inject, signal } from '@angular/core';
import { share, Subscription, type Observable } from 'rxjs';
import {
  accumulateToolCalls,
  angularTextChunks,
  readStreamEvents,
  readToolCalls,
  toolCalls,
  type ProviderOption,
  type StreamEvent,
  type ToolCallResult,
  type ToolCallSnapshot,
} from 'rxjs-tool-calls';

/** Where a run is. */
export type RunStatus = 'idle' | 'streaming' | 'done' | 'failed';

@Injectable({ providedIn: 'root' })
export class ToolCallsService {
  private readonly http = inject(HttpClient);
  private running: Subscription | undefined;

  /** The assistant's text so far. */
  readonly text = signal('');
  /** Every tool call so far, arguments growing while they stream. */
  readonly calls = signal<readonly ToolCallSnapshot[]>([]);
  /** One result per completed call (parsed arguments or a typed error). */
  readonly results = signal<readonly ToolCallResult[]>([]);
  /** The error that ended the stream, if one did (`ToolStreamError` subclasses have a `code`). */
  readonly error = signal<unknown>(undefined);
  readonly status = signal<RunStatus>('idle');

  constructor() {
    inject(DestroyRef).onDestroy(() => this.cancel());
  }

  /** The response text as it arrives: `HttpClient` progress events → new text chunks. */
  chunks(url: string, body: unknown, provider = 'http'): Observable<string> {
    return this.http.request('POST', url, { body, observe: 'events', reportProgress: true, responseType: 'text' }).pipe(angularTextChunks({ provider }));
  }

  /** One result per tool call, each the moment it is complete. Unsubscribing aborts the request. */
  toolCalls(url: string, body: unknown, provider: ProviderOption = 'auto'): Observable<ToolCallResult> {
    return this.chunks(url, body).pipe(readToolCalls({ provider }));
  }

  /** Every normalised event of the stream (text, tool-call fragments, finish, usage, …). */
  events(url: string, body: unknown, provider: ProviderOption = 'auto'): Observable<StreamEvent> {
    return this.chunks(url, body).pipe(readStreamEvents({ provider }));
  }

  /** Start a run that fills the signals; a new run (or {@link cancel}) aborts the previous one. */
  run(url: string, body: unknown, provider: ProviderOption = 'auto'): void {
    this.cancel();
    this.text.set('');
    this.calls.set([]);
    this.results.set([]);
    this.error.set(undefined);
    this.status.set('streaming');
    const events$ = this.events(url, body, provider).pipe(share());
    // Calls and results first: when the stream ends, they are final before `status` says so.
    // One parent: a child that completes first must not tear down its siblings.
    const running = new Subscription();
    running.add(events$.pipe(accumulateToolCalls()).subscribe({ next: (calls) => this.calls.set(calls), error: () => undefined }));
    running.add(events$.pipe(toolCalls()).subscribe({ next: (result) => this.results.update((all) => [...all, result]), error: () => undefined }));
    running.add(
      events$.subscribe({
        next: (event) => {
          if (event.type === 'text-delta') this.text.update((text) => text + event.text);
        },
        error: (error: unknown) => {
          this.error.set(error);
          this.status.set('failed');
        },
        complete: () => this.status.set('done'),
      }),
    );
    this.running = running;
  }

  /** Abort the current run's request. */
  cancel(): void {
    this.running?.unsubscribe();
    this.running = undefined;
    if (this.status() === 'streaming') this.status.set('idle');
  }
}
