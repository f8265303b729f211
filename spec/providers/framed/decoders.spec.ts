/**
 * The wire decoders of the non-SSE formats, rule by rule: Bedrock Converse (events, exceptions, the
 * AWS SDK's payloads, the end of a stream), Bedrock InvokeModel (base64 chunks of the inner
 * format, another inner format), Ollama chat (whole calls, `done`, error lines); and the standard
 * operator cases of each format's operator.
 */
import { from, type OperatorFunction } from 'rxjs';
import { bedrockConverse, bedrockInvokeModel, ollamaChat, ToolStreamError, type FramedRecord, type StreamEvent } from 'rxjs-tool-calls';
import { sse } from '../../helpers/marbles';
import { collect } from '../../helpers/reencode';
import { standardCases } from '../../helpers/standardCases';

const truncated = (provider: string): unknown => expect.objectContaining({ code: 'truncated', provider });

function run(operator: () => OperatorFunction<FramedRecord, StreamEvent>, events: FramedRecord[]): { values: StreamEvent[]; error: unknown; completed: boolean } {
  return collect(from(events).pipe(operator()));
}

const chunk = (payload: unknown): FramedRecord => sse('chunk', { bytes: Buffer.from(JSON.stringify(payload)).toString('base64') });

const CONVERSE: [FramedRecord, ...FramedRecord[]] = [
  sse('messageStart', { role: 'assistant' }),
  sse('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tooluse_1', name: 'f' } } }),
  sse('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":1}' } } }),
  sse('contentBlockStop', { contentBlockIndex: 0 }),
  sse('messageStop', { stopReason: 'tool_use' }),
];

describe('bedrockConverse()', () => {
  standardCases(() => bedrockConverse(), CONVERSE, { emptyError: truncated('bedrock-converse') });

  it('reads every kind of event into the shared vocabulary', () => {
    const { values, error, completed } = run(bedrockConverse, [
      sse('messageStart', { role: 'assistant' }),
      sse('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'think' } } }),
      sse('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig' } } }),
      sse('contentBlockStop', { contentBlockIndex: 0 }),
      sse('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Hi' } }),
      sse('contentBlockDelta', { contentBlockIndex: 1, delta: { citation: { title: 'x' } } }),
      sse('contentBlockStop', { contentBlockIndex: 1 }),
      ...CONVERSE.slice(1),
      sse('metadata', { usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 }, metrics: { latencyMs: 1 } }),
      sse('contentBlockDelta', { contentBlockIndex: 9, delta: { text: 'after the end' } }),
    ]);
    expect(error).toBeUndefined();
    expect(completed).toBe(true);
    expect(values).toEqual([
      { type: 'metadata', provider: 'bedrock-converse' },
      { type: 'reasoning-delta', choice: 0, text: 'think' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'sig' },
      { type: 'reasoning-end', choice: 0, index: 0, text: 'think', signature: 'sig' },
      { type: 'text-delta', choice: 0, text: 'Hi' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'tooluse_1', name: 'f', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', choice: 0, index: 0, id: 'tooluse_1' },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_use' },
      { type: 'usage', inputTokens: 3, outputTokens: 4, totalTokens: 7, raw: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } },
      { type: 'done' },
    ]);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['something_new', 'other'],
  ])('stopReason %s is %s', (raw, reason) => {
    expect(bedrockConverse.finishReason(raw)).toBe(reason);
  });

  it.each([
    ['throttlingException', 429, true],
    ['serviceUnavailableException', 503, true],
    ['internalServerException', 500, true],
    ['modelStreamErrorException', 424, true],
    ['modelTimeoutException', 408, true],
    ['validationException', 400, false],
    ['accessDeniedException', 403, false],
  ])('%s is a provider-error with status %s, retryable %s', (type, status, retryable) => {
    const { values, error } = run(bedrockConverse, [CONVERSE[0], sse(type, { message: `the ${type}` })]);
    expect(values).toEqual([{ type: 'metadata', provider: 'bedrock-converse' }]);
    expect(error).toEqual(new ToolStreamError('provider-error', { provider: 'bedrock-converse', type, message: `the ${type}`, status, retryable, payload: { message: `the ${type}` } }));
  });

  it('an exception not in the table is judged by its name; a plain-text payload is its message', () => {
    const { error } = run(bedrockConverse, [sse('quotaUnavailableException', 'try later')]);
    expect(error).toMatchObject({
      code: 'provider-error',
      type: 'quotaUnavailableException',
      status: undefined,
      retryable: true,
      message: 'bedrock-converse error (quotaUnavailableException): try later',
    });
  });

  it("an unmodeled error frame (decodeAwsEventStream's 'error' record) is a provider-error with its code, retryable as its code says", () => {
    const { error } = run(bedrockConverse, [sse('error', { code: 'InternalFailure', message: 'An internal error occurred.' })]);
    expect(error).toMatchObject({ code: 'provider-error', provider: 'bedrock-converse', providerCode: 'InternalFailure', retryable: true });
    expect((error as Error).message).toBe('bedrock-converse error InternalFailure: An internal error occurred.');
    expect(run(bedrockConverse, [sse('error', { code: 'AccessDenied', message: 'no' })]).error).toMatchObject({ providerCode: 'AccessDenied', retryable: false });
  });

  it('a payload that is not a JSON object is invalid-event', () => {
    const { error } = run(bedrockConverse, [sse('contentBlockDelta', '{"contentBlockIndex":')]);
    expect(error).toMatchObject({ code: 'invalid-event', provider: 'bedrock-converse', data: '{"contentBlockIndex":' });
  });

  it('ends with truncated without messageStop, and completes after it without metadata', () => {
    expect(run(bedrockConverse, CONVERSE.slice(0, 3)).error).toEqual(new ToolStreamError('truncated', { provider: 'bedrock-converse', detail: 'no messageStop arrived (1 toolUse block still open)' }));
    const ended = run(bedrockConverse, CONVERSE);
    expect(ended.error).toBeUndefined();
    expect(ended.values.at(-1)).toEqual({ type: 'done' });
  });

  it('after messageStop, a dropped connection loses nothing: the stream completes', () => {
    const decoder = bedrockConverse.decoder();
    const out: StreamEvent[] = [];
    for (const event of CONVERSE) decoder.sse(event, (e) => out.push(e));
    expect(decoder.interrupt?.(new ToolStreamError('connection-lost', { source: 'fromResponse', byteOffset: 10 }), (e) => out.push(e))).toBe(true);
    expect(out.at(-1)).toEqual({ type: 'done' });
    const early = bedrockConverse.decoder();
    early.sse(CONVERSE[0], () => undefined);
    expect(early.interrupt?.(new ToolStreamError('connection-lost', { source: 'fromResponse', byteOffset: 10 }), () => undefined)).toBe(false);
  });

  it("reads the AWS SDK's events (payload objects, redactedContent as bytes)", () => {
    const decoder = bedrockConverse.decoder();
    const out: StreamEvent[] = [];
    const emit = (e: StreamEvent): void => void out.push(e);
    decoder.payload('messageStart', { role: 'assistant' }, emit);
    decoder.payload('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: new Uint8Array([1, 2, 250]) } } }, emit);
    decoder.payload('contentBlockStop', { contentBlockIndex: 0 }, emit);
    expect(out).toEqual([
      { type: 'metadata', provider: 'bedrock-converse' },
      { type: 'reasoning-end', choice: 0, index: 0, text: '', redacted: 'AQL6' },
    ]);
    expect(() => decoder.payload('throttlingException', { message: 'slow down' }, emit)).toThrow('bedrock-converse error (throttlingException): slow down');
  });
});

