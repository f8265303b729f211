// What the docs promise about strings in partial values: "escapes and surrogate pairs decoded whole
// even when split across fragments", with upper-case hex digits (`\u00E9`, `\uD83D\uDE00`) as
// with lower-case ones: at every split, every partial string is a prefix of the final one (never a
// raw `\u00`, never half a pair), and the last value is the full parse. Two angles: every split of
// the text into two fragments through partialToolCalls(), and random splits of an Anthropic wire.
import fc from 'fast-check';
import { from, lastValueFrom, toArray } from 'rxjs';
import { partialToolCalls, readStreamEvents, type PartialToolCall, type StreamEvent } from 'rxjs-tool-calls';
import { anthropicEvent } from 'rxjs-tool-calls/marbles';

const TEXTS = [
  String.raw`{"s":"caf\u00E9"}`,
  String.raw`{"s":"\u00C9t\u00E9 \u00e9\u00eA"}`,
  String.raw`{"s":"\uD83D\uDE00 and \ud83d\ude00","t":"\u00FF\u0041"}`,
  String.raw`{"k\u00E9y":"v","a":["\u00E9",{"b":"\u20AC\u20ac"}]}`,
];

/** Every string in `value`, with its path. */
function strings(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  return [];
}

/** Check the partial values of one call against the full parse of `text`. */
function expectWholeEscapes(values: readonly PartialToolCall[], text: string): void {
  const final = JSON.parse(text) as unknown;
  const finals = new Map(strings(final));
  for (const value of values) {
    for (const [path, partial] of strings(value.arguments)) {
      expect(partial).not.toMatch(/\\u|\\$/);
      expect(partial).not.toMatch(/[\uD800-\uDBFF]$/); // never half a surrogate pair
      const whole = finals.get(path);
      expect(whole === undefined || whole.startsWith(partial)).toBe(true);
    }
  }
  const last = values.at(-1);
  expect(last?.result?.success).toBe(true);
  expect(last?.arguments).toEqual(final);
}

async function partialsOf(events: StreamEvent[]): Promise<PartialToolCall[]> {
  return lastValueFrom(from(events).pipe(partialToolCalls(), toArray()));
}

describe('partialToolCalls(): upper-case \\u escapes decoded whole', () => {
  it.each(TEXTS)('%s split into two fragments at every offset', async (text) => {
    for (let at = 0; at <= text.length; at++) {
      const events: StreamEvent[] = [
        { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'f', argumentsDelta: text.slice(0, at) },
        { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: text.slice(at) },
        { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
      ];
      expectWholeEscapes(await partialsOf(events), text);
    }
  });

  it('shows é as soon as its escape is complete, and not before', async () => {
    const text = String.raw`{"s":"caf\u00E9!"}`;
    const cut = text.indexOf('E9') + 1; // `…\u00E` | `9!"}`
    const values = await partialsOf([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'f', argumentsDelta: text.slice(0, cut) },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: text.slice(cut, cut + 1) },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: text.slice(cut + 1) },
      { type: 'finish', choice: 0, reason: 'tool-calls', rawReason: 'tool_calls' },
    ]);
    expect(values.map((v) => (v.arguments as { s?: string }).s)).toEqual(['caf', 'café', 'café!', 'café!']);
  });

  it('an Anthropic stream split at random places (property)', async () => {
    let key = 0;
    const text = TEXTS.join('')
      .replace(/\}\{/g, ',')
      .replace(/"s":/g, () => `"s${key++}":`);
    const valid = JSON.parse(text) as unknown; // the joined text is one object
    expect(valid).toBeTruthy();
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), text.length];
        const wire = [
          anthropicEvent('message_start', { message: { id: 'm', model: 'claude', usage: { input_tokens: 1, output_tokens: 1 } } }),
          anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 't1', name: 'f', input: {} } }),
          ...points.slice(1).map((end, i) => anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: text.slice(points[i], end) } })),
          anthropicEvent('content_block_stop', { index: 0 }),
          anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 1 } }),
          anthropicEvent('message_stop', {}),
        ];
        expectWholeEscapes(await lastValueFrom(from(wire).pipe(readStreamEvents(), partialToolCalls(), toArray())), text);
      }),
      { numRuns: 100 },
    );
  });
});
