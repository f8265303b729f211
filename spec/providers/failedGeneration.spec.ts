/**
 * Groq `tool_use_failed`. The `provider-error` error keeps the rejected `failed_generation` text
 * and, when it holds one parseable call, `failedCall: { name, arguments }`: never run, never a
 * result. Shapes are from public reports (reference in each name); each is tested in an HTTP 400
 * body (`httpProviderError`, `fromResponse`) and in-stream (`event: error` and a `{"error":…}`
 * chunk) under whole, byte-by-byte and random chunkings.
 */
import { from, lastValueFrom } from 'rxjs';
import { decodeSse, type FailedToolCall, fromResponse, openaiChat, readToolCalls, type ToolCallResult, toolCalls, type ToolStreamError } from 'rxjs-tool-calls';
import { httpProviderError } from 'rxjs-tool-calls/advanced';
import { openaiChunk } from 'rxjs-tool-calls/marbles';
import { parseFailedGeneration } from '../../src/providers/failedGeneration';
import { chunkings } from '../helpers/chunking';

const MESSAGE = "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.";

/** Groq's error body for a rejected generation. */
const groqError = (failedGeneration: string, extra: Record<string, unknown> = {}): { error: Record<string, unknown> } => ({
  error: { message: MESSAGE, type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: failedGeneration, ...extra },
});

const CASES: ReadonlyArray<readonly [string, string, FailedToolCall | undefined]> = [
  ['<function=name>{json}</function> (issue brief; langchain-ai/langchain#31440)', '<function=get_weather>{"city": "Paris"}</function>', { name: 'get_weather', arguments: { city: 'Paris' } }],
  ['<function=name>{json}</function> (langchain-ai/langchain#31440: brave_search)', '<function=brave_search>{"query": "Hello!"}</function>', { name: 'brave_search', arguments: { query: 'Hello!' } }],
  ['<function=name={json}</function> (tashfeenahmed/freellmapi#291)', '<function=read={"file_path": "sample.txt"}</function>', { name: 'read', arguments: { file_path: 'sample.txt' } }],
  ['<function=name{json}</function> (issue brief)', '<function=get_weather{"city": "Paris"}</function>', { name: 'get_weather', arguments: { city: 'Paris' } }],
  [
    'name{json}</function>, the opening tag missing (huggingface/smolagents#1119)',
    'web_search{"query": "SPFMV and SPCSV in the Pearl Of Africa 2016", "filter_year": 2016}</function>',
    { name: 'web_search', arguments: { query: 'SPFMV and SPCSV in the Pearl Of Africa 2016', filter_year: 2016 } },
  ],
  [
    '<tool-use>{"tool_calls":[{function:{name}, parameters}]}</tool-use> (groq/groq-typescript#103)',
    '<tool-use>\n{\n  "tool_calls": [\n    {\n      "id": "pending",\n      "type": "function",\n      "function": {\n        "name": "get_info"\n      },\n      "parameters": {\n        "query": "current president of the US"\n      }\n    }\n  ]\n}\n</tool-use>',
    { name: 'get_info', arguments: { query: 'current president of the US' } },
  ],
  ['bare JSON {"name","arguments"} (issue brief)', '{"name": "get_weather", "arguments": {"city": "Paris"}}', { name: 'get_weather', arguments: { city: 'Paris' } }],
  ['bare JSON [{"name","parameters"}] (issue brief)', '[{"name": "get_weather", "parameters": {"city": "Paris"}}]', { name: 'get_weather', arguments: { city: 'Paris' } }],
  ['JSON in a code fence, arguments as a JSON string', '```json\n{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}\n```', { name: 'get_weather', arguments: { city: 'Paris' } }],
  ['text before the tag', 'Let me check the weather.\n<function=get_weather>{"city": "Zürich 🏔"}</function>', { name: 'get_weather', arguments: { city: 'Zürich 🏔' } }],
  // No call that parses: the text is kept, failedCall is undefined.
  ['empty (lucagrippa/obsidian-ai-tagger#34)', '', undefined],
  ['a message, not a call (anomalyco/opencode#1018)', 'Tool use failed: JSON does not match the expected schema for tool calls', undefined],
  ['<function=name({json}"</function>, unparseable (blogminhquy/javis-os#63)', '<function=javis_search_tools({"query": "nao dang duoc dung"}"</function>', undefined],
  ['two tags: more than one call', '<function=get_weather>{"city": "Paris"}</function><function=get_time>{"tz": "CET"}</function>', undefined],
  ['a JSON array of two calls', '[{"name": "a", "parameters": {}}, {"name": "b", "parameters": {}}]', undefined],
  ['arguments that are not an object', '<function=get_weather>["Paris"]</function>', undefined],
  ['arguments as a string that is not JSON', '{"name": "get_weather", "arguments": "Paris"}', undefined],
  ['no arguments at all', '{"name": "get_weather"}', undefined],
  ['an empty name', '{"name": "", "arguments": {}}', undefined],
  ['arguments cut mid-JSON', '<function=get_weather>{"city": "Pa</function>', undefined],
];

