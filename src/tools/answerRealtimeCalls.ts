/**
 * `answerRealtimeCalls()`: run a Realtime session's function calls as they complete and write the
 * client events that answer them.
 *
 * @module
 */
import { Observable, Subject, type OperatorFunction } from 'rxjs';
import type { ToolCallsOptions } from '../calls/call';
import { CALLS_OPTION_CHECKS } from '../calls/driver';
import type { FramedRecord } from '../events';
import { aFunction, anObject, checkOptions, checkOptionsAt, pickOptions } from '../internal/options';
import { eventsAndResults } from '../operators/eventsAndResults';
import type { ClientEvent } from '../providers/openaiRealtime/wire';
import { checkTools } from '../parse/validate';
import { READ_OPTION_CHECKS, readStreamEvents, type ReadStreamEventsOptions } from '../read/readStreamEvents';
import type { ToolCallResult } from '../result';
import { realtimeOutputEvent } from './messages/openaiRealtime';
import type { ToolMessagesOptions } from './messages/index';
import { viewsOf } from './messages/shared';
import { RUN_OPTION_CHECKS, runTools, type RunToolsOptions } from './runTools';
import type { ToolList, ToolRun, ToolRunResult, ToolSet } from './types';

/** Options of {@link answerRealtimeCalls}: one group per stage, as `toolLoop()`'s. */
export interface AnswerRealtimeCallsOptions {
  /** Reading the session: the calls' options (`repairArguments`, `maxToolCalls`, `maxArgumentsSize`, …) and `idleTimeoutMs`. */
  readonly read?: Omit<ReadStreamEventsOptions, 'provider'> & ToolCallsOptions;
  /** Running the tools: `runTools()`'s options (`concurrency`, `timeoutMs`, `failFast`). */
  readonly run?: RunToolsOptions;
  /** Writing the results: `toolMessages()`'s `stringify`. */
  readonly reply?: Pick<ToolMessagesOptions, 'stringify'>;
}

/** One response of the session: its calls not answered yet, and how it finished (once it did). */
interface ResponseState {
  pending: number;
  finished: 'tool-calls' | 'other' | undefined;
}

/** The id a run's call has: its result's, whether it ran or not. */
function callIdOf(run: ToolRunResult<ToolRun>): string {
  return run.success ? run.data.call.id : (run.call?.id ?? run.error.toolCall.id);
}

/** A call's id, from its result. */
function resultIdOf(result: ToolCallResult): string {
  return result.success ? result.data.id : result.error.toolCall.id;
}

/**
 * Answer a Realtime session's function calls: run each call the moment it completes and write the
 * client events to send back — each result as a `function_call_output` item as soon as its tool
 * finishes, and one `response.create` once the response that made the calls is done and every one
 * of its calls was answered.
 *
 * <span class="informal">The session's messages in (`fromWebSocket()`), the events to send out: the
 * Realtime counterpart of `toolLoop()`, whose steps the server starts (voice activity, your own
 * `response.create`).</span>
 *
 * ```text
 * --m--A--B------D-------------      m: response.created, A, B: two calls complete, D: response.done (tool-calls)
 *   answerRealtimeCalls(tools)       (A's tool takes 1 frame, B's 8)
 * -----a-----------b(r)--------      a, b: conversation.item.create (function_call_output), r: response.create
 * ```
 *
 * 1. Each call runs as `runTools()` runs it (validated, `concurrency`, `timeoutMs`, `failFast`);
 *    a call that failed (`invalid-arguments`, `unknown-tool`, …) or whose tool failed is answered
 *    with the error's message, so the model can try again.
 * 2. One `response.create` per response, after its last result: never one per call, which would
 *    start a response while another result is on its way (the second `response.create` is refused
 *    with `conversation_already_has_active_response` and its result never answered:
 *    openai/openai-agents-python#3405).
 * 3. A response that did not finish with calls to answer (cancelled when the user spoke over it,
 *    cut by its token limit) gets no `response.create`; its calls left `incomplete` get no output.
 * 4. The session's end (the socket closed, a `provider-error`) ends the output, and aborts the tools
 *    still running: there is no one left to answer.
 *
 * @example
 * ```ts
 * import { Subject } from 'rxjs';
 * import { WebSocket } from 'ws';
 * import { z } from 'zod';
 * import { answerRealtimeCalls, tool, toolSpecs, type RealtimeWire } from 'rxjs-tool-calls/tools';
 * import { fromWebSocket } from 'rxjs-tool-calls/websocket';
 *
 * const tools = { get_weather: tool({ description: 'The weather in a city', schema: z.object({ city: z.string() }), execute: ({ city }) => ({ city, celsius: 18 }) }) };
 * const outgoing = new Subject<RealtimeWire.ClientEvent>();
 * fromWebSocket('wss://api.openai.com/v1/realtime?model=gpt-realtime', {
 *   WebSocketCtor: WebSocket,
 *   headers: { authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
 *   send: outgoing,
 * })
 *   .pipe(answerRealtimeCalls(tools))
 *   .subscribe({ next: (event) => outgoing.next(event), error: (error: unknown) => console.error(error) });
 * outgoing.next({ type: 'session.update', session: { type: 'realtime', tools: toolSpecs(tools, 'openai-realtime') } });
 * // sends each result as its tool finishes, then response.create: the model speaks the answer
 * ```
 *
 * @param tools The tools by name, or an array of named tools (see `runTools()`).
 * @param options One group per stage: `read`, `run`, `reply`.
 * @return An operator from a session's records (or bytes of a recording) to the client events to send.
 * @throws {ToolStreamError} `invalid-option`, at once, for tools or options it cannot use.
 */
