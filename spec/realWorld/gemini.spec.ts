/**
 * Gemini `streamGenerateContent?alt=sse` and Vertex streamed arguments (`partialArgs`), including
 * gateways that split one call over several `functionCall` parts. Each case is our own small stream
 * shaped like the one in the named public report; see `helpers.ts` for how it runs.
 */
import { geminiChunk } from 'rxjs-tool-calls/marbles';
import { failed, gemini, ok, outcome, runWire } from './helpers';

const usage = { usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 } };
/** A Vertex streamed-arguments part: `partialArgs` entries, with the call-level `willContinue` unless `last`. */
const partial = (entries: unknown[], last = false): unknown => ({ functionCall: { partialArgs: entries, ...(last ? {} : { willContinue: true }) } });

describe('real-world Gemini streams that already read right', () => {
  it('agentjido/req_llm#638: the last chunk is a candidate with finishReason and no content at all', () => {
    const run = runWire(geminiChunk({ text: 'Hello' }), geminiChunk({ text: ' there' }), gemini([], { finishReason: 'STOP', content: undefined }, usage));
    expect(run).toEqual(outcome([], 'stop/STOP', 'completed', 'Hello there'));
  });
});

describe('real-world Gemini streams: STOP with function calls', () => {
  it('envoyproxy/ai-gateway#2399: gemini-3.5 sends the functionCall, then a trailing chunk with text "" and finishReason STOP', () => {
    const run = runWire(
      gemini([{ functionCall: { name: 'get_current_weather', args: { location: 'Paris' } }, thoughtSignature: 'c2ln' }], {}, { usageMetadata: { trafficType: 'ON_DEMAND' } }),
      gemini([{ text: '' }], { finishReason: 'STOP' }, usage),
    );
    expect(run).toEqual(outcome([ok('gen_0', 'get_current_weather', { location: 'Paris' })], 'tool-calls/STOP'));
  });

  it('BerriAI/litellm#21577: two parallel calls, then a STOP chunk without content', () => {
    const run = runWire(
      geminiChunk({
        functionCalls: [
          { name: 'get_weather', args: { city: 'Paris' } },
          { name: 'get_weather', args: { city: 'London' } },
        ],
      }),
      gemini([], { finishReason: 'STOP', content: undefined }, usage),
    );
    expect(run).toEqual(outcome([ok('gen_0', 'get_weather', { city: 'Paris' }), ok('gen_1', 'get_weather', { city: 'London' })], 'tool-calls/STOP'));
  });

  it('JetBrains/koog#2146: a functionCall without args (a no-parameter tool) in the STOP chunk: success with {}', () => {
    const run = runWire(gemini([{ functionCall: { name: 'get_current_time' } }], { finishReason: 'STOP' }, usage));
    expect(run).toEqual(outcome([ok('gen_0', 'get_current_time', {})], 'tool-calls/STOP'));
  });
});

describe('real-world Gemini streams: calls split over parts, calls without a name (rules `nameless-continues` and `name-required`)', () => {
  it('smallmain/vscode-unify-chat-provider#48: a named functionCall with empty args, then a nameless one carrying the args: one call', () => {
    const run = runWire(
      gemini([{ functionCall: { name: 'mcp_list_dir', args: {} } }]),
      gemini([{ functionCall: { args: { path: '/some/path' } } }]),
      gemini([{ text: '' }], { finishReason: 'STOP' }, usage),
    );
    expect(run).toEqual(outcome([ok('gen_0', 'mcp_list_dir', { path: '/some/path' })], 'tool-calls/STOP'));
  });

  it('SystemSculpt/obsidian-systemsculpt-ai#242: a functionCall whose name is "": missing-name, never a success', () => {
    const run = runWire(gemini([{ functionCall: { name: '', args: { q: 'notes' } } }], { finishReason: 'STOP' }, usage));
    expect(run).toEqual(outcome([failed('missing-name', 'gen_0', '', '{"q":"notes"}')], 'tool-calls/STOP'));
  });
});

