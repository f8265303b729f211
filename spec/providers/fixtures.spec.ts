/**
 * Every shared conformance fixture of the Responses, Anthropic, Gemini and Cohere formats, split by a
 * test-only SSE helper, run through its adapter and checked against its `.expected.json`.
 */
import type { OperatorFunction } from 'rxjs';
import type { SseEvent, StreamEvent } from '../../src/events';
import { anthropicMessages } from '../../src/providers/anthropicMessages';
import { cohereChat } from '../../src/providers/cohereChat';
import { gemini } from '../../src/providers/gemini';
import { openaiResponses } from '../../src/providers/openaiResponses';
import { checkFixture } from '../helpers/conformance';
import { fixtureNames } from '../helpers/fixtures';

const suites: Array<[string, () => OperatorFunction<SseEvent, StreamEvent>, string[]]> = [
  ['openaiResponses()', openaiResponses, [...fixtureNames(['openai', 'azure'], (f) => f.startsWith('responses-')), ...fixtureNames(['bedrock', 'lmstudio'])]],
  ['anthropicMessages()', anthropicMessages, fixtureNames(['anthropic'])],
  ['gemini()', gemini, fixtureNames(['google'])],
  ['cohereChat()', cohereChat, fixtureNames(['cohere'])],
];

describe.each(suites)('%s on the shared fixtures', (_name, adapter, stems) => {
  it('has fixtures to check', () => {
    expect(stems.length).toBeGreaterThan(0);
  });
  it.each(stems)('%s', (stem) => {
    checkFixture(stem, adapter);
  });
});