describe('parseFailedGeneration(text)', () => {
  it.each(CASES)('%s', (_, text, expected) => {
    expect(parseFailedGeneration(text)).toEqual(expected);
  });
});

function expectFailed(error: unknown, text: string, call: FailedToolCall | undefined): void {
  expect(error).toMatchObject({ name: 'ToolStreamError', code: 'provider-error' });
  const providerError = error as ToolStreamError<'provider-error'>;
  expect(providerError).toMatchObject({ code: 'provider-error', providerCode: 'tool_use_failed', type: 'invalid_request_error', status: 400, retryable: false, failedGeneration: text });
  expect(providerError.failedCall).toEqual(call);
  expect(providerError.message).toContain(MESSAGE);
}

describe('in an HTTP 400 body', () => {
  it.each(CASES)('httpProviderError: %s', (_, text, call) => {
    expectFailed(httpProviderError(400, JSON.stringify(groqError(text)), 'Bad Request', 'groq'), text, call);
  });

  it('fromResponse on a 400 response (groq/groq-typescript#28 shape: error nested under "error")', async () => {
    const text = '<function=get_weather>{"city": "Paris"}</function>';
    const response = new Response(JSON.stringify(groqError(text)), { status: 400, statusText: 'Bad Request' });
    const error = await lastValueFrom(fromResponse(response, { provider: 'groq' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expectFailed(error, text, { name: 'get_weather', arguments: { city: 'Paris' } });
    expect((error as ToolStreamError<'provider-error'>).provider).toBe('groq');
  });

  it('a provider error without failed_generation has neither field', () => {
    const error = httpProviderError(429, '{"error":{"message":"Rate limit","type":"tokens","code":"rate_limit_exceeded"}}');
    expect(error.failedGeneration).toBeUndefined();
    expect(error.failedCall).toBeUndefined();
  });

  it('toJSON carries both fields', () => {
    const json = httpProviderError(400, groqError('<function=get_weather>{"city": "Paris"}</function>')).toJSON();
    expect(json).toMatchObject({ failedGeneration: '<function=get_weather>{"city": "Paris"}</function>', failedCall: { name: 'get_weather', arguments: { city: 'Paris' } } });
  });
});

/** The streams Groq sends: some text, then the error (as `event: error` with `status_code`, or a `{"error":…}` chunk). */
function streams(text: string): Array<[string, string]> {
  const before = openaiChunk({ role: 'assistant', content: 'Checking.' });
  return [
    ['event: error (anomalyco/opencode#1018 shape)', `${before}event: error\ndata: ${JSON.stringify(groqError(text, { status_code: 400 }))}\n\n`],
    ['a {"error":…} chunk', `${before}data: ${JSON.stringify(groqError(text, { status_code: 400 }))}\n\n`],
  ];
}

function outcome(chunks: Uint8Array[], read: 'readToolCalls' | 'operators'): Promise<{ results: ToolCallResult[]; error: unknown }> {
  const results$ = read === 'readToolCalls' ? from(chunks).pipe(readToolCalls()) : from(chunks).pipe(decodeSse(), openaiChat(), toolCalls());
  return new Promise((resolve) => {
    const results: ToolCallResult[] = [];
    results$.subscribe({
      next: (result) => results.push(result),
      error: (error: unknown) => resolve({ results, error }),
      complete: () => resolve({ results, error: undefined }),
    });
  });
}

describe('in the stream', () => {
  const shapes = CASES.filter(([, text]) => text !== '');
  describe.each(shapes)('%s', (_, text, call) => {
    it.each(streams(text))('%s, every chunking, readToolCalls() and the operators: no result, the error with failedCall', async (__, wire) => {
      for (const [chunking, chunks] of chunkings(new TextEncoder().encode(wire))) {
        for (const read of ['readToolCalls', 'operators'] as const) {
          const { results, error } = await outcome(chunks, read);
          expect({ chunking, read, results }).toEqual({ chunking, read, results: [] });
          expectFailed(error, text, call);
        }
      }
    });
  });

  it('a failed generation after a complete call: that call is emitted as it was; the failed one never is', async () => {
    const text = '<function=get_time>{"tz": "CET"}</function>';
    const wire = [
      openaiChunk({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }),
      openaiChunk({ finishReason: 'tool_calls' }),
      `data: ${JSON.stringify(groqError(text, { status_code: 400 }))}\n\n`,
    ].join('');
    const { results, error } = await outcome([new TextEncoder().encode(wire)], 'readToolCalls');
    expect(results.map((r) => (r.success ? r.data.name : r.error.code))).toEqual(['get_weather']);
    expectFailed(error, text, { name: 'get_time', arguments: { tz: 'CET' } });
  });
});
