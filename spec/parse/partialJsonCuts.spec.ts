/**
 * Numbers and escapes cut anywhere: every two-piece cut of each text gives exactly what feeding it
 * one character at a time gives (values seen, final value, error and its position), and the final
 * value is `JSON.parse`'s. (Written by a helper for a fast-path branch that was not kept; the cuts
 * are the same risk for the parser as it is.)
 */
import { PartialJsonParser } from '../../src/parse/partialJson';

interface Outcome {
  readonly value?: unknown;
  readonly error?: string;
  /** Every distinct value read after a push, as JSON (live mode). */
  readonly seen: readonly string[];
}

function run(pieces: readonly string[]): Outcome {
  const parser = new PartialJsonParser({ snapshots: 'live' });
  const seen: string[] = [];
  for (const piece of pieces) {
    parser.push(piece);
    const shown = JSON.stringify(parser.value) ?? 'undefined';
    if (seen[seen.length - 1] !== shown) seen.push(shown);
  }
  try {
    return { value: parser.end(), seen };
  } catch (error) {
    return { error: (error as Error).message, seen };
  }
}

/** Every cut of `text` into two pieces, and the whole text. */
function cuts(text: string): string[][] {
  const out = [[text]];
  for (let at = 1; at < text.length; at++) out.push([text.slice(0, at), text.slice(at)]);
  return out;
}

const VALID = [
  '[0,-0,7,-7,0.5,-0.25,123456789012345,1234567890123456,12345678901234.5,1e3,-2.5E-3,10]',
  '{"a":1,"b":-12.75,"c":[3 ,4\n,5]}',
  '[999999999999999, 0.000000000000001, 9007199254740993, 1.7976931348623157e308, 0.12345678901234567, 98765432109876543219, 331797732009577318]',
  '  -42  ',
  '3.25',
  '["a\\nb\\"c\\\\d\\/e\\tf\\u00e9g\\ud83d\\ude00h", "\\b\\f\\r", "x\\u0041y", ""]',
  '{"k\\"ey":"v\\nal","😀":"\\ud83d\\ude00"}',
];
const INVALID = ['[01]', '[-]', '[1.]', '[1.e5]', '[-a]', '["a\\x"]', '["a\\u00g0"]', '[1,2', '[00.5]', '[1.5.5]', '["tab\there"]'];

describe('PartialJsonParser fast paths', () => {
  it.each(VALID)('%s: every cut gives the values and result of one character at a time, and JSON.parse', (text) => {
    const reference = run(text.split(''));
    expect(reference.error).toBeUndefined();
    expect(reference.value).toEqual(JSON.parse(text));
    for (const pieces of cuts(text)) {
      const outcome = run(pieces);
      expect(outcome.error).toBeUndefined();
      expect(outcome.value).toEqual(reference.value);
      // Values shown are a subsequence of the one-character-at-a-time values (coarser cuts skip some).
      let next = 0;
      for (const shown of outcome.seen) {
        next = reference.seen.indexOf(shown, next);
        expect(next).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('keeps -0 and the exact double of every short number', () => {
    const text = '[-0,0.1,0.7,1.005,-99.99,314159265358979]';
    for (const pieces of cuts(text)) {
      const value = run(pieces).value as number[];
      const expected = JSON.parse(text) as number[];
      expect(value.map((n) => Object.is(n, -0) || n)).toEqual(expected.map((n) => Object.is(n, -0) || n));
    }
  });

  it.each(INVALID)('%s: every cut fails with the error (and position) of one character at a time', (text) => {
    expect(() => JSON.parse(text)).toThrow();
    const reference = run(text.split(''));
    expect(reference.error).toBeDefined();
    for (const pieces of cuts(text)) expect(run(pieces).error).toBe(reference.error);
  });
});
