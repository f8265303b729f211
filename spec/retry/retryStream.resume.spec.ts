/**
 * `retryStream()` after output: resuming by SSE id (`Last-Event-ID`) and by Responses sequence
 * number (`starting_after`) with exactly-once delivery, the server variants a resume meets (repeats
 * the last event, ids on some events only, starts over), `delivered` when a stream cannot be
 * resumed, and `restart`.
 */
import { concat, from, type Observable, throwError } from 'rxjs';
import { retryStream, toolCalls, type RetryContext, type RetryStreamOptions, type StreamEvent, type ToolCallResult, isToolStreamError } from 'rxjs-tool-calls';
import { sseEvent } from 'rxjs-tool-calls/marbles';
import { RESPONSES_SSE } from '../helpers/sdkServer';
import { chat, CHAT_PLAIN, CHAT_WITH_IDS, cut, eventsOf, resultsOf, virtualTime } from '../helpers/retryWire';

/** One attempt's wire: these events whole, then `tail` (the start of the next event), then a cut. */
const cutAfter = (events: readonly string[], tail = ''): Observable<string> =>
  concat(
    from(tail === '' ? events : [...events, tail]),
    throwError(() => cut()),
  );

interface Outcome {
  readonly events: StreamEvent[];
  readonly error: unknown;
  readonly completed: boolean;
  readonly contexts: RetryContext[];
}

/** Run `retryStream()` over scripted attempts in virtual time; piped through `operator` when given. */
function outcome(attempts: ReadonlyArray<Observable<string>>, options: RetryStreamOptions = {}): Outcome {
  const contexts: RetryContext[] = [];
  const events: StreamEvent[] = [];
  let error: unknown;
  let completed = false;
  const scheduler = virtualTime();
  scheduler.run(() => {
    const request = (context: RetryContext): Observable<string> => {
      contexts.push(context);
      const attempt = attempts[context.attempt - 1];
      if (attempt === undefined) throw new Error(`attempt ${context.attempt} was not expected`);
      return attempt;
    };
    retryStream(request, { scheduler, backoff: () => 1, ...options }).subscribe({ next: (e) => events.push(e), error: (e: unknown) => (error = e), complete: () => (completed = true) });
  });
  return { events, error, completed, contexts };
}

/** The results `toolCalls()` gives for events. */
function results(events: readonly StreamEvent[]): ToolCallResult[] {
  const out: ToolCallResult[] = [];
  from(events)
    .pipe(toolCalls())
    .subscribe((r) => out.push(r));
  return out;
}

const withoutNotices = (events: readonly StreamEvent[]): StreamEvent[] => events.filter((e) => e.type !== 'retry' && e.type !== 'restart');

describe('retryStream() resumes a stream with SSE ids (Last-Event-ID)', () => {
  const ids = CHAT_WITH_IDS;

  it('cut mid-call: the next attempt gets lastEventId; the events, text and call are those of the uncut stream, once', async () => {
    const run = outcome([cutAfter(ids.slice(0, 3), (ids[3] as string).slice(0, 12)), from(ids.slice(3))]);
    expect(run.completed).toBe(true);
    expect(run.contexts).toEqual([{ attempt: 1 }, { attempt: 2, error: cut(), lastEventId: '3', responseId: 'chatcmpl-1' }]);
    expect(withoutNotices(run.events)).toEqual(await eventsOf(ids));
    expect(run.events.filter((e) => e.type === 'retry')).toEqual([{ type: 'retry', attempt: 2, error: cut(), delayMs: 1 }]);
    expect(results(run.events)).toEqual(await resultsOf(ids));
  });

  it('a server that sends the last event again first: it is dropped', async () => {
    const run = outcome([cutAfter(ids.slice(0, 3)), from(ids.slice(2))]);
    expect(withoutNotices(run.events)).toEqual(await eventsOf(ids));
  });

  it('ids on some events only: the events after the last id that were received are dropped from the resumed stream', async () => {
    const sparse = ids.map((event, i) => (i === 0 || i === 4 ? event : event.replace(/^id: .*\n/m, '')));
    for (const resumed of [sparse.slice(1), sparse]) {
      // After the event with id 1, or from that event again.
      const run = outcome([cutAfter(sparse.slice(0, 4)), from(resumed)]);
      expect(run.contexts[1]?.lastEventId).toBe('1');
      expect(withoutNotices(run.events)).toEqual(await eventsOf(sparse));
      expect(results(run.events)).toEqual(await resultsOf(ids));
    }
  });

  it('a stream whose choices all finished, cut before its usage and [DONE], is resumed for them (not ended early), also before any output', async () => {
    const usage = JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-test', choices: [], usage: { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 } });
    const wire = [chat({ role: 'assistant' }, 'stop'), usage, '[DONE]'].map((data, i) => sseEvent({ id: String(i + 1), data }));
    const run = outcome([cutAfter(wire.slice(0, 1)), from(wire.slice(1))]);
    expect(run.contexts[1]?.lastEventId).toBe('1');
    expect(withoutNotices(run.events)).toEqual(await eventsOf(wire));
    expect(run.events.filter((e) => e.type === 'usage')).toHaveLength(1);
  });

  it('a resumed attempt that fails again before any event resumes from the same point', async () => {
    const run = outcome([cutAfter(ids.slice(0, 2)), throwError(() => cut()), from(ids.slice(2))]);
    expect(run.contexts.map((c) => c.lastEventId)).toEqual([undefined, '2', '2']);
    expect(withoutNotices(run.events)).toEqual(await eventsOf(ids));
  });

  it('a server that starts over instead of resuming (an id received before): not read; the cut ends the stream with delivered', () => {
    const run = outcome([cutAfter(ids.slice(0, 3)), from(ids)]);
    expect(run.completed).toBe(false);
    expect(run.error).toMatchObject({ code: 'connection-lost', delivered: { text: ['Checking. '], toolCalls: [{ id: 'call_1', name: 'get_weather', rawArguments: '{"city":"Pa', complete: false }] } });
  });

  it('the source completing without the terminator is truncated (not retried by default; resumed when shouldRetry allows it)', async () => {
    const closed = outcome([from(ids.slice(0, 3))]);
    expect(closed.error).toMatchObject({ name: 'ToolStreamError', code: 'truncated' });
    expect(closed.error).toMatchObject({ delivered: { toolCalls: [{ rawArguments: '{"city":"Pa', complete: false }] } });
    const resumed = outcome([from(ids.slice(0, 3)), from(ids.slice(3))], { shouldRetry: (error, context) => context.retryable || isToolStreamError(error, 'truncated') });
    expect(resumed.contexts[1]?.lastEventId).toBe('3');
    expect(results(resumed.events)).toEqual(await resultsOf(ids));
  });

  it('resume: false treats the stream as not resumable', () => {
    const run = outcome([cutAfter(ids.slice(0, 3)), from(ids.slice(3))], { resume: false });
    expect(run.contexts).toHaveLength(1);
    expect(run.error).toMatchObject({ code: 'connection-lost', delivered: { text: ['Checking. '] } });
  });
});

