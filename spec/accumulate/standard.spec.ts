/** The standard operator cases (empty, never, error, unsubscribe, synchronous source cut by take) for every operator over StreamEvents. */
import { mergeMap } from 'rxjs';
import { accumulateToolCalls } from '../../src/parse/accumulateToolCalls';
import { groupToolCalls, toolCallUpdates, toolCalls } from '../../src/parse/toolCalls';
import type { StreamEvent } from '../../src/events';
import { partialToolCalls } from '../../src/parse/partialToolCalls';
import { standardCases } from '../helpers/standardCases';

const sample: [StreamEvent, ...StreamEvent[]] = [
  { type: 'tool-call-delta', choice: 0, index: 0, id: 'a', name: 'f', argumentsDelta: '{"x":' },
  { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '1}' },
  { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
];

describe('toolCalls()', () => standardCases(() => toolCalls(), sample));
describe('toolCallUpdates()', () => standardCases(() => toolCallUpdates(), sample));
describe('groupToolCalls()', () => standardCases(() => (source) => source.pipe(groupToolCalls(), mergeMap((g) => g)), sample));
describe('accumulateToolCalls()', () => standardCases(() => accumulateToolCalls(), sample));
describe('partialToolCalls()', () => standardCases(() => partialToolCalls(), sample));
