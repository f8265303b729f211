/**
 * Chat Completions requests shared by the request translator specs, and a matcher for their
 * `unsupported-request` errors.
 */
import type { ToolStreamError } from 'rxjs-tool-calls';
import type { OpenAIChatWire } from 'rxjs-tool-calls/gateway';

export const WEATHER_TOOL = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
} as const;

export const TIME_TOOL = { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } } } as const;

/** A two-step tool conversation: system, question, two parallel calls, their two results, a follow-up. */
export const CONVERSATION = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather and time in Paris?' },
  {
    role: 'assistant',
    content: 'Let me look.',
    tool_calls: [
      { id: 'call_wx', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_tm', type: 'function', function: { name: 'get_time', arguments: '{"tz":"Europe/Paris"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_wx', content: '18°C, clear' },
  { role: 'tool', tool_call_id: 'call_tm', content: '14:05' },
  { role: 'user', content: 'Thanks. And tomorrow?' },
] as const;

/** A request with every field the translators read. */
export const FULL_REQUEST = {
  model: 'some-model',
  messages: CONVERSATION,
  tools: [WEATHER_TOOL, TIME_TOOL],
  tool_choice: 'auto',
  max_completion_tokens: 512,
  stream: true,
  stream_options: { include_usage: true },
} as const satisfies OpenAIChatWire.RequestInput;

/** A minimal request with one user message. */
export function ask(extra: Record<string, unknown> = {}): OpenAIChatWire.RequestInput {
  return { model: 'some-model', max_completion_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], ...extra } as OpenAIChatWire.RequestInput;
}

/** `run()` throws `unsupported-request` for `target`, naming `field`. */
export function expectUnsupported(run: () => unknown, target: string, field: string): ToolStreamError<'unsupported-request'> {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toMatchObject({ name: 'ToolStreamError', code: 'unsupported-request' });
  const error = caught as ToolStreamError<'unsupported-request'>;
  expect({ code: error.code, target: error.target, field: error.field }).toEqual({ code: 'unsupported-request', target, field });
  expect(error.message).toContain(field);
  return error;
}

/**
 * `it.each` rows, each given its last (options) element when it has none: jest passes a `done`
 * callback in place of a missing last argument, and the test would wait for it. The row type
 * comes from the annotated variable the result is assigned to.
 */
export function withOptions<T extends unknown[]>(rows: ReadonlyArray<readonly unknown[]>, length = 4): T[] {
  return rows.map((row) => (row.length === length ? [...row] : [...row, {}]) as T);
}