const INVOKE: [FramedRecord, ...FramedRecord[]] = [
  chunk({ type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 1, output_tokens: 1 } } }),
  chunk({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }),
  chunk({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } }),
  chunk({ type: 'content_block_stop', index: 0 }),
  chunk({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } }),
  chunk({ type: 'message_stop' }),
];

describe('bedrockInvokeModel()', () => {
  standardCases(() => bedrockInvokeModel(), INVOKE, { emptyError: truncated('anthropic') });

  it('reads each chunk as the Anthropic event its bytes hold; metadata names bedrock-invoke-model', () => {
    const { values, error } = run(bedrockInvokeModel, INVOKE);
    expect(error).toBeUndefined();
    expect(values[0]).toEqual({ type: 'metadata', provider: 'bedrock-invoke-model', responseId: 'msg_1', model: 'claude' });
    expect(values.filter((e) => e.type === 'tool-call-delta' || e.type === 'finish' || e.type === 'done').map((e) => e.type)).toEqual(['tool-call-delta', 'tool-call-delta', 'finish', 'done']);
  });

  it('a chunk without base64 bytes is invalid-event; an exception is a provider-error', () => {
    expect(run(bedrockInvokeModel, [sse('chunk', { bytes: '%%%' })]).error).toMatchObject({
      code: 'invalid-event',
      provider: 'bedrock-invoke-model',
      detail: 'a chunk must carry its event as base64 "bytes"',
    });
    expect(run(bedrockInvokeModel, [sse('chunk', { other: 1 })]).error).toMatchObject({ code: 'invalid-event' });
    expect(run(bedrockInvokeModel, [INVOKE[0], sse('modelTimeoutException', { message: 'timed out' })]).error).toMatchObject({
      code: 'provider-error',
      provider: 'bedrock-invoke-model',
      status: 408,
      retryable: true,
    });
  });

  it('the inner stream cut before message_stop is truncated (named anthropic)', () => {
    expect(run(bedrockInvokeModel, INVOKE.slice(0, 3)).error).toMatchObject({ code: 'truncated', provider: 'anthropic' });
  });

  it('another inner format, recognised at the first chunk: OpenAI chat chunks (the OpenAI models Bedrock hosts)', () => {
    const format = bedrockInvokeModel;
    const { values, error } = run(format, [
      chunk({ id: 'chatcmpl-1', model: 'openai.gpt-oss-120b', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{"a":' } }] } }] }),
      chunk({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '1}' } }] }, finish_reason: 'tool_calls' }] }),
    ]);
    expect(error).toBeUndefined();
    expect(values[0]).toEqual({ type: 'metadata', provider: 'bedrock-invoke-model', responseId: 'chatcmpl-1', model: 'openai.gpt-oss-120b' });
    expect(values.filter((e) => e.type === 'tool-call-delta').map((e) => (e.type === 'tool-call-delta' ? e.argumentsDelta : ''))).toEqual(['{"a":', '1}']);
    expect(format.format).toBe('bedrock-invoke-model');
  });

  it("reads the AWS SDK's chunks (bytes as a Uint8Array)", () => {
    const decoder = bedrockInvokeModel.decoder();
    const out: StreamEvent[] = [];
    decoder.payload('chunk', { bytes: new TextEncoder().encode(JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hi' } })) }, (e) => out.push(e));
    expect(out).toEqual([{ type: 'text-delta', choice: 0, text: 'Hi' }]);
  });
});

const OLLAMA: [FramedRecord, ...FramedRecord[]] = [
  sse('message', { model: 'm', created_at: 't', message: { role: 'assistant', content: 'Hi' }, done: false }),
  sse('message', { model: 'm', created_at: 't', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] }, done: false }),
  sse('message', { model: 'm', created_at: 't', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 2, eval_count: 3 }),
];