describe('real-world Gemini streams: error and safety finishes (rule `cut-finish`)', () => {
  it('BerriAI/litellm#21744: thinking, then finishReason MALFORMED_FUNCTION_CALL with no content: an error finish, no call', () => {
    const run = runWire(geminiChunk({ thought: 'I will call the tool.' }), gemini([], { finishReason: 'MALFORMED_FUNCTION_CALL', content: undefined }, usage));
    expect(run).toEqual(outcome([], 'error/MALFORMED_FUNCTION_CALL'));
  });

  it('NousResearch/hermes-agent#43478: a Vertex streamed call cut by SAFETY stays a safety stop (not tool-calls) and the call is incomplete', () => {
    const run = runWire(
      gemini([{ functionCall: { name: 'web_search', willContinue: true } }]),
      gemini([partial([{ jsonPath: '$.query', stringValue: 'how to', willContinue: true }])]),
      gemini([], { finishReason: 'SAFETY', content: undefined }, usage),
    );
    expect(run).toEqual(outcome([failed('incomplete', 'gen_0', 'web_search', '{"query":"how to"}', 'content-filter')], 'content-filter/SAFETY'));
  });
});

describe('real-world Vertex streamed arguments', () => {
  it('vercel/ai#14358: array arguments whose last partialArgs chunk has no willContinue and no functionCall terminator follows', () => {
    const run = runWire(
      gemini([{ functionCall: { name: 'writeItems', willContinue: true }, thoughtSignature: 'c2ln' }]),
      gemini([partial([{ jsonPath: '$.operations[0].itemid', stringValue: 'apple', willContinue: true }])]),
      gemini([partial([{ jsonPath: '$.operations[0].itemid', stringValue: '_001' }])]),
      gemini([partial([{ jsonPath: '$.operations[0].price', numberValue: 0.5 }])]),
      gemini([partial([{ jsonPath: '$.operations[1].itemid', stringValue: 'banana_001' }])]),
      gemini([partial([{ jsonPath: '$.operations[1].price', numberValue: 0.3 }], true)]),
      gemini([{ text: '' }], { finishReason: 'STOP' }, usage),
    );
    const operations = [
      { itemid: 'apple_001', price: 0.5 },
      { itemid: 'banana_001', price: 0.3 },
    ];
    expect(run).toEqual(outcome([ok('gen_0', 'writeItems', { operations })], 'tool-calls/STOP'));
  });

  it('open-telemetry/opentelemetry-ebpf-instrumentation#2530: a string value, then the empty terminator at the same path, keeps the value', () => {
    const run = runWire(
      gemini([{ functionCall: { name: 'get_capital', willContinue: true } }]),
      gemini([partial([{ jsonPath: '$.country', stringValue: 'USA', willContinue: true }])]),
      gemini([partial([{ jsonPath: '$.country', stringValue: '' }])]),
      gemini([{ functionCall: {} }]),
      gemini([{ text: '' }], { finishReason: 'STOP' }, usage),
    );
    expect(run).toEqual(outcome([ok('gen_0', 'get_capital', { country: 'USA' })], 'tool-calls/STOP'));
  });

  it('mpfaffenberger/code_puppy#293: partialArgs entries with no value and no willContinue create the empty container they name (rule `vertex-partial-args`)', () => {
    const run = runWire(
      gemini([{ functionCall: { name: 'create_task', willContinue: true } }]),
      gemini([partial([{ jsonPath: '$.title', stringValue: 'Ship it' }])]),
      gemini([partial([{ jsonPath: '$.tags[]' }, { jsonPath: '$.options' }])]),
      gemini([partial([{ jsonPath: '$.steps[0].name', stringValue: 'build' }])]),
      gemini([partial([{ jsonPath: '$.steps[0].deps[]' }])]),
      gemini([{ functionCall: {} }]),
      gemini([{ text: '' }], { finishReason: 'STOP' }, usage),
    );
    const args = { title: 'Ship it', tags: [], options: {}, steps: [{ name: 'build', deps: [] }] };
    expect(run).toEqual(outcome([ok('gen_0', 'create_task', args)], 'tool-calls/STOP'));
  });

  it('BerriAI/litellm#23815: a jsonPath that cannot be read ends the stream with invalid-event naming the path (not a silent drop)', () => {
    const run = runWire(gemini([{ functionCall: { name: 'create_task', willContinue: true } }]), gemini([partial([{ jsonPath: '$..title', stringValue: 'x' }])]), gemini([{ functionCall: {} }]));
    expect(run).toEqual(outcome([failed('incomplete', 'gen_0', 'create_task', '{', 'stream-ended')], null, 'invalid-event'));
    expect(run.error).toMatchObject({ code: 'invalid-event', message: expect.stringContaining('$..title') });
  });
});
