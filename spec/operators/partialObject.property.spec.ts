import fc from 'fast-check';
import { from } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import { partialObject, type PartialObjectUpdate } from '../../src/operators/partialObject';
import { deepEqual, prefixMismatch } from '../helpers/isPrefixValue';
import { cutAt } from '../helpers/chunking';

const cut = cutAt;

function run(pieces: string[], options: Parameters<typeof partialObject>[0]): PartialObjectUpdate[] {
  const events: StreamEvent[] = [...pieces.map((text): StreamEvent => ({ type: 'text-delta', choice: 0, text })), { type: 'finish', choice: 0, reason: 'stop', rawReason: 'stop' }];
  const out: PartialObjectUpdate[] = [];
  from(events)
    .pipe(partialObject(options))
    .subscribe((u) => out.push(u));
  return out;
}

const documents = fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 8 }), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })));
const splits = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 });
const wrapping = fc.record({ indent: fc.constantFrom(undefined, 2, '\t'), lead: fc.constantFrom('', ' ', '\n\n'), fence: fc.boolean() });

describe('partialObject() (properties)', () => {
  it('every partial value is consistent with the final one, which equals JSON.parse of the text, for any chunking', () => {
    fc.assert(
      fc.property(documents, wrapping, splits, fc.constantFrom<'immutable' | 'live'>('immutable', 'live'), (doc, wrap, points, snapshots) => {
        const json = JSON.stringify(doc, null, wrap.indent);
        const text = wrap.lead + (wrap.fence ? `\`\`\`json\n${json}\n\`\`\`\n` : json);
        const updates = run(cut(text, points), { snapshots, ...(Array.isArray(doc) ? { elements: true as const } : {}) });
        const final = updates.at(-1);
        if (final?.type !== 'result' || !final.result.success) throw new Error(`no success for ${JSON.stringify(text)}: ${JSON.stringify(final)}`);
        const expected: unknown = JSON.parse(json);
        expect(deepEqual(final.result.data, expected)).toBe(true);
        expect(deepEqual(final.value, expected)).toBe(true);
        if (snapshots === 'live') return; // live values are one object, mutated: compare snapshots only
        let previous: unknown = undefined;
        for (const u of updates) {
          if (u.type !== 'partial') continue;
          const against = prefixMismatch(u.value, expected);
          if (against !== undefined) throw new Error(`partial value ${JSON.stringify(u.value)} vs final: ${against}`);
          const growth = prefixMismatch(previous, u.value);
          if (growth !== undefined) throw new Error(`partial value ${JSON.stringify(u.value)} does not extend ${JSON.stringify(previous)}: ${growth}`);
          previous = u.value;
        }
        if (Array.isArray(expected)) {
          const elements = updates.flatMap((u) => (u.type === 'element' && u.result.success ? [[u.index, u.result.data]] : []));
          expect(elements).toEqual(expected.map((e, i) => [i, e]));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('text that is not one JSON document is malformed-arguments with the raw text, for any chunking', () => {
    const extra = fc.constantFrom('Sure: ', 'ok', '```js\n', '\n\nThanks!', ' {}', '`');
    fc.assert(
      fc.property(fc.jsonValue(), extra, fc.boolean(), splits, (doc, junk, before, points) => {
        const json = JSON.stringify(doc);
        const text = before ? junk + json : json + junk;
        let parsesAnyway = true;
        try {
          JSON.parse(text);
        } catch {
          parsesAnyway = false;
        }
        fc.pre(!parsesAnyway); // `ok` after a number, … is still JSON-invalid; what JSON.parse accepts is not junk
        const last = run(cut(text, points), {}).at(-1);
        expect(last?.type === 'result' && !last.result.success && { code: last.result.error.code, raw: last.result.error.toolCall.rawArguments }).toEqual({ code: 'malformed-arguments', raw: text });
      }),
      { numRuns: 300 },
    );
  });
});
