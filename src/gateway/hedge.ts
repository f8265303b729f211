/**
 * `hedge()`: several requests for the same answer, started one after another while none answers;
 * the first to answer is kept, the others are cancelled.
 *
 * @module
 */
import { asyncScheduler, defer, Observable, Subscription, type ObservableInput, type SchedulerLike, type Subscriber } from 'rxjs';
import type { StreamEvent } from '../events';
import { ToolStreamError } from '../errors';
import { anObject, aWait, checkOptions, pickOptions, type OptionChecks } from '../internal/options';
import { READ_OPTION_CHECKS, readStreamEvents, type ReadStreamEventsOptions } from '../read/readStreamEvents';
import { after } from '../internal/timers';
import { subscribeLinked } from '../retry/linked';

/** Options of {@link hedge}. */
export interface HedgeOptions extends ReadStreamEventsOptions {
  /** Start the next request when no request has produced output for this long since the last one started, in ms. */
  readonly afterMs: number;
  /** The scheduler of the waits (a `TestScheduler` in marble tests). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** The keys only `hedge()` takes. */
const HEDGE_OPTION_CHECKS: OptionChecks = { afterMs: aWait, scheduler: anObject };

/** One request of a hedge that was made. */
interface Candidate {
  subscription: Subscription;
  /** Metadata and usage that arrived before its first output. */
  readonly held: StreamEvent[];
}

/** The requests of one subscription of `hedge()`. */
class HedgeRun {
  /** The requests made and still running, by position. */
  private readonly running = new Map<number, Candidate>();
  private next = 0;
  private winner: number | undefined;
  private timer: Subscription | undefined;

  constructor(
    private readonly subscriber: Subscriber<StreamEvent>,
    private readonly requests: ReadonlyArray<() => ObservableInput<Uint8Array | string>>,
    private readonly options: HedgeOptions,
  ) {}

  /** Make the next request, and start the wait for the one after it. */
  startNext(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
    const position = this.next++;
    const request = this.requests[position];
    if (request === undefined) return;
    const candidate: Candidate = { subscription: Subscription.EMPTY, held: [] };
    this.running.set(position, candidate);
    subscribeLinked(
      defer(request).pipe(readStreamEvents(pickOptions(this.options, READ_OPTION_CHECKS))),
      {
        next: (event) => this.event(position, candidate, event),
        error: (error: unknown) => this.failed(position, error),
        complete: () => this.completed(position, candidate),
      },
      (subscription) => (candidate.subscription = subscription),
    );
    // It may have answered or failed while being subscribed.
    if (this.winner === undefined && this.running.get(position) === candidate && this.timer === undefined && this.next < this.requests.length) {
      this.timer = after(this.options.scheduler ?? asyncScheduler, this.options.afterMs, () => this.startNext());
    }
  }

  /** Cancel every running request and the wait. */
  dispose(): void {
    this.timer?.unsubscribe();
    for (const candidate of this.running.values()) candidate.subscription.unsubscribe();
    this.running.clear();
  }

  private event(position: number, candidate: Candidate, event: StreamEvent): void {
    if (this.winner === undefined) {
      if (event.type === 'metadata' || event.type === 'usage') {
        candidate.held.push(event);
        return;
      }
      this.win(position, candidate);
    }
    if (this.winner === position) this.subscriber.next(event);
  }

  /** `position` answered first: the others are cancelled, its held events released. */
  private win(position: number, candidate: Candidate): void {
    this.winner = position;
    this.timer?.unsubscribe();
    this.timer = undefined;
    for (const [other, loser] of this.running) if (other !== position) loser.subscription.unsubscribe();
    for (const event of candidate.held.splice(0)) if (!this.subscriber.closed) this.subscriber.next(event);
  }

  private failed(position: number, error: unknown): void {
    if (this.winner === position) return this.subscriber.error(error);
    if (this.winner !== undefined) return;
    this.running.delete(position);
    if (this.running.size > 0) return;
    if (this.next < this.requests.length) this.startNext();
    else this.subscriber.error(error);
  }

  private completed(position: number, candidate: Candidate): void {
    if (this.winner === undefined) this.win(position, candidate);
    if (this.winner === position) this.subscriber.complete();
  }
}

/**
 * Send the same request to several endpoints, one after another while none has answered, and keep
 * the first that answers.
 *
 * <span class="informal">What aggregators call hedging: when the first provider is slow to start,
 * a second one is asked too; whichever produces output first is read, the other is cancelled
 * (its connection closes).</span>
 *
 * ```text
 * requests[0]:  --m--------------t--f--(d|)       a slow start: m: metadata, t: text, f: finish, d: [DONE]
 * requests[1]:       --s--t-----(e|)              made afterMs (5) later; s: message_start, e: message_stop
 *   hedge(requests, { afterMs: 5 })
 *               ----------(MUT)-(E|)              requests[1] answered first: requests[0] is unsubscribed at T
 * ```
 *
 * 1. `requests[0]` is made at once; `requests[i + 1]` is made when none of the requests made so far
 *    has produced output (text, reasoning, a tool call, a finish) within `afterMs` of the last start.
 *    Each is decoded as `readStreamEvents(options)` does (auto-detected: they may be different
 *    providers).
 * 2. The first request to produce output wins: every other one is unsubscribed at once (its
 *    connection closes, no further request is made), and from then on the stream is the winner's:
 *    its metadata and usage (held until then), its events, its completion or error.
 * 3. A request that fails before any output is dropped; when none is left running, the next one is
 *    made at once; when none is left at all, the stream ends with the last failure.
 * 4. Unsubscribing cancels every running request and the pending wait.
 *
 * @example
 * ```ts
 * import { fromResponse, toolCalls } from 'rxjs-tool-calls';
 * import { hedge } from 'rxjs-tool-calls/gateway';
 *
 * declare const primaryUrl: string;
 * declare const backupUrl: string;
 * declare const init: RequestInit;
 * declare const backupInit: RequestInit;
 *
 * hedge([() => fromResponse(fetch(primaryUrl, init)), () => fromResponse(fetch(backupUrl, backupInit))], { afterMs: 2000 })
 *   .pipe(toolCalls())
 *   .subscribe((result) => console.log(result.success && result.data.name));
 * // displays: get_weather (from whichever endpoint answered first)
 * ```
 *
 * @param requests The requests, in the order they are tried (at least one).
 * @param options `afterMs`, and the decoding of each response (`provider`, `idleTimeoutMs`, SSE limits).
 * @return The events of the first response that answered.
 */
export function hedge(requests: ReadonlyArray<() => ObservableInput<Uint8Array | string>>, options: HedgeOptions): Observable<StreamEvent> {
  checkOptions('hedge', options, READ_OPTION_CHECKS, HEDGE_OPTION_CHECKS);
  if (options.afterMs === undefined) throw new ToolStreamError('invalid-option', { function: 'hedge', option: 'options.afterMs', value: undefined, expected: 'a number of milliseconds' });
  return new Observable<StreamEvent>((subscriber) => {
    if (requests.length === 0) {
      subscriber.error(new TypeError('hedge: give at least one request'));
      return undefined;
    }
    const run = new HedgeRun(subscriber, requests, options);
    subscriber.add(() => run.dispose());
    run.startNext();
    return undefined;
  });
}
