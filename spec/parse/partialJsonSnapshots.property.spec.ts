/**
 * Properties of the snapshots, `maxPartialDepth`, number previews and error positions of the
 * streaming parser, on documents wide enough that immutable snapshots are held back (see the
 * module comment of `partialJson.ts`).
 */
import fc from 'fast-check';
import { jsonErrorPosition } from '../../src/parse/jsonErrorPosition';
import { PartialJsonParser, type PartialJsonOptions } from '../../src/parse/partialJson';
import { allPaths, deepEqual, getPath, prefixMismatch } from '../helpers/isPrefixValue';
import { textPieces } from '../helpers/chunking';

/** Cut `text` into seeded pieces of 1–`max` characters. */
const pieces = textPieces;

const leaf = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
/** Documents with wide arrays and objects (up to 400 elements / 60 keys) and nested small values. */
const wide = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(leaf, fc.array(fc.oneof(leaf, fc.jsonValue({ maxDepth: 2 })), { maxLength: 300 })), { maxKeys: 60 }),
  fc.array(fc.oneof(leaf, fc.dictionary(fc.string({ maxLength: 4 }), leaf, { maxKeys: 5 }), fc.array(leaf, { maxLength: 300 })), { maxLength: 400 }),
);
const whitespace = fc.constantFrom<string | number | undefined>(undefined, 1, 2);

function isPathPrefix(path: ReadonlyArray<string | number>, of: ReadonlyArray<string | number>): boolean {
  return path.length <= of.length && path.every((segment, i) => segment === of[i]);
}