export function answerRealtimeCalls<T extends ToolSet | ToolList>(tools: T, options: AnswerRealtimeCallsOptions = {}): OperatorFunction<Uint8Array | string | FramedRecord, ClientEvent> {
  checkOptions('answerRealtimeCalls', options, { read: anObject, run: anObject, reply: anObject });
  const { provider: _realtime, ...readChecks } = READ_OPTION_CHECKS; // a Realtime session is read as one
  checkOptionsAt('answerRealtimeCalls', 'options.read', options.read, [readChecks, CALLS_OPTION_CHECKS]);
  checkOptionsAt('answerRealtimeCalls', 'options.run', options.run, [RUN_OPTION_CHECKS]);
  checkOptionsAt('answerRealtimeCalls', 'options.reply', options.reply, [{ stringify: aFunction }]);
  checkTools(tools, 'answerRealtimeCalls');
  const read = options.read ?? {};
  const reading = readStreamEvents({ ...pickOptions(read, READ_OPTION_CHECKS), provider: 'openai-realtime' });
  const tracking = eventsAndResults(read);
  const running = runTools(tools, options.run);
  const reply = options.reply ?? {};
  return (source) =>
    new Observable<ClientEvent>((subscriber) => {
      const responses = new Map<string, ResponseState>();
      const responseOf = new Map<string, string>(); // call id → its response
      let current = '';
      let unnamed = 0;
      /** The response's answers are all out: ask for the next response, and forget it. */
      const settle = (key: string): void => {
        const state = responses.get(key);
        if (state === undefined || state.finished === undefined || state.pending > 0) return;
        responses.delete(key);
        if (state.finished === 'tool-calls') subscriber.next({ type: 'response.create' });
      };
      const calls = new Subject<ToolCallResult>();
      const runs = calls.pipe(running).subscribe({
        next: (run) => {
          const id = callIdOf(run as ToolRunResult<ToolRun>);
          const key = responseOf.get(id) ?? current;
          responseOf.delete(id);
          const cut = !run.success && run.error.code === 'incomplete';
          if (!cut) for (const view of viewsOf({ results: [run as ToolRunResult<ToolRun>] }, reply)) subscriber.next(realtimeOutputEvent(view));
          const state = responses.get(key);
          if (state !== undefined) {
            state.pending--;
            settle(key);
          }
        },
        error: (error: unknown) => subscriber.error(error),
      });
      const session = source.pipe(reading, tracking).subscribe({
        next: (item) => {
          if (item.type === 'event') {
            const event = item.event;
            if (event.type === 'metadata') {
              current = event.responseId ?? `#${++unnamed}`;
              if (!responses.has(current)) responses.set(current, { pending: 0, finished: undefined });
            } else if (event.type === 'finish') {
              const state = responses.get(current);
              if (state !== undefined) state.finished = event.reason === 'tool-calls' ? 'tool-calls' : 'other';
              settle(current);
            }
            return;
          }
          const result = item.result;
          if (!result.success && result.error.code === 'missing-tool-calls') return;
          const state = responses.get(current) ?? { pending: 0, finished: undefined };
          responses.set(current, state);
          state.pending++;
          responseOf.set(resultIdOf(result), current);
          calls.next(result);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        session.unsubscribe();
        runs.unsubscribe();
      };
    });
}
