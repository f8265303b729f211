/**
 * Property: a generated conversation (text with look-alike pieces, calls of any syntax with any
 * JSON arguments), re-chunked at random, gives exactly the calls that were written, in order, and
 * exactly the text around them.
 */
import fc from 'fast-check';
import { type TextToolCallSyntax, TEXT_TOOL_CALL_SYNTAXES } from 'rxjs-tool-calls/text';
import { callsOf, cutAt, runText } from './helpers';

interface Call {
  readonly syntax: TextToolCallSyntax;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** Words of the visible text: markers' look-alikes and stray closers, never a whole opener. */
const WORDS = ['hello', 'a<b', '<toolbar>', '[x]', '<tool', '[TOOL', 'x > y', 'café', '🗼', '|', '<|', '<｜', '}', '{a}', '</tool_call>', '[/THINK]', '</think>', '[ARGS]', '\n', ' ', '<arg_key>'];
const FIRST = WORDS.filter((w) => !/^[\s{}]/.test(w));
const VALUE_WORDS = ['Paris', 'a<b', 'x > y', '[1, 2]', 'São', 'mid dle', '🗼', '</b>', '"q"', 'back\\slash'];

const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const key = fc.stringMatching(/^[a-z][a-z_]{0,7}$/);
const textSegment = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom(...FIRST), fc.array(fc.constantFrom(...WORDS), { maxLength: 8 })).map(([first, rest]) => first + rest.join('')),
);
const xmlValue = fc.array(fc.constantFrom(...VALUE_WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const call: fc.Arbitrary<Call> = fc.constantFrom(...TEXT_TOOL_CALL_SYNTAXES).chain((syntax) =>
  fc.record({
    syntax: fc.constant(syntax),
    name,
    args: syntax === 'qwen3-coder' || syntax === 'glm45' ? fc.dictionary(key, xmlValue, { maxKeys: 4 }) : fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  }),
);

function render(c: Call): string {
  const json = JSON.stringify(c.args);
  const entries = Object.entries(c.args);
  switch (c.syntax) {
    case 'hermes':
      return `<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.args })}\n</tool_call>`;
    case 'qwen3-coder':
      return `<tool_call>\n<function=${c.name}>\n${entries.map(([k, v]) => `<parameter=${k}>\n${String(v)}\n</parameter>\n`).join('')}</function>\n</tool_call>`;
    case 'mistral':
      return `[TOOL_CALLS]${c.name}[ARGS]${json}`;
    case 'llama3':
      return `<|python_tag|>${JSON.stringify({ name: c.name, parameters: c.args })}`;
    case 'deepseek':
      return `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>${c.name}\n\`\`\`json\n${json}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`;
    case 'glm45':
      return `<tool_call>${c.name}\n${entries.map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${String(v)}</arg_value>\n`).join('')}</tool_call>`;
  }
}

/** What the call's arguments must come out as: GLM values that are JSON (`[1, 2]`, `"q"`) are that JSON, as GLM's own parser reads them. */
function expected(c: Call): unknown {
  if (c.syntax !== 'glm45') return JSON.parse(JSON.stringify(c.args)) as unknown;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.args)) {
    try {
      out[k] = JSON.parse(String(v)) as unknown;
    } catch {
      out[k] = v;
    }
  }
  return out;
}

const conversation = fc.tuple(textSegment, fc.array(fc.tuple(call, textSegment), { maxLength: 4 }));

describe('textToolCalls() on generated conversations', () => {
  it('lifts exactly the calls written, in order, with exactly the text around them, however it is chunked', () => {
    fc.assert(
      fc.property(conversation, fc.array(fc.nat(), { maxLength: 30 }), ([first, rest], cuts) => {
        const whole = first + rest.map(([c, t]) => render(c) + t).join('');
        const run = runText(cutAt(whole, cuts));
        expect(callsOf(run)).toEqual(rest.map(([c]) => ({ name: c.name, arguments: expected(c) })));
        expect(run.visible).toBe(first + rest.map(([, t]) => t).join(''));
        expect(run.finishes).toEqual([rest.length > 0 ? 'tool-calls' : 'stop']);
      }),
      { numRuns: 400, seed: 1515 },
    );
  });
});
