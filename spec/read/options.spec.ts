/**
 * The main entry's operators check their options when they are made: a key they do not take is an
 * `invalid-option` error naming it, the keys they take and the closest one (a typo such as `tool`
 * for `tools` would otherwise turn validation off without a word); a value they cannot use is an
 * `invalid-option` error saying what it must be.
 */
import { NEVER } from 'rxjs';
import { z } from 'zod';
import {
  accumulateToolCalls,
  chatState,
  decodeAwsEventStream,
  decodeJsonArray,
  decodeNdjson,
  decodeSse,
  groupToolCalls,
  idleTimeout,
  openaiChat,
  partialObject,
  partialToolCalls,
  readStreamEvents,
  readToolCalls,
  retryStream,
  toolCalls,
  ToolStreamError,
} from 'rxjs-tool-calls';

type Make = (options: never) => unknown;

/** Each operator with an options object, and a key each really takes. */
const OPERATORS: ReadonlyArray<readonly [string, Make, string]> = [
  ['readToolCalls', readToolCalls as Make, 'tools'],
  ['readStreamEvents', readStreamEvents as Make, 'provider'],
  ['toolCalls', toolCalls as Make, 'tools'],
  ['groupToolCalls', groupToolCalls as Make, 'maxToolCalls'],
  ['accumulateToolCalls', accumulateToolCalls as Make, 'repairArguments'],
  ['partialToolCalls', partialToolCalls as Make, 'snapshots'],
  ['partialObject', partialObject as Make, 'schema'],
  ['chatState', chatState as Make, 'choice'],
  ['decodeSse', decodeSse as Make, 'maxEventSize'],
  ['decodeAwsEventStream', decodeAwsEventStream as Make, 'maxFrameSize'],
  ['decodeNdjson', decodeNdjson as Make, 'maxLineSize'],
  ['decodeJsonArray', decodeJsonArray as Make, 'maxElementSize'],
  ['retryStream', ((options: never) => retryStream(() => NEVER, options)) as Make, 'maxAttempts'],
];

function thrown(make: () => unknown): ToolStreamError<'invalid-option'> {
  try {
    make();
  } catch (error) {
    if (error instanceof ToolStreamError && error.code === 'invalid-option') return error as ToolStreamError<'invalid-option'>;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe.each(OPERATORS)('%s()', (name, make, known) => {
  it('refuses a key it does not take, when it is made, naming the keys it takes and the closest one', () => {
    const typo = known.slice(0, -1); // `tool` for `tools`, `provide` for `provider`, …
    const error = thrown(() => make({ [typo]: 1 } as never));
    expect({ function: error.function, option: error.option }).toEqual({ function: name, option: `options.${typo}` });
    expect(error.expected).toContain(`did you mean '${known}'?`);
    expect(error.message).toContain(`options.${typo}`);
  });

  it('takes its own keys, and undefined for any of them', () => {
    expect(() => make({ [known]: undefined } as never)).not.toThrow();
  });
});

describe('values the operators cannot use', () => {
  it.each([
    ['maxToolCalls: -1', () => toolCalls({ maxToolCalls: -1 }), 'options.maxToolCalls'],
    ['maxToolCalls: 1.5', () => readToolCalls({ maxToolCalls: 1.5 }), 'options.maxToolCalls'],
    ['maxArgumentsSize: NaN', () => partialToolCalls({ maxArgumentsSize: Number.NaN }), 'options.maxArgumentsSize'],
    ['idleTimeoutMs: -5', () => readToolCalls({ idleTimeoutMs: -5 }), 'options.idleTimeoutMs'],
    ["provider: 'openai'", () => readToolCalls({ provider: 'openai' as never }), 'options.provider'],
    ['generateId: a string', () => groupToolCalls({ generateId: 'x' as never }), 'options.generateId'],
    ["snapshots: 'frozen'", () => partialToolCalls({ snapshots: 'frozen' as never }), 'options.snapshots'],
    ['choice: -1', () => chatState({ choice: -1 }), 'options.choice'],
    ['sequentialCalls: "yes"', () => accumulateToolCalls({ sequentialCalls: 'yes' as never }), 'options.sequentialCalls'],
    ['schema: not a schema', () => partialObject({ schema: {} as never }), 'options.schema'],
    ['maxEventSize: 0', () => decodeSse({ maxEventSize: 0 }), 'options.maxEventSize'],
    ['maxAttempts: 0', () => retryStream(() => NEVER, { maxAttempts: 0 }), 'options.maxAttempts'],
    ['idleTimeout(0)', () => idleTimeout(0), 'ms'],
  ])('%s', (_what, make, option) => {
    expect(thrown(make).option).toBe(option);
  });

  it('lists the provider names a reader takes', () => {
    const error = thrown(() => readStreamEvents({ provider: 'openai' as never }));
    for (const name of ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'cohere', 'bedrock-converse', 'bedrock-invoke-model', 'ollama']) expect(error.expected).toContain(`'${name}'`);
  });

  it('takes what they take: a format value, typed tools, Infinity for the limits', () => {
    expect(() => readToolCalls({ provider: openaiChat, tools: { f: z.object({}) }, maxToolCalls: Infinity, maxArgumentsSize: Infinity, idleTimeoutMs: 1000 })).not.toThrow();
    expect(() => chatState({ choice: 1, allowPartialLiterals: true, sequentialCalls: true })).not.toThrow();
  });

  it('an options argument that is not an object is refused', () => {
    expect(thrown(() => toolCalls('tools' as never)).option).toBe('options');
  });
});
