/**
 * One subscription of `retryStream()`: its attempts, the response each reads, and the decisions
 * between them.
 *
 * @module
 */
import { asyncScheduler, defer, identity, tap, type ObservableInput, type Subscriber, Subscription } from 'rxjs';
import { isToolStreamError, withDetails } from '../errors';
import type { StreamEvent } from '../events';
import { decoderFor } from '../providers/auto';
import type { WireDecoder } from '../providers/decoder';
import { idleWatch } from '../read/readStreamEvents';
import { decodeFramed, RawHead, type ReaderConfig } from '../read/streamReader';
import { DeliveredRecorder } from './delivered';
import { subscribeLinked } from './linked';
import { fullJitter, isRetryableFailure, retryAfterOf, retryWait, type RetryContext, type RetryStreamOptions } from './policy';
import { ResumePosition, resumingDecode, type GateHost } from './resumeGate';

/** One response as the subscriber sees it: the first attempt, or one that started over; resumed attempts continue it. */
class Generation {
  /** The decoder, kept across the attempts that resume the response. */
  decoder: WireDecoder | undefined;
  readonly position = new ResumePosition();
  /** Metadata and usage that arrived before any output. */
  held: StreamEvent[] = [];
  /** Output (anything but metadata and usage) was emitted. */
  output = false;
  /** The terminator was emitted: the response is complete. */
  done = false;
  /** The response id, from its metadata. */
  responseId: string | undefined;
}

/** How the next attempt goes. */
type Next = 'fresh' | 'resume' | 'restart';

/** Whether an error is tried again, and after how long. */
interface Verdict {
  readonly error: unknown;
  /** The attempt that failed with it. */
  readonly attempt: number;
  readonly retry: boolean;
  readonly delayMs: number;
  /** What `shouldRetry` or `backoff` threw: the stream ends with it. */
  readonly thrown?: { readonly error: unknown };
}

/** The request of one attempt. */
export type AttemptRequest = (context: RetryContext) => ObservableInput<Uint8Array | string>;

/** The attempts of one subscription. */
export class RetryRun implements GateHost {
  private attempt = 0;
  /** What the subscriber received, across the responses of this subscription. */
  private readonly delivered = new DeliveredRecorder();
  private generation = new Generation();
  /** The running attempt (closed when it ended or was given up). */
  private current = new Subscription();
  private timer: Subscription | undefined;
  /** Set by the gate when the source failed and the response resumes. */
  private resuming: Verdict | undefined;
  /** The error that ended the previous attempt. */
  private lastError: unknown;
  private verdictCache: Verdict | undefined;
  private readonly maxAttempts: number;
  private readonly backoff: NonNullable<RetryStreamOptions['backoff']>;

  /**
   * @param subscriber The subscriber of `retryStream()`.
   * @param request Makes the request of one attempt.
   * @param options The decoding and the policy.
   * @param reader The decoding, checked and resolved.
   */
  constructor(
    private readonly subscriber: Subscriber<StreamEvent>,
    private readonly request: AttemptRequest,
    private readonly options: RetryStreamOptions,
    private readonly reader: ReaderConfig,
  ) {
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoff = options.backoff ?? fullJitter(options.random ?? Math.random);
  }

  /** Make the first request. */
  start(): void {
    this.launch('fresh');
  }

  /** The subscriber unsubscribed: the running attempt and a pending wait are cancelled. */
  dispose(): void {
    this.current.unsubscribe();
    this.timer?.unsubscribe();
    this.timer = undefined;
  }

  private launch(next: Next, error?: unknown): void {
    const attempt = ++this.attempt;
    const generation = this.generation;
    const position = generation.position;
    const resumed = next === 'resume';
    const responseId = resumed ? (position.responseId ?? generation.responseId) : undefined;
    const context: RetryContext = {
      attempt,
      ...(error === undefined ? {} : { error }),
      ...(resumed && position.lastEventId !== undefined ? { lastEventId: position.lastEventId } : {}),
      ...(resumed && position.lastSequenceNumber !== undefined ? { lastSequenceNumber: position.lastSequenceNumber } : {}),
      ...(responseId === undefined ? {} : { responseId }),
    };
    const options = this.options;
    // The response's decoder is made for its first attempt; auto-detection keeps that attempt's
    // first bytes for `unknown-format`.
    const provider = this.reader.provider;
    const head = generation.decoder === undefined && provider === 'auto' ? new RawHead() : undefined;
    const decoder = (generation.decoder ??= decoderFor(provider, head)());
    let self: Subscription | undefined;
    const live = (): boolean => this.current === self && self !== undefined && !self.closed;
    subscribeLinked(
      defer(() => this.request(context)).pipe(
        idleWatch(options) ?? identity,
        head === undefined
          ? identity
          : tap((chunk: Uint8Array | string) => {
              head.add(chunk);
              head.settle(); // copied before it is read: the decoder runs downstream of this tap
            }),
        decodeFramed(this.reader),
        resumingDecode(decoder, position, resumed, this),
      ),
      {
        next: (event) => {
          if (live()) this.emit(generation, event);
        },
        error: (failure: unknown) => {
          if (live()) this.failed(generation, failure);
        },
        complete: () => {
          if (live()) this.completed(generation);
        },
      },
      (subscription) => {
        self = subscription;
        this.current = subscription;
      },
    );
  }