describe('retryStream() resumes an OpenAI Responses stream (starting_after)', () => {
  const wire = RESPONSES_SSE;

  it('cut mid-call: lastSequenceNumber and responseId are given; already received events are dropped by sequence number', async () => {
    // A server that ignores starting_after and replays the whole (stored) response is read correctly too.
    for (const resumed of [wire.slice(5), wire]) {
      const run = outcome([cutAfter(wire.slice(0, 5), (wire[5] as string).slice(0, 30)), from(resumed)]);
      expect(run.contexts[1]).toEqual({ attempt: 2, error: cut(), lastSequenceNumber: 4, responseId: 'resp_1' });
      expect(withoutNotices(run.events)).toEqual(await eventsOf(wire));
      expect(results(run.events)).toEqual(await resultsOf(wire));
    }
  });

  it('a resumed attempt that is another response (a new response.created): not read; ended with delivered, or started over with restart', async () => {
    const other = wire.map((event) => event.replaceAll('resp_1', 'resp_2'));
    const failed = outcome([cutAfter(wire.slice(0, 4)), from(other)]);
    expect(failed.error).toMatchObject({ code: 'connection-lost', delivered: { text: ['Checking.'], toolCalls: [{ rawArguments: '{"city":', complete: false }] } });
    const restarted = outcome([cutAfter(wire.slice(0, 4)), from(other), from(other)], { restart: true });
    expect(restarted.events.map((e) => e.type).filter((t) => t === 'retry' || t === 'restart')).toEqual(['retry', 'retry', 'restart']);
    expect(restarted.contexts.map((c) => c.lastSequenceNumber)).toEqual([undefined, 3, undefined]);
    expect(restarted.completed).toBe(true);
  });
});

describe('retryStream() after output, not resumable (plain chat completions)', () => {
  it('ends with the typed error carrying delivered: the text and the calls emitted; no further request', () => {
    const run = outcome([cutAfter(CHAT_PLAIN.slice(0, 3)), from(CHAT_PLAIN)]);
    expect(run.contexts).toHaveLength(1);
    expect(run.events.some((e) => e.type === 'retry')).toBe(false);
    expect(run.error).toMatchObject({
      code: 'connection-lost',
      retryable: true,
      delivered: { text: ['Checking. '], reasoning: [''], toolCalls: [{ id: 'call_1', name: 'get_weather', index: 0, choice: 0, rawArguments: '{"city":"Pa', complete: false }] },
    });
    expect(Object.keys(cut())).not.toContain('delivered'); // the error that arrived is not changed
  });

  it('restart: true starts the response over after a restart event; toolCalls() reports the cut call incomplete, then the new one', async () => {
    const run = outcome([cutAfter(CHAT_PLAIN.slice(0, 3)), from(CHAT_PLAIN)], { restart: true });
    expect(run.completed).toBe(true);
    const notices = run.events.filter((e) => e.type === 'retry' || e.type === 'restart');
    expect(notices).toEqual([
      { type: 'retry', attempt: 2, error: cut(), delayMs: 1 },
      { type: 'restart', attempt: 2, error: cut() },
    ]);
    expect(run.events.slice(run.events.indexOf(notices[1] as StreamEvent) + 1)).toEqual(await eventsOf(CHAT_PLAIN));
    const [cutCall, ...rest] = results(run.events);
    expect(cutCall?.error).toMatchObject({ name: 'ToolStreamError', code: 'incomplete' });
    expect(cutCall?.error).toMatchObject({ reason: 'connection-lost', toolCall: { rawArguments: '{"city":"Pa' } });
    expect(rest).toEqual([{ success: true, data: expect.objectContaining({ id: 'call_1_2', arguments: { city: 'Paris' } }) }]);
  });

  it('a failure after the terminator, or after every choice finished, completes the stream: nothing is retried', () => {
    const afterDone = outcome([cutAfter(CHAT_PLAIN)]);
    expect(afterDone.completed).toBe(true);
    const finished = outcome([cutAfter(CHAT_PLAIN.slice(0, 5))]);
    expect(finished.completed).toBe(true);
    expect(finished.events.slice(-2).map((e) => e.type)).toEqual(['finish', 'done']);
    expect(finished.contexts).toHaveLength(1);
  });
});