describe('ollamaChat()', () => {
  standardCases(() => ollamaChat(), OLLAMA, { emptyError: truncated('ollama') });

  it('reads text, thinking, whole calls (ids, string arguments, no arguments), done and usage', () => {
    const { values, error } = run(ollamaChat, [
      sse('message', { model: 'qwen3', message: { role: 'assistant', content: '', thinking: 'hmm' }, done: false }),
      sse('message', {
        model: 'qwen3',
        message: {
          role: 'assistant',
          content: 'ok',
          tool_calls: [{ id: 'call_x', function: { index: 0, name: 'a', arguments: { q: 'é' } } }, { function: { name: 'b', arguments: '{"raw":true}' } }, { function: { name: 'c' } }],
        },
        done: false,
      }),
      sse('message', { model: 'qwen3', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 10, eval_count: 20 }),
      sse('message', { model: 'qwen3', message: { role: 'assistant', content: 'ignored' }, done: false }),
    ]);
    expect(error).toBeUndefined();
    expect(values).toEqual([
      { type: 'metadata', provider: 'ollama', model: 'qwen3' },
      { type: 'reasoning-delta', choice: 0, text: 'hmm' },
      { type: 'text-delta', choice: 0, text: 'ok' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_x', name: 'a', argumentsDelta: '{"q":"é"}', replace: true },
      { type: 'tool-call-end', choice: 0, index: 0, id: 'call_x' },
      { type: 'tool-call-delta', choice: 0, index: 1, name: 'b', argumentsDelta: '{"raw":true}', replace: true },
      { type: 'tool-call-end', choice: 0, index: 1 },
      { type: 'tool-call-delta', choice: 0, index: 2, name: 'c', argumentsDelta: '{}', replace: true },
      { type: 'tool-call-end', choice: 0, index: 2 },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'stop' },
      expect.objectContaining({ type: 'usage', inputTokens: 10, outputTokens: 20, totalTokens: 30 }),
      { type: 'done' },
    ]);
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['load', 'other'],
    ['', 'stop'],
  ])('done_reason %j finishes as %s', (raw, reason) => {
    const { values } = run(ollamaChat, [sse('message', { model: 'm', message: { role: 'assistant', content: 'x' }, done: true, ...(raw === '' ? {} : { done_reason: raw }) })]);
    expect(values.find((e) => e.type === 'finish')).toEqual({ type: 'finish', choice: 0, reason, rawReason: raw });
  });

  it('an error line is a provider-error (retryable when its text says so); a line that is not an object is invalid-event', () => {
    expect(run(ollamaChat, [OLLAMA[0], sse('message', { error: 'model "x" not found, try pulling it first' })]).error).toEqual(
      new ToolStreamError('provider-error', {
        provider: 'ollama',
        message: 'model "x" not found, try pulling it first',
        retryable: false,
        payload: { error: 'model "x" not found, try pulling it first' },
      }),
    );
    expect(run(ollamaChat, [sse('message', { error: 'server busy: temporarily unavailable' })]).error).toMatchObject({ retryable: true });
    expect(run(ollamaChat, [sse('message', { error: { message: 'nested', code: 503 } })]).error).toMatchObject({ code: 'provider-error', message: 'ollama error 503: nested', retryable: true });
    expect(run(ollamaChat, [sse('message', '[1,2]')]).error).toMatchObject({ code: 'invalid-event', provider: 'ollama' });
  });

  it('ends with truncated before done, and an idle timeout after done loses nothing', () => {
    expect(run(ollamaChat, OLLAMA.slice(0, 2)).error).toEqual(new ToolStreamError('truncated', { provider: 'ollama', detail: 'no line with "done": true arrived' }));
    const decoder = ollamaChat.decoder();
    for (const event of OLLAMA) decoder.sse(event, () => undefined);
    expect(decoder.interrupt?.(new ToolStreamError('idle-timeout', { timeoutMs: 5 }), () => undefined)).toBe(true);
  });
});
