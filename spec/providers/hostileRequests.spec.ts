// The request translators against a hostile client: inherited names as roles and
// tool-choice types, input-sized lists, deep and unwritable JSON. Every refusal is a typed
// `unsupported-request` naming the JSON path; every request written can be sent with JSON.stringify.
import { isToolStreamError } from 'rxjs-tool-calls';
import { type AnthropicWire, fromAnthropicRequest, type OpenAIChatWire, toAnthropicRequest, toGeminiInteractionsRequest, toGeminiRequest, toResponsesRequest } from 'rxjs-tool-calls/gateway';
import { expectUnsupported } from '../helpers/chatRequests';

const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString'];

type Translate = (request: OpenAIChatWire.RequestInput, options?: { maxDepth?: number }) => unknown;
const CHAT_TARGETS: Array<[string, string, Translate]> = [
  ['toAnthropicRequest', 'anthropic', (r, o) => toAnthropicRequest(r, { defaultMaxTokens: 64, ...o })],
  ['toResponsesRequest', 'openai-responses', (r, o) => toResponsesRequest(r, o)],
  ['toGeminiRequest', 'gemini', (r, o) => toGeminiRequest(r, o)],
  ['toGeminiInteractionsRequest', 'gemini-interactions', (r, o) => toGeminiInteractionsRequest(r, o)],
];

const chat = (extra: Record<string, unknown>): OpenAIChatWire.RequestInput => ({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...extra }) as OpenAIChatWire.RequestInput;
const anthropic = (extra: Record<string, unknown>): AnthropicWire.RequestInput => ({ model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], ...extra }) as AnthropicWire.RequestInput;

/** `{"a":{"a":…1…}}` nested `depth` levels (the outer object is level 1). */
function nestedText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
function nestedObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}
/** The JSON path of the container `levels` levels below a root at `path` (`path.a.a…`). */
const down = (path: string, levels: number): string => path + '.a'.repeat(levels);

const withCall = (args: string): OpenAIChatWire.RequestInput =>
  chat({
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: args } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ],
  });
const ARGS_PATH = 'messages[1].tool_calls[0].function.arguments';

describe('inherited names are unknown names', () => {
  describe.each(CHAT_TARGETS)('%s', (_name, target, translate) => {
    it.each(INHERITED)('a message with role %s is unsupported-request at messages[0].role', (role) => {
      const error = expectUnsupported(() => translate(chat({ messages: [{ role, content: 'x' }] })), target, 'messages[0].role');
      expect(error.detail).toBe(`${role} messages are not supported`);
    });

    it.each(INHERITED)('a tool_choice of type %s is unsupported-request at tool_choice.type', (type) => {
      const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
      expectUnsupported(() => translate(chat({ tools, tool_choice: { type, function: { name: 'f' } } })), target, 'tool_choice.type');
    });

    it('a message field named __proto__ (as JSON.parse makes it: an own field) is an unknown field', () => {
      const request = JSON.parse('{"model":"m","messages":[{"role":"user","content":"Hi","__proto__":{"tool_calls":[]}}]}') as OpenAIChatWire.RequestInput;
      expectUnsupported(() => translate(request), target, 'messages[0].__proto__');
    });
  });

  describe('fromAnthropicRequest', () => {
    it.each(INHERITED)('a message with role %s is unsupported-request at messages[0].role', (role) => {
      expectUnsupported(() => fromAnthropicRequest(anthropic({ messages: [{ role, content: 'x' }] })), 'openai-chat', 'messages[0].role');
    });

    it.each(INHERITED)('a tool_choice of type %s is unsupported-request, not a mode', (type) => {
      const error = expectUnsupported(() => fromAnthropicRequest(anthropic({ tool_choice: { type } })), 'openai-chat', 'tool_choice.type');
      expect(error.detail).toBe(`unknown tool_choice type ${JSON.stringify(type)}`);
    });

    it('the real modes still map', () => {
      expect(fromAnthropicRequest(anthropic({ tool_choice: { type: 'any' } })).tool_choice).toBe('required');
      expect(fromAnthropicRequest(anthropic({ tool_choice: { type: 'auto' } })).tool_choice).toBe('auto');
      expect(fromAnthropicRequest(anthropic({ tool_choice: { type: 'none' } })).tool_choice).toBe('none');
    });
  });
});