describe('immutable snapshots (properties)', () => {
  it('never change once handed out, each extends the one before, and openPath / isComplete describe them', () => {
    fc.assert(
      fc.property(wide, whitespace, fc.integer(), (doc, indent, seed) => {
        const text = JSON.stringify(doc, null, indent);
        const final: unknown = JSON.parse(text);
        const parser = new PartialJsonParser();
        const handedOut: Array<[unknown, unknown]> = [];
        let previous: unknown;
        for (const piece of pieces(text, seed)) {
          parser.push(piece);
          const value = parser.value;
          const open = parser.openPath;
          expect(prefixMismatch(value, final)).toBeUndefined();
          expect(prefixMismatch(previous, value)).toBeUndefined();
          expect(parser.value).toBe(value); // reading again changes nothing
          const paths = allPaths(value);
          for (let k = 0; k < 12 && paths.length > 0; k++) {
            const path = paths[((seed >>> 0) + k * 7919) % paths.length] as ReadonlyArray<string | number>;
            const settled = open === undefined || !isPathPrefix(path, open);
            expect(parser.isComplete(path)).toBe(settled);
            if (settled) expect(deepEqual(getPath(value, path), getPath(final, path))).toBe(true);
          }
          handedOut.push([value, value === undefined ? undefined : structuredClone(value)]);
          previous = value;
        }
        expect(parser.end()).toStrictEqual(final);
        expect(parser.value).toBe(parser.end());
        // Checked at the very end: nothing handed out was mutated since.
        for (const [value, clone] of handedOut) expect(deepEqual(value, clone)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('show the same as the live tree at every step while the open containers are narrow', () => {
    const narrow = fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }));
    const small = narrow.filter((doc) =>
      allPaths(doc).every((path) => {
        const node = getPath(doc, path);
        return typeof node !== 'object' || node === null || Object.keys(node).length <= 4;
      }),
    );
    fc.assert(
      fc.property(small, fc.integer(), fc.integer({ min: 1, max: 8 }), (doc, seed, max) => {
        const text = JSON.stringify(doc);
        const immutable = new PartialJsonParser();
        const live = new PartialJsonParser({ snapshots: 'live' });
        for (const piece of pieces(text, seed, max)) {
          immutable.push(piece);
          live.push(piece);
          expect(JSON.stringify(immutable.value)).toBe(JSON.stringify(live.value));
          expect(immutable.openPath).toEqual(live.openPath);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('catch up on a wide array once enough text follows, even when nothing new is visible', () => {
    const parser = new PartialJsonParser();
    parser.push('[');
    let received = 0;
    let values = 0;
    let previous: unknown;
    // Read after every element: once the one-time allowance is spent, copying a wide array waits
    // until enough text has arrived to pay for it.
    while (!parser.pending || received < 1_000) {
      parser.push(`${received++},`);
      const value = parser.value;
      if (value !== previous) values++;
      previous = value;
    }
    expect((parser.value as number[]).length).toBeLessThan(received);
    expect(values).toBeLessThan(received);
    parser.push(' '.repeat(2 * received)); // nothing visible, but enough characters
    expect(parser.value).toEqual(Array.from({ length: received }, (_, i) => i));
    expect(parser.pending).toBe(false);
  });
});

describe('maxPartialDepth (properties)', () => {
  it('values stop at the limit, the final value is JSON.parse', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.integer({ min: 0, max: 3 }), fc.integer(), fc.constantFrom<'immutable' | 'live'>('immutable', 'live'), (doc, limit, seed, snapshots) => {
        const text = JSON.stringify(doc);
        // Compared with the parsed text, not `doc`: JSON writes -0 as 0.
        const final: unknown = JSON.parse(text);
        const parser = new PartialJsonParser({ maxPartialDepth: limit, snapshots });
        for (const piece of pieces(text, seed)) {
          parser.push(piece);
          if (parser.done) break;
          const shown = snapshots === 'live' ? structuredClone(parser.value) : parser.value;
          expect(prefixMismatch(shown, final)).toBeUndefined();
          // The open path stops at the limit, where a deeper container shows empty until complete.
          const open = parser.openPath ?? [];
          expect(open.length).toBeLessThanOrEqual(limit);
          const node = getPath(shown, open);
          if (open.length === limit && typeof node === 'object' && node !== null) expect(Object.keys(node)).toHaveLength(0);
        }
        expect(parser.end()).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('damaged JSON: fails exactly when JSON.parse fails, at the same position as without a limit and as jsonErrorPosition', () => {
    const damage = fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom(...'{}[]":,\\ 0-.eEtfnu"a1'.split('')));
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), damage, fc.integer({ min: 0, max: 2 }), fc.integer(), (doc, [where, how, ch], limit, seed) => {
        const valid = JSON.stringify(doc, null, seed % 2 === 0 ? undefined : 1);
        const at = Math.floor(where * valid.length);
        const text = how === 'delete' ? valid.slice(0, at) + valid.slice(at + 1) : how === 'insert' ? valid.slice(0, at) + ch + valid.slice(at) : valid.slice(0, at) + ch + valid.slice(at + 1);
        let ok = true;
        try {
          JSON.parse(text);
        } catch {
          ok = false;
        }
        const positionWith = (options: PartialJsonOptions): number | undefined => {
          const parser = new PartialJsonParser(options);
          for (const piece of pieces(text, seed)) parser.push(piece);
          try {
            expect(parser.end()).toStrictEqual(JSON.parse(text));
            return undefined;
          } catch (error) {
            expect(error).toMatchObject({ name: 'ToolStreamError', code: 'malformed-json' });
            return parser.error?.position;
          }
        };
        const unlimited = positionWith({ maxPartialDepth: Infinity });
        expect(unlimited === undefined).toBe(ok);
        expect(positionWith({ maxPartialDepth: limit })).toBe(unlimited);
        if (text.trim() !== '') expect(jsonErrorPosition(text)).toBe(unlimited);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('allowPartialLiterals number previews (properties)', () => {
  /** The value of the longest prefix of `text` that is a complete number, as the preview promises. */
  function reference(text: string): number | undefined {
    let end = text.length;
    while (end > 0 && !/\d/.test(text[end - 1] as string)) end--;
    return end === 0 ? undefined : Number(text.slice(0, end));
  }
  const numbers = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
    fc
      .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9]\d{0,40})$/), fc.stringMatching(/^(\.\d{1,40})?$/), fc.stringMatching(/^([eE][+-]?\d{1,4})?$/))
      .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac}${exp}`),
  );

  it('after every character, the value of the longest complete prefix', () => {
    fc.assert(
      fc.property(numbers, (number) => {
        const parser = new PartialJsonParser({ allowPartialLiterals: true, snapshots: 'live' });
        parser.push('[');
        for (let i = 1; i <= number.length; i++) {
          parser.push(number[i - 1] as string);
          const shown = (parser.value as number[])[0];
          expect(shown).toBe(reference(number.slice(0, i)));
        }
        parser.push(']');
        expect(parser.end()).toStrictEqual([JSON.parse(number)]);
      }),
      { numRuns: 500 },
    );
  });

  it('is exact on numbers with hundreds of digits', () => {
    const long = `${'1'.repeat(200)}.${'2'.repeat(700)}5e-150`;
    const parser = new PartialJsonParser({ allowPartialLiterals: true, snapshots: 'live' });
    parser.push('[');
    for (let i = 1; i <= long.length; i++) {
      parser.push(long[i - 1] as string);
      if (i % 37 === 0 || i > long.length - 8) expect((parser.value as number[])[0]).toBe(reference(long.slice(0, i)));
    }
  });
});