  /** An event of the current response: metadata and usage wait for the first output. */
  private emit(generation: Generation, event: StreamEvent): void {
    if (!generation.output) {
      if (event.type === 'metadata' || event.type === 'usage') {
        generation.held.push(event);
        return;
      }
      generation.output = true;
      this.release(generation);
    }
    this.deliver(generation, event);
  }

  private deliver(generation: Generation, event: StreamEvent): void {
    if (event.type === 'done') generation.done = true;
    else if (event.type === 'metadata' && event.responseId !== undefined) generation.responseId ??= event.responseId;
    this.delivered.record(event);
    this.subscriber.next(event);
  }

  private release(generation: Generation): void {
    const held = generation.held;
    generation.held = [];
    for (const event of held) {
      if (this.subscriber.closed) return;
      this.deliver(generation, event);
    }
  }

  /**
   * {@link GateHost.resumes}: a source failure on a response that can be resumed (also before
   * output: what is held stays held, and a stream whose choices all finished gets its rest, usage
   * and terminator, instead of ending there).
   */
  resumes(error: unknown): boolean {
    const generation = this.generation;
    if (generation.done || !generation.position.resumable || this.options.resume === false) return false;
    const verdict = this.verdict(error);
    if (!verdict.retry) return false; // the decoder is told; `failed` ends the stream (or starts it over)
    this.resuming = verdict;
    return true;
  }

  /** {@link GateHost.notResumed}: the attempt that was to resume the response sent another one. */
  notResumed(): void {
    this.current.unsubscribe();
    this.afterOutput(this.lastError);
  }

  private failed(generation: Generation, error: unknown): void {
    const resuming = this.resuming;
    this.resuming = undefined;
    if (resuming !== undefined) {
      this.lastError = resuming.error;
      return this.schedule('resume', resuming);
    }
    this.lastError = error;
    if (generation.done) return this.fail(error);
    // The source ended without the terminator (a clean close): resumable like a cut, when the policy retries it.
    if (isToolStreamError(error, 'truncated') && this.options.resume !== false && generation.position.resumable) {
      const verdict = this.verdict(error);
      if (verdict.retry) return this.schedule('resume', verdict);
    }
    if (!generation.output) {
      const verdict = this.verdict(error);
      return verdict.retry ? this.schedule('fresh', verdict) : this.fail(verdict.thrown?.error ?? error);
    }
    this.afterOutput(error);
  }

  /** A failure after output that cannot be resumed: start over with `restart`, or end with what was delivered. */
  private afterOutput(error: unknown): void {
    const verdict = this.options.restart === true ? this.verdict(error) : undefined;
    if (verdict?.retry === true) this.schedule('restart', verdict);
    else this.fail(verdict?.thrown?.error ?? error);
  }

  private completed(generation: Generation): void {
    this.release(generation);
    this.subscriber.complete();
  }

  /** Tried again, and after how long (decided once per error). */
  private verdict(error: unknown): Verdict {
    const attempt = this.attempt;
    const cached = this.verdictCache;
    if (cached !== undefined && cached.error === error && cached.attempt === attempt) return cached;
    let verdict: Verdict = { error, attempt, retry: false, delayMs: 0 };
    if (attempt < this.maxAttempts) {
      const retryable = isRetryableFailure(error);
      const retryAfterMs = retryAfterOf(error);
      try {
        const shouldRetry = this.options.shouldRetry === undefined ? retryable : this.options.shouldRetry(error, { attempt, output: this.generation.output, retryable });
        const delayMs = shouldRetry ? retryWait(retryAfterMs, this.options.maxRetryAfterMs, () => this.backoff({ attempt, error, retryAfterMs })) : undefined;
        if (delayMs !== undefined) verdict = { error, attempt, retry: true, delayMs };
      } catch (thrown) {
        verdict = { error, attempt, retry: false, delayMs: 0, thrown: { error: thrown } };
      }
    }
    this.verdictCache = verdict;
    return verdict;
  }

  /** Announce the next attempt with a `retry` event, wait, then make it. */
  private schedule(next: Next, verdict: Verdict): void {
    const { error, delayMs } = verdict;
    this.subscriber.next({ type: 'retry', attempt: this.attempt + 1, error, delayMs });
    if (this.subscriber.closed) return;
    const scheduler = this.options.scheduler ?? asyncScheduler;
    this.timer = scheduler.schedule(() => {
      this.timer = undefined;
      if (next !== 'resume') {
        if (next === 'restart') {
          const restart: StreamEvent = { type: 'restart', attempt: this.attempt + 1, error };
          this.delivered.record(restart);
          this.subscriber.next(restart);
        }
        this.generation = new Generation();
      }
      if (!this.subscriber.closed) this.launch(next, error);
    }, delayMs);
  }

  /** End the stream with `error`; after output, a typed error carries what was delivered. */
  private fail(error: unknown): void {
    const generation = this.generation;
    if (!generation.output) this.release(generation);
    const delivered = generation.output && isToolStreamError(error) ? withDetails(error, { delivered: this.delivered.output() }) : error;
    this.subscriber.error(delivered);
  }
}
