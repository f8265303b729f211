/**
 * For every syntax: the conversation's text split at every character (two deltas), one delta
 * per character, and at random (fast-check, many deltas) gives the same tool calls, the same
 * visible text and the same reasoning as one delta — and that is what the model meant.
 */
import fc from 'fast-check';
import { CONVERSATIONS } from './conversations';
import { callsOf, cutAt, runText, type TextRun } from './helpers';

function comparable(run: TextRun): unknown {
  return { visible: run.visible, reasoning: run.reasoning, results: run.results, finishes: run.finishes };
}

describe.each(CONVERSATIONS.map((c, i) => [`${c.syntax} #${i}`, c] as const))('textToolCalls() on a %s conversation', (_name, conversation) => {
  const whole = runText([conversation.text], conversation.options);

  it('lifts every call, and leaves the text and reasoning as meant, from one delta', () => {
    expect(callsOf(whole)).toEqual(conversation.calls);
    expect(whole.visible).toBe(conversation.visible);
    expect(whole.reasoning).toBe(conversation.reasoning);
    expect(whole.finishes).toEqual(['tool-calls']);
  });

  it('gives the same results split at every character into two deltas', () => {
    const expected = comparable(whole);
    for (let i = 1; i < conversation.text.length; i++) {
      const run = runText([conversation.text.slice(0, i), conversation.text.slice(i)], conversation.options);
      if (JSON.stringify(comparable(run)) !== JSON.stringify(expected)) expect({ splitAt: i, ...(comparable(run) as object) }).toEqual({ splitAt: i, ...(expected as object) });
    }
  });

  it('gives the same results with one delta per character', () => {
    expect(comparable(runText([...conversation.text], conversation.options))).toEqual(comparable(whole));
  });

  it('gives the same results split at random into many deltas', () => {
    const expected = comparable(whole);
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 60 }), (cuts) => {
        expect(comparable(runText(cutAt(conversation.text, cuts), conversation.options))).toEqual(expected);
      }),
      { numRuns: 200, seed: 15 },
    );
  });

  it('never emits text or reasoning that is not in the final text (nothing shown, then retracted)', () => {
    const run = runText([...conversation.text], conversation.options);
    let visible = '';
    for (const e of run.events) if (e.type === 'text-delta') visible += e.text;
    expect(conversation.visible.startsWith(visible)).toBe(true);
    expect(run.events.filter((e) => e.type === 'text-delta' && /<|\[TOOL|｜/.test(e.text) && !conversation.visible.includes(e.text))).toEqual([]);
  });
});

describe('textToolCalls() on conversations of every syntax at once (default: detect any)', () => {
  it('lifts each syntax with the default options as with its own name', () => {
    for (const conversation of CONVERSATIONS) {
      const own = runText([conversation.text], { ...conversation.options, syntaxes: [conversation.syntax] });
      const any = runText([conversation.text], conversation.options);
      expect(comparable(any)).toEqual(comparable(own));
    }
  });
});

/** Text that only looks like calls: it must come out unchanged, however it is split. */
const LOOK_ALIKES = [
  'Wrap calls in `<tool_call>` tags, e.g.:\n```json\n<tool_call>{"name": "f", "arguments": {}}</tool_call>\n```\nand <toolbar> or <tool_callx> or [TOOL_CALLSIGN].\n',
  '~~~\n[TOOL_CALLS]f[ARGS]{}\n<｜tool▁calls▁begin｜>\n~~~\nThen ``<|python_tag|>{"name": "f", "parameters": {}}`` works.',
  '{"name": "Alice", "parameters": "none", "age": 3}',
  '<tool_call> not a call </tool_call> [TOOL_CALLS] prose <|python_tag|>print(1)',
];

describe.each(LOOK_ALIKES.map((t, i) => [i, t] as const))('textToolCalls() on look-alike text #%d', (_i, t) => {
  it('leaves it unchanged and lifts nothing, split anywhere', () => {
    const expected = { visible: t, reasoning: '', results: [], finishes: ['stop'] };
    expect(comparable(runText([t]))).toEqual(expected);
    expect(comparable(runText([...t]))).toEqual(expected);
    for (let i = 1; i < t.length; i++) {
      const run = comparable(runText([t.slice(0, i), t.slice(i)]));
      if (JSON.stringify(run) !== JSON.stringify(expected)) expect({ splitAt: i, ...(run as object) }).toEqual({ splitAt: i, ...expected });
    }
  });
});
