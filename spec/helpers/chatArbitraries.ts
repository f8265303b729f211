/**
 * Chat requests whose every field Anthropic can carry: the arbitrary of the
 * `fromAnthropicRequest` ∘ `toAnthropicRequest` round-trip property.
 */
import fc from 'fast-check';
import type { OpenAIChatWire } from 'rxjs-tool-calls/gateway';

// ---- Chat requests whose every field Anthropic can carry (the arbitrary of the round-trip property).

const text = fc.string({ maxLength: 8 });
const parts = (min: number) =>
  fc.array(
    text.map((t) => ({ type: 'text' as const, text: t })),
    { minLength: min, maxLength: 3 },
  );
const args = fc
  .dictionary(
    fc.string({ minLength: 1, maxLength: 4 }).filter((k) => k !== '__proto__'),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 3 },
  )
  .map((o) => JSON.stringify(o));

/** One step: a user message, then maybe an assistant turn, with one tool message per call. */
const step = fc.tuple(fc.oneof(text, parts(1)), fc.option(fc.tuple(fc.oneof(text, parts(2)), fc.array(fc.tuple(args, fc.oneof(text, parts(1))), { maxLength: 3 }), fc.boolean()), { nil: undefined }));

export const representableChat = fc
  .record({
    system: fc.option(text, { nil: undefined }),
    steps: fc.array(step, { minLength: 1, maxLength: 4 }),
    tools: fc.array(fc.record({ name: fc.constantFrom('f', 'g', 'h'), description: fc.option(text, { nil: undefined }), strict: fc.boolean() }), { maxLength: 2 }),
    choice: fc.option(fc.constantFrom('auto', 'none', 'required', 'named'), { nil: undefined }),
    parallel: fc.boolean(),
    max: fc.integer({ min: 1, max: 100_000 }),
    stop: fc.option(fc.array(text, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    stream: fc.boolean(),
    user: fc.option(text, { nil: undefined }),
    temperature: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  })
  .map((r): OpenAIChatWire.Request => {
    let id = 0;
    const messages: OpenAIChatWire.Message[] = r.system === undefined ? [] : [{ role: 'system', content: r.system }];
    for (const [userContent, assistant] of r.steps) {
      messages.push({ role: 'user', content: userContent });
      if (assistant === undefined) continue;
      const [content, calls, nullContent] = assistant;
      if (calls.length === 0) {
        messages.push({ role: 'assistant', content });
        continue;
      }
      const ids = calls.map(() => `call_${id++}`);
      const visible = typeof content === 'string' ? (content === '' || nullContent ? null : content) : content.every((p) => p.text !== '') ? content : null;
      messages.push({ role: 'assistant', content: visible, tool_calls: calls.map(([a], i) => ({ id: ids[i] ?? '', type: 'function', function: { name: 'f', arguments: a } })) });
      calls.forEach(([, output], i) => messages.push({ role: 'tool', tool_call_id: ids[i] ?? '', content: output }));
    }
    const chat: OpenAIChatWire.Request = { model: 'm', messages, max_completion_tokens: r.max };
    if (r.tools.length > 0) {
      chat.tools = r.tools.map((t) => ({
        type: 'function',
        function: {
          name: t.name,
          parameters: { type: 'object', properties: { x: { type: 'string' } } },
          ...(t.description === undefined ? {} : { description: t.description }),
          ...(t.strict ? { strict: true } : {}),
        },
      }));
    }
    if (r.choice !== undefined && r.tools.length > 0) chat.tool_choice = r.choice === 'named' ? { type: 'function', function: { name: 'f' } } : r.choice;
    if (r.parallel && r.tools.length > 0 && r.choice !== undefined && r.choice !== 'none') chat.parallel_tool_calls = false;
    if (r.stop !== undefined) chat.stop = r.stop;
    if (r.stream) Object.assign(chat, { stream: true, stream_options: { include_usage: true } });
    if (r.user !== undefined) chat.user = r.user;
    if (r.temperature !== undefined) chat.temperature = r.temperature;
    return chat;
  });