describe('200,000 calls and results (no input-sized spread into a call)', () => {
  const N = 200_000;
  const ids = Array.from({ length: N }, (_, i) => `c${i}`);
  const request = chat({
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: null, tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } })) },
      ...ids.map((id) => ({ role: 'tool', tool_call_id: id, content: 'r' })),
    ],
  });

  it('toResponsesRequest writes one item per call and per result', () => {
    const out = toResponsesRequest(request);
    expect(out.input).toHaveLength(1 + 2 * N);
    expect(out.input[N]).toEqual({ type: 'function_call', call_id: `c${N - 1}`, name: 'f', arguments: '{}' });
    expect(out.input[2 * N]).toEqual({ type: 'function_call_output', call_id: `c${N - 1}`, output: 'r' });
  });

  it('toAnthropicRequest writes one block per call and per result', () => {
    const out = toAnthropicRequest(request, { defaultMaxTokens: 64 });
    expect(out.messages.map((m) => (typeof m.content === 'string' ? 1 : m.content.length))).toEqual([1, N, N]);
  });

  it('toGeminiRequest writes one part per call and per result', () => {
    const out = toGeminiRequest(request);
    expect(out.body.contents.map((c) => c.parts.length)).toEqual([1, N, N]);
  });

  it('fromAnthropicRequest writes one tool message per result', () => {
    const out = fromAnthropicRequest(
      anthropic({
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: ids.map((id) => ({ type: 'tool_use', id, name: 'f', input: {} })) },
          { role: 'user', content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'r' })) },
        ],
      }),
    );
    expect(out.messages).toHaveLength(2 + N);
    expect(out.messages[1]).toMatchObject({ role: 'assistant', content: null });
    expect((out.messages[1] as { tool_calls: unknown[] }).tool_calls).toHaveLength(N);
    expect(out.messages[N + 1]).toEqual({ role: 'tool', tool_call_id: `c${N - 1}`, content: 'r' });
  });
});

