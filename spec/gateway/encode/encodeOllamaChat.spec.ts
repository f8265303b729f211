/**
 * `encodeOllamaChat()`: the NDJSON lines it writes (text, thinking, whole calls, the last line),
 * what Ollama cannot carry, errors, the doc example, and the standard operator cases.
 */
import { concat, from, throwError } from 'rxjs';
import { type StreamEvent, ToolStreamError } from 'rxjs-tool-calls';
import { encodeOllamaChat, type EncodeOllamaChatOptions } from 'rxjs-tool-calls/gateway';
import { collect, genIds } from '../../helpers/reencode';

const AT = '2025-01-01T00:00:00.000Z';
const encode = (extra: EncodeOllamaChatOptions = {}) => encodeOllamaChat({ generateId: genIds(), createdAt: AT, model: 'qwen3', ...extra });

function lines(events: StreamEvent[], extra: EncodeOllamaChatOptions = {}, error?: unknown) {
  const source =
    error === undefined
      ? from(events)
      : concat(
          from(events),
          throwError(() => error),
        );
  const out = collect(source.pipe(encode(extra)));
  for (const value of out.values) expect(value.endsWith('\n')).toBe(true);
  return {
    ...out,
    lines: out.values
      .join('')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const t: StreamEvent = { type: 'text-delta', choice: 0, text: 'Hi' };
const x1: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_x', name: 'get_weather', argumentsDelta: '{"city":' };
const x2: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' };
const e: StreamEvent = { type: 'tool-call-end', choice: 0, index: 0 };
const f: StreamEvent = { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' };
const d: StreamEvent = { type: 'done' };
const line = (message: unknown) => ({ model: 'qwen3', created_at: AT, message, done: false });

describe('encodeOllamaChat', () => {
  it('writes text, thinking, each call whole when it ends, and the last line with the counts', () => {
    const out = lines([
      { type: 'metadata', provider: 'anthropic', model: 'claude' },
      { type: 'reasoning-delta', choice: 0, text: 'hmm' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'sig' },
      t,
      x1,
      x2,
      e,
      f,
      { type: 'usage', inputTokens: 12, outputTokens: 30, cachedInputTokens: 4, raw: {} },
      d,
    ]);
    expect(out.completed).toBe(true);
    expect(out.lines).toEqual([
      line({ role: 'assistant', content: '', thinking: 'hmm' }),
      line({ role: 'assistant', content: 'Hi' }),
      line({ role: 'assistant', content: '', tool_calls: [{ id: 'call_x', function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }),
      { model: 'qwen3', created_at: AT, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 12, eval_count: 30 },
    ]);
  });

  it("uses the source's model, and the time of the first line, unless told", () => {
    const out = collect(from<StreamEvent[]>([{ type: 'metadata', provider: 'gemini', model: 'gemini-2.5-flash' }, t, d]).pipe(encodeOllamaChat()));
    const parsed = out.values
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { model: string; created_at: string });
    expect(parsed.map((p) => p.model)).toEqual(['gemini-2.5-flash', 'gemini-2.5-flash']);
    expect(new Set(parsed.map((p) => p.created_at)).size).toBe(1);
    expect(Number.isNaN(Date.parse(parsed[0]?.created_at ?? ''))).toBe(false);
  });

  it('leaves out a call that failed or was cut, and a call without an id of the source gets none', () => {
    const bad: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_bad', name: 'f', argumentsDelta: '{"oops' };
    const anonymous: StreamEvent = { type: 'tool-call-delta', choice: 0, index: 2, name: 'g', argumentsDelta: '{}', replace: true };
    const out = lines([
      bad,
      { type: 'tool-call-end', choice: 0, index: 1 },
      anonymous,
      { type: 'tool-call-end', choice: 0, index: 2 },
      { type: 'finish', choice: 0, reason: 'length', rawReason: 'length' },
      d,
    ]);
    expect(out.lines.map((l) => (l['message'] as { tool_calls?: unknown }).tool_calls).filter((c) => c !== undefined)).toEqual([[{ function: { name: 'g', arguments: {} } }]]);
    expect(out.lines.at(-1)).toMatchObject({ done: true, done_reason: 'length' });
  });

  it.each([
    ['stop', 'end_turn', 'stop'],
    ['tool-calls', 'tool_use', 'stop'],
    ['length', 'max_tokens', 'length'],
    ['content-filter', 'refusal', 'refusal'],
    ['error', '', 'error'],
  ] as const)('finish %s (%s) is done_reason %s', (reason, rawReason, doneReason) => {
    expect(lines([t, { type: 'finish', choice: 0, reason, rawReason }, d]).lines.at(-1)).toMatchObject({ done: true, done_reason: doneReason });
  });

  it('a provider error is an {"error"} line, then the output completes; any other error is passed on without the last line', () => {
    const failed = lines([t], {}, new ToolStreamError('provider-error', { provider: 'openai-chat', message: 'Rate limit reached', status: 429, retryable: true }));
    expect(failed.completed).toBe(true);
    expect(failed.lines).toEqual([line({ role: 'assistant', content: 'Hi' }), { error: 'Rate limit reached' }]);
    const error = new ToolStreamError('idle-timeout', { timeoutMs: 10 });
    const cut = lines([t], {}, error);
    expect(cut.error).toBe(error);
    expect(cut.lines).toEqual([line({ role: 'assistant', content: 'Hi' })]);
  });

  it('prints what its doc example says', () => {
    const events: StreamEvent[] = [
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
      { type: 'done' },
    ];
    const out = collect(from(events).pipe(encodeOllamaChat({ model: 'qwen3', createdAt: '2025-01-01T00:00:00.000Z' }))).values;
    expect(out).toEqual([
      '{"model":"qwen3","created_at":"2025-01-01T00:00:00.000Z","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}\n',
      '{"model":"qwen3","created_at":"2025-01-01T00:00:00.000Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\n',
    ]);
  });
});
