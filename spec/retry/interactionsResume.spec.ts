/**
 * `retryStream()` resumes a Gemini Interactions stream by the `event_id` of its data (the API's
 * own resume: `GET /v1beta/interactions/{id}?stream=true&last_event_id=…` sends what follows that
 * event): exactly once, in virtual time and end to end against a 127.0.0.1 server that cuts the
 * POST's stream mid-call and serves the GET; a server that repeats the last event, one that starts
 * over, and another interaction are handled as for SSE ids.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { concat, from, lastValueFrom, type Observable, throwError, toArray } from 'rxjs';
import { fromResponse, retryStream, toolCalls, type RetryContext, type StreamEvent, type ToolCallResult } from 'rxjs-tool-calls';
import { interactionsEvents, interactionsStream, type InteractionsTurn } from '../helpers/interactionsWire';
import { cut, eventsOf, resultsOf, virtualTime } from '../helpers/retryWire';
import { geminiInteractionsEvent } from 'rxjs-tool-calls/marbles';

const turn: InteractionsTurn = {
  id: 'v1_resume',
  text: ['Checking ', 'Zürich.'],
  calls: [{ id: 'fc_1', name: 'get_weather', pieces: ['{"ci', 'ty":"Zü', 'rich"}'] }],
  statusUpdate: true,
  eventIds: true,
  usage: { total_input_tokens: 5, total_output_tokens: 9 },
};
/** The turn's events, one SSE event each, with `event_id` `evt_1`, `evt_2`, …. */
const wire: readonly string[] = interactionsEvents(turn).map(([type, payload]) => geminiInteractionsEvent(type, payload));
const index = (eventId: string): number => wire.findIndex((e) => e.includes(`"event_id":"${eventId}"`));

const cutAfter = (events: readonly string[], tail = ''): Observable<string> =>
  concat(
    from(tail === '' ? events : [...events, tail]),
    throwError(() => cut()),
  );

function outcome(attempts: ReadonlyArray<Observable<string>>): { events: StreamEvent[]; error: unknown; completed: boolean; contexts: RetryContext[] } {
  const contexts: RetryContext[] = [];
  const events: StreamEvent[] = [];
  let error: unknown;
  let completed = false;
  const scheduler = virtualTime();
  scheduler.run(() => {
    retryStream(
      (context) => {
        contexts.push(context);
        const attempt = attempts[context.attempt - 1];
        if (attempt === undefined) throw new Error(`attempt ${context.attempt} was not expected`);
        return attempt;
      },
      { scheduler, backoff: () => 1 },
    ).subscribe({ next: (e) => events.push(e), error: (e: unknown) => (error = e), complete: () => (completed = true) });
  });
  return { events, error, completed, contexts };
}

const withoutNotices = (events: readonly StreamEvent[]): StreamEvent[] => events.filter((e) => e.type !== 'retry' && e.type !== 'restart');
const results = (events: readonly StreamEvent[]): ToolCallResult[] => {
  const out: ToolCallResult[] = [];
  from(events)
    .pipe(toolCalls())
    .subscribe((r) => out.push(r));
  return out;
};

describe('retryStream() resumes a Gemini Interactions stream by event_id', () => {
  it('cut mid-call: the next attempt gets lastEventId (the last event_id) and responseId (the interaction); every event once', async () => {
    const at = index('evt_8'); // the call's first piece
    const run = outcome([cutAfter(wire.slice(0, at + 1), wire[at + 1]!.slice(0, 20)), from(wire.slice(at + 1))]);
    expect(run.completed).toBe(true);
    expect(run.contexts).toEqual([{ attempt: 1 }, { attempt: 2, error: cut(), lastEventId: 'evt_8', responseId: 'v1_resume' }]);
    expect(withoutNotices(run.events)).toEqual(await eventsOf(wire));
    expect(results(run.events)).toEqual(await resultsOf(wire));
  });

  it('a server that sends the last event again first: it is dropped', async () => {
    const run = outcome([cutAfter(wire.slice(0, 6)), from(wire.slice(5))]);
    expect(run.contexts[1]?.lastEventId).toBe('evt_6');
    expect(withoutNotices(run.events)).toEqual(await eventsOf(wire));
  });

  it('a server that starts the interaction over (an event_id received before): not read; the cut ends the stream with delivered', () => {
    const run = outcome([cutAfter(wire.slice(0, 9)), from(wire)]);
    expect(run.completed).toBe(false);
    expect(run.error).toMatchObject({ code: 'connection-lost', delivered: { text: ['Checking Zürich.'], toolCalls: [{ id: 'fc_1', rawArguments: '{"city":"Zü', complete: false }] } });
  });

  it('another interaction (a new POST instead of the GET): not read as the continuation', () => {
    const other = interactionsEvents({ ...turn, id: 'v1_other' }).map(([type, payload]) => geminiInteractionsEvent(type, { ...payload, event_id: `x_${String(payload['event_id'])}` }));
    const run = outcome([cutAfter(wire.slice(0, 9)), from(other)]);
    expect(run.completed).toBe(false);
    expect(run.error).toMatchObject({ code: 'connection-lost' });
  });

  it('a stream without event_ids is not resumable (the AI SDK’s recordings have none): delivered', () => {
    const plain = interactionsEvents({ ...turn, eventIds: false }).map(([type, payload]) => geminiInteractionsEvent(type, payload));
    const run = outcome([cutAfter(plain.slice(0, 9)), from(plain)]);
    expect(run.contexts).toHaveLength(1);
    expect(run.error).toMatchObject({ code: 'connection-lost' });
  });
});

describe('end to end: POST cut mid-call, resumed with GET …?stream=true&last_event_id=…', () => {
  let server: http.Server;
  let origin: string;
  const requests: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.method === 'POST' && url.pathname === '/v1beta/interactions') {
        // Everything up to the call's second piece, half of the next event, then the socket dies.
        const at = index('evt_9');
        res.write(wire.slice(0, at + 1).join('') + wire[at + 1]!.slice(0, 30));
        setTimeout(() => res.destroy(), 20);
        return;
      }
      const id = url.pathname.split('/').at(-1);
      const after = url.searchParams.get('last_event_id');
      if (req.method === 'GET' && id === 'v1_resume' && url.searchParams.get('stream') === 'true' && after !== null) {
        res.end(wire.slice(index(after) + 1).join(''));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives the uncut stream’s results, the GET naming the interaction and the last event_id', async () => {
    const request = (context: RetryContext) =>
      fromResponse((signal) =>
        context.lastEventId === undefined
          ? fetch(`${origin}/v1beta/interactions`, { method: 'POST', signal, body: JSON.stringify({ model: 'm', input: 'Weather?', stream: true }) })
          : fetch(`${origin}/v1beta/interactions/${context.responseId ?? ''}?stream=true&last_event_id=${encodeURIComponent(context.lastEventId)}`, { signal }),
      );
    const events = await lastValueFrom(retryStream(request, { backoff: () => 1 }).pipe(toArray()));
    expect(requests).toEqual(['POST /v1beta/interactions', 'GET /v1beta/interactions/v1_resume?stream=true&last_event_id=evt_9']);
    expect(withoutNotices(events)).toEqual(await eventsOf([interactionsStream(turn)]));
    expect(results(events)).toEqual(await resultsOf(wire));
    expect(results(events).map((r) => r.success && r.data.arguments)).toEqual([{ city: 'Zürich' }]);
  });
});
