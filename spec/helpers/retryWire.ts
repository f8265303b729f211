/**
 * Shared by the retry specs: wire streams, the uncut stream's events, typed failures and a
 * TestScheduler that compares typed errors by their fields.
 */
import { catchError, EMPTY, from, lastValueFrom, toArray } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { readStreamEvents, toolCalls, type DeliveredOutput, type StreamEvent, type ToolCallResult, ToolStreamError } from 'rxjs-tool-calls';
import { openaiChunk, openaiDone, responsesEvent, sseEvent } from 'rxjs-tool-calls/marbles';
import { testScheduler } from './marbles';

/** A TestScheduler whose deep equality compares typed errors without stacks. */
export function virtualTime(): TestScheduler {
  return testScheduler();
}

/** A chat chunk object (for `withId`). */
export const chat = (delta: Record<string, unknown>, finish: string | null = null): string =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-test', choices: [{ index: 0, delta, finish_reason: finish }] });

/**
 * A chat stream with an SSE id on every event: text, one call in three fragments, a finish, `[DONE]`.
 * The SSE `id:` of event `i` is `String(i + 1)`.
 */
export const CHAT_WITH_IDS: readonly string[] = [
  chat({ role: 'assistant', content: 'Checking. ' }),
  chat({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }] }),
  chat({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Pa' } }] }),
  chat({ tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }] }),
  chat({}, 'tool_calls'),
  '[DONE]',
].map((data, i) => sseEvent({ id: String(i + 1), data }));

/** The same stream without ids (plain chat completions: not resumable). */
export const CHAT_PLAIN: readonly string[] = [
  openaiChunk({ role: 'assistant', content: 'Checking. ' }),
  openaiChunk({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"ci' }] }),
  openaiChunk({ toolCalls: [{ index: 0, arguments: 'ty":"Pa' }] }),
  openaiChunk({ toolCalls: [{ index: 0, arguments: 'ris"}' }] }),
  openaiChunk({ finishReason: 'tool_calls' }),
  openaiDone(),
];

/** The events of a whole (uncut) wire stream. */
export function eventsOf(wire: readonly string[]): Promise<StreamEvent[]> {
  return lastValueFrom(from(wire).pipe(readStreamEvents(), toArray()));
}

/** The results of a whole (uncut) wire stream. */
export function resultsOf(wire: readonly string[]): Promise<ToolCallResult[]> {
  return lastValueFrom(from(wire).pipe(readStreamEvents(), toolCalls(), toArray()));
}

/** A cut connection, as the sources report it. */
export function cut(byteOffset = 0): ToolStreamError<'connection-lost'> {
  return new ToolStreamError('connection-lost', { source: 'test', byteOffset }, { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
}

/** An HTTP failure, as `fromResponse` reports it (with `delivered`, as `retryStream()` ends with it after output). */
export function httpError(status: number, retryAfterMs?: number, delivered?: DeliveredOutput): ToolStreamError<'provider-error'> {
  return new ToolStreamError('provider-error', {
    provider: 'http',
    providerCode: undefined,
    type: undefined,
    message: `HTTP ${status}`,
    status,
    retryable: status === 429 || status >= 500,
    payload: '',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(delivered === undefined ? {} : { delivered }),
  });
}

/** Values `a`, `b`, … for marbles, from a list. */
export function lettered<T>(items: readonly T[], first = 'a'): Record<string, T> {
  const out: Record<string, T> = {};
  items.forEach((item, i) => (out[String.fromCharCode(first.charCodeAt(0) + i)] = item));
  return out;
}

const fc = (id: string, callId: string, name: string, args: string, status: string): Record<string, unknown> => ({ type: 'function_call', id, call_id: callId, name, arguments: args, status });
const response = (status: string, output: unknown[]): Record<string, unknown> => ({ id: 'resp_bg', object: 'response', model: 'gpt-test', status, background: true, output });

/**
 * An OpenAI Responses stream (a background response) with two calls: `get_weather` complete
 * (`output_item.done`, sequence 4), then `get_time` in two argument pieces (sequences 6 and 7).
 */
export const RESPONSES_TWO_CALLS: readonly string[] = [
  responsesEvent('response.created', { sequence_number: 0, response: response('in_progress', []) }),
  responsesEvent('response.output_item.added', { sequence_number: 1, output_index: 0, item: fc('fc_wx', 'call_wx', 'get_weather', '', 'in_progress') }),
  responsesEvent('response.function_call_arguments.delta', { sequence_number: 2, output_index: 0, item_id: 'fc_wx', delta: '{"city":"Zürich 🏔"}' }),
  responsesEvent('response.function_call_arguments.done', { sequence_number: 3, output_index: 0, item_id: 'fc_wx', arguments: '{"city":"Zürich 🏔"}' }),
  responsesEvent('response.output_item.done', { sequence_number: 4, output_index: 0, item: fc('fc_wx', 'call_wx', 'get_weather', '{"city":"Zürich 🏔"}', 'completed') }),
  responsesEvent('response.output_item.added', { sequence_number: 5, output_index: 1, item: fc('fc_tm', 'call_tm', 'get_time', '', 'in_progress') }),
  responsesEvent('response.function_call_arguments.delta', { sequence_number: 6, output_index: 1, item_id: 'fc_tm', delta: '{"tz":"Europe/Be' }),
  responsesEvent('response.function_call_arguments.delta', { sequence_number: 7, output_index: 1, item_id: 'fc_tm', delta: 'rlin"}' }),
  responsesEvent('response.function_call_arguments.done', { sequence_number: 8, output_index: 1, item_id: 'fc_tm', arguments: '{"tz":"Europe/Berlin"}' }),
  responsesEvent('response.output_item.done', { sequence_number: 9, output_index: 1, item: fc('fc_tm', 'call_tm', 'get_time', '{"tz":"Europe/Berlin"}', 'completed') }),
  responsesEvent('response.completed', {
    sequence_number: 10,
    response: {
      ...response('completed', [fc('fc_wx', 'call_wx', 'get_weather', '{"city":"Zürich 🏔"}', 'completed'), fc('fc_tm', 'call_tm', 'get_time', '{"tz":"Europe/Berlin"}', 'completed')]),
      usage: { input_tokens: 12, output_tokens: 9, total_tokens: 21 },
    },
  }),
];

/** The events a wire stream gives before it ends or fails (a prefix of a stream). */
export function eventsBefore(wire: readonly string[]): Promise<StreamEvent[]> {
  return lastValueFrom(
    from(wire).pipe(
      readStreamEvents(),
      catchError(() => EMPTY),
      toArray(),
    ),
  );
}
