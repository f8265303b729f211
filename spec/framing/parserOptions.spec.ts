/**
 * The parsers of `rxjs-tool-calls/advanced` check their options when they are made, as the operators
 * built on them do: a key a parser does not take is an `invalid-option` error naming it and the
 * closest key; a size below 1 (or a depth below 0) says what it must be.
 */
import { EventStreamParser, JsonArrayParser, NdjsonParser, PartialJsonParser, SseParser } from 'rxjs-tool-calls/advanced';
import { describeOptionChecks, invalidOption } from '../helpers/optionChecks';

describeOptionChecks([
  ['SseParser', (o) => new SseParser(o), 'maxEventSize', 64],
  ['EventStreamParser', (o) => new EventStreamParser(o), 'maxFrameSize', 64],
  ['NdjsonParser', (o) => new NdjsonParser(o), 'maxLineSize', 64],
  ['JsonArrayParser', (o) => new JsonArrayParser(o), 'sequence', true],
  ['PartialJsonParser', (o) => new PartialJsonParser(o), 'snapshots', 'live'],
]);

describe('values the parsers cannot use', () => {
  it.each([
    ['maxEventSize: 0', () => new SseParser({ maxEventSize: 0 }), 'options.maxEventSize'],
    ['maxFrameSize: 1.5', () => new EventStreamParser({ maxFrameSize: 1.5 }), 'options.maxFrameSize'],
    ['maxLineSize: -1', () => new NdjsonParser({ maxLineSize: -1 }), 'options.maxLineSize'],
    ['sequence: 1', () => new JsonArrayParser({ sequence: 1 as never }), 'options.sequence'],
    ['maxPartialDepth: -1', () => new PartialJsonParser({ maxPartialDepth: -1 }), 'options.maxPartialDepth'],
    ["snapshots: 'frozen'", () => new PartialJsonParser({ snapshots: 'frozen' as never }), 'options.snapshots'],
  ])('%s', (_what, make, option) => {
    expect(invalidOption(make).option).toBe(option);
  });

  it('take what they take: maxPartialDepth 0 and Infinity, sizes of Infinity', () => {
    expect(() => new PartialJsonParser({ maxPartialDepth: 0, allowPartialLiterals: true })).not.toThrow();
    expect(() => new PartialJsonParser({ maxPartialDepth: Infinity })).not.toThrow();
    expect(() => new SseParser({ maxEventSize: Infinity })).not.toThrow();
  });
});