describe('deep JSON: refused past maxDepth (default 512), the request written always serialisable', () => {
  describe.each([
    ['toAnthropicRequest', 'anthropic', CHAT_TARGETS[0]?.[2] as Translate],
    ['toGeminiRequest', 'gemini', CHAT_TARGETS[2]?.[2] as Translate],
  ])('%s: a call arguments parsed into the request', (_name, target, translate) => {
    it('10,000 levels: unsupported-request at the first level too deep', () => {
      const error = expectUnsupported(() => translate(withCall(nestedText(10_000))), target, down(ARGS_PATH, 512));
      expect(error.detail).toBe('nested deeper than 512 levels (the maxDepth option)');
    });

    it.each([
      [511, true],
      [512, true],
      [513, false],
    ])('%i levels with the default: written = %s', (depth, written) => {
      if (written) expect(JSON.parse(JSON.stringify(translate(withCall(nestedText(depth)))))).toBeTruthy();
      else expectUnsupported(() => translate(withCall(nestedText(depth))), target, down(ARGS_PATH, 512));
    });

    it.each([
      [4, true],
      [5, true],
      [6, false],
    ])('%i levels with maxDepth 5: written = %s', (depth, written) => {
      if (written) expect(() => translate(withCall(nestedText(depth)), { maxDepth: 5 })).not.toThrow();
      else expectUnsupported(() => translate(withCall(nestedText(depth)), { maxDepth: 5 }), target, down(ARGS_PATH, 5));
    });

    it('1,000,000 levels of "[" still end typed', () => {
      const text = `{"a":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`;
      expect(() => translate(withCall(text))).toThrow(expect.objectContaining({ code: 'unsupported-request', target }));
    });
  });

  it('toResponsesRequest keeps arguments as the text they are (any depth is a string)', () => {
    const args = nestedText(10_000);
    const out = toResponsesRequest(withCall(args));
    expect(JSON.parse(JSON.stringify(out)).input[1]).toEqual({ type: 'function_call', call_id: 'c1', name: 'f', arguments: args });
  });

  describe.each(CHAT_TARGETS)('%s: a tool schema', (_name, target, translate) => {
    const withTool = (parameters: unknown) => chat({ tools: [{ type: 'function', function: { name: 'f', parameters } }] });
    const PARAMS = 'tools[0].function.parameters';

    it('10,000 levels: unsupported-request at the first level too deep', () => {
      expectUnsupported(() => translate(withTool({ type: 'object', properties: nestedObject(10_000) })), target, down(`${PARAMS}.properties`, 511));
    });

    it('a cycle (a schema built in code) ends typed, as infinitely deep', () => {
      const schema: Record<string, unknown> = { type: 'object', properties: {} };
      (schema['properties'] as Record<string, unknown>)['self'] = schema;
      const error = expectUnsupported(() => translate(withTool(schema)), target, `${PARAMS}${'.properties.self'.repeat(256)}`);
      expect(error.detail).toContain('nested deeper than 512 levels');
    });

    it('a bigint cannot be written as JSON', () => {
      expectUnsupported(() => translate(withTool({ type: 'object', properties: { n: { type: 'integer', default: 10n } } })), target, `${PARAMS}.properties.n.default`);
    });

    it('a shared (not cyclic) subtree is fine', () => {
      const leaf = { type: 'string' };
      const out = translate(withTool({ type: 'object', properties: { a: leaf, b: leaf, c: { type: 'object', properties: { d: leaf } } } }));
      expect(() => JSON.stringify(out)).not.toThrow();
    });

    it.each([0, -1, 1.5, 1025, Infinity, NaN, '8'])('maxDepth %p is an invalid-option error', (maxDepth) => {
      let caught: unknown;
      try {
        translate(chat({}), { maxDepth: maxDepth as number });
      } catch (error) {
        caught = error;
      }
      expect(isToolStreamError(caught, 'invalid-option')).toBe(true);
      expect(caught).toMatchObject({ option: 'options.maxDepth', value: maxDepth, expected: 'a whole number from 1 to 1024' });
    });

    it.each([1, 1024])('maxDepth %i is accepted', (maxDepth) => {
      expect(() => translate(chat({}), { maxDepth })).not.toThrow();
    });
  });

  describe('fromAnthropicRequest', () => {
    const withUse = (input: unknown) => anthropic({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input }] }] });

    it('a tool_use input 10,000 levels deep: unsupported-request, not a RangeError from JSON.stringify', () => {
      const error = expectUnsupported(() => fromAnthropicRequest(withUse(nestedObject(10_000))), 'openai-chat', down('messages[0].content[0].input', 512));
      expect(error.detail).toBe('nested deeper than 512 levels (the maxDepth option)');
    });

    it.each([
      [512, true],
      [513, false],
    ])('an input %i levels deep: written = %s', (depth, written) => {
      if (written)
        expect(
          JSON.parse((fromAnthropicRequest(withUse(nestedObject(depth))).messages[0] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0]?.function.arguments ?? ''),
        ).toEqual(nestedObject(depth));
      else expectUnsupported(() => fromAnthropicRequest(withUse(nestedObject(depth))), 'openai-chat', down('messages[0].content[0].input', 512));
    });

    it("a cyclic input ends typed, not with JSON.stringify's TypeError", () => {
      const input: Record<string, unknown> = {};
      input['again'] = input;
      expect(() => fromAnthropicRequest(withUse(input))).toThrow(expect.objectContaining({ code: 'unsupported-request', target: 'openai-chat' }));
    });

    it('an input_schema 10,000 levels deep: unsupported-request', () => {
      const tools = [{ name: 'f', input_schema: { type: 'object', properties: nestedObject(10_000) } }];
      expectUnsupported(() => fromAnthropicRequest(anthropic({ tools })), 'openai-chat', down('tools[0].input_schema.properties', 511));
    });
  });
});
