/**
 * The marble helpers refuse keys they do not take (a misspelt `finishReason` would write a chunk
 * that is still streaming, and the test would check the wrong thing), in their options and in the
 * tool calls they are given, with an `invalid-option` error naming the closest key.
 */
import { geminiChunk, openaiChunk, openaiChunkObject, sseEvent, wireChunks } from 'rxjs-tool-calls/marbles';
import { describeOptionChecks, invalidOption } from '../helpers/optionChecks';

describeOptionChecks([
  ['openaiChunk', (o) => openaiChunk(o), 'finishReason', 'stop'],
  ['openaiChunkObject', (o) => openaiChunkObject(o), 'toolCalls', []],
  ['geminiChunk', (o) => geminiChunk(o), 'functionCalls', []],
  ['wireChunks', (o) => wireChunks('-a|', { a: 'x' }, o), 'as', 'text', { typo: 'As' }],
  ['sseEvent', (f) => sseEvent({ data: 'x', ...f }), 'event', 'ping', { path: 'fields' }],
]);

describe('values and nested keys the marble helpers cannot use', () => {
  it.each([
    ['a misspelt tool-call key', () => openaiChunk({ toolCalls: [{ id: 'c', argument: '{}' } as never] }), 'options.toolCalls[0].argument'],
    ['a misspelt Gemini call key', () => geminiChunk({ functionCalls: [{ name: 'f', arg: {} } as never] }), 'options.functionCalls[0].arg'],
    ['choice: -1', () => openaiChunk({ choice: -1 }), 'options.choice'],
    ['finishReason: 1', () => openaiChunk({ finishReason: 1 as never }), 'options.finishReason'],
    ['index: a string', () => geminiChunk({ index: '0' as never }), 'options.index'],
    ['as: string', () => wireChunks('-a|', { a: 'x' }, { as: 'string' as never }), 'options.as'],
    ['data: 1', () => sseEvent({ data: 1 as never }), 'fields.data'],
    ['no data', () => sseEvent({} as never), 'fields.data'],
  ])('%s', (_what, make, option) => {
    expect(invalidOption(make).option).toBe(option);
  });

  it('the closest key of a tool call', () => {
    expect(invalidOption(() => openaiChunk({ toolCalls: [{ argument: '{}' } as never] })).expected).toContain("did you mean 'arguments'?");
  });

  it('finishReason: null is a chunk still streaming, as before', () => {
    expect(openaiChunkObject({ content: 'a', finishReason: null })).toMatchObject({ choices: [{ finish_reason: null }] });
  });
});
