/** The standard operator cases (empty, never, error, unsubscribe, synchronous source cut by take) for every operator over StreamEvents. */
import { mergeMap } from 'rxjs';
import { accumulateToolCalls, groupToolCalls, partialToolCalls, type StreamEvent, toolCalls } from 'rxjs-tool-calls';
import { toolCallUpdates } from '../helpers/updates';
import { standardCases } from '../helpers/standardCases';

const sample: [StreamEvent, ...StreamEvent[]] = [
  { type: 'tool-call-delta', choice: 0, index: 0, id: 'a', name: 'f', argumentsDelta: '{"x":' },
  { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '1}' },
  { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
];

describe('toolCalls()', () => standardCases(() => toolCalls(), sample));
describe('toolCallUpdates()', () => standardCases(() => toolCallUpdates(), sample));
describe('groupToolCalls()', () =>
  standardCases(
    () => (source) =>
      source.pipe(
        groupToolCalls(),
        mergeMap((g) => g),
      ),
    sample,
  ));
describe('accumulateToolCalls()', () => standardCases(() => accumulateToolCalls(), sample));
describe('partialToolCalls()', () => standardCases(() => partialToolCalls(), sample));
