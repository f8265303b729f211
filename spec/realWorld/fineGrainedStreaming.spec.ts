/**
 * Anthropic's fine-grained (eager) tool streaming, which `toolSpecs(tools, 'anthropic')` turns on: the
 * input streams without Anthropic's buffering or JSON validation, so it is live — and may be invalid
 * JSON, or cut by `max_tokens`. Each is a typed result, never a crash, and never ends its siblings.
 * Each case is our own small stream shaped like the one in the named public report; see `helpers.ts`.
 */
import { from, last, lastValueFrom, toArray } from 'rxjs';
import { partialToolCalls, readStreamEvents } from 'rxjs-tool-calls';
import { anthropicEvent, toBytes } from 'rxjs-tool-calls/marbles';
import { z } from 'zod';
import { awsEvent, concatBytes } from '../helpers/framing';
import { failed, ok, outcome, runBytes, runWire } from './helpers';

const start = anthropicEvent('message_start', {
  message: { id: 'msg_fg', type: 'message', role: 'assistant', content: [], model: 'claude-test', stop_reason: null, usage: { input_tokens: 25, output_tokens: 1 } },
});
const toolStart = (index: number, id: string, name: string): string => anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } });
const json = (index: number, partial: string): string => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
const stop = (index: number): string => anthropicEvent('content_block_stop', { index });
const stopReason = (reason: string): string => anthropicEvent('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 4096 } });
const end = anthropicEvent('message_stop');

describe('real-world fine-grained tool streaming', () => {
  it('leohenon/pi-anthropic-oauth#11: a complete object followed by trailing bytes is malformed-arguments (no crash), and the sibling call is whole', () => {
    const run = runWire(
      start,
      toolStart(0, 'toolu_read', 'read'),
      json(0, '{"path":"src/a.ts","offset":1}'),
      stop(0),
      toolStart(1, 'toolu_bad', 'read'),
      json(1, '{"path":"src/b.ts"}'),
      json(1, '"}'),
      stop(1),
      stopReason('tool_use'),
      end,
    );
    expect(run).toEqual(outcome([ok('toolu_read', 'read', { path: 'src/a.ts', offset: 1 }), failed('malformed-arguments', 'toolu_bad', 'read', '{"path":"src/b.ts"}"}')], 'tool-calls/tool_use'));
  });

  it("vercel/ai#17179: Bedrock InvokeModel with the fine-grained beta streams Claude's input unvalidated too: the unparseable call is malformed-arguments, its sibling whole", () => {
    // InvokeModel wraps each of Anthropic's events, base64, in an event-stream `chunk` frame.
    const chunk = (type: string, body: Record<string, unknown> = {}): Uint8Array => awsEvent('chunk', { bytes: Buffer.from(JSON.stringify({ type, ...body })).toString('base64') });
    const run = runBytes(
      concatBytes([
        chunk('message_start', {
          message: { id: 'msg_bdrk', type: 'message', role: 'assistant', content: [], model: 'claude-test', stop_reason: null, usage: { input_tokens: 25, output_tokens: 1 } },
        }),
        chunk('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_bdrk_a', name: 'write', input: {} } }),
        chunk('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"a.md","text":"line one\nline two' } }),
        chunk('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '}' } }),
        chunk('content_block_stop', { index: 0 }),
        chunk('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_bdrk_b', name: 'write', input: {} } }),
        chunk('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":"b.md","text":"ok"}' } }),
        chunk('content_block_stop', { index: 1 }),
        chunk('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 40 } }),
        chunk('message_stop'),
      ]),
    );
    expect(run).toEqual(
      outcome([failed('malformed-arguments', 'toolu_bdrk_a', 'write', '{"path":"a.md","text":"line one\nline two}'), ok('toolu_bdrk_b', 'write', { path: 'b.md', text: 'ok' })], 'tool-calls/tool_use'),
    );
  });

  it('leohenon/pi-anthropic-oauth#12: mis-escaped input where one field swallowed the rest still parses, and the schema refuses it (invalid-arguments, never run)', async () => {
    // `edits: [{ oldText, newText }]` flattened into a top-level `oldText` that swallowed the rest as text.
    const text = JSON.stringify({ oldText: 'a","newText":"b"}],"path":"x.ts"' });
    const bytes = toBytes([start, toolStart(0, 'toolu_edit', 'edit'), json(0, text.slice(0, 20)), json(0, text.slice(20)), stop(0), stopReason('tool_use'), end].join(''));
    const tools = { edit: z.object({ path: z.string(), edits: z.array(z.object({ oldText: z.string(), newText: z.string() })) }) };
    const values = await lastValueFrom(from([bytes]).pipe(readStreamEvents(), partialToolCalls({ tools }), toArray()));
    const result = values.at(-1)?.result;
    expect(result?.success).toBe(false);
    expect(result?.error?.code).toBe('invalid-arguments');
  });

  it('anthropics/anthropic-sdk-python#794: the input cut by max_tokens mid-parameter shows what came while it streamed, and ends incomplete (length) with the partial text', async () => {
    const wire = [start, toolStart(0, 'toolu_essay', 'write_essay'), json(0, '{"title": "The Ocean", "body": "Waves'), json(0, ' roll in and'), stopReason('max_tokens'), end];
    const run = runWire(...wire);
    expect(run).toEqual(outcome([failed('incomplete', 'toolu_essay', 'write_essay', '{"title": "The Ocean", "body": "Waves roll in and', 'length')], 'length/max_tokens'));
    const shown = await lastValueFrom(from([toBytes(wire.join(''))]).pipe(readStreamEvents(), partialToolCalls(), toArray()));
    expect(shown.map((p) => p.arguments)).toContainEqual({ title: 'The Ocean', body: 'Waves roll in and' });
    const final = await lastValueFrom(from([toBytes(wire.join(''))]).pipe(readStreamEvents(), partialToolCalls(), last()));
    expect(final.result).toMatchObject({ success: false, error: { code: 'incomplete', reason: 'length' } });
  });

  it('router-for-me/CLIProxyAPI#4675: without eager streaming, a long parameter cut by max_tokens never arrives; what did arrive is kept and the call is incomplete', () => {
    const run = runWire(start, toolStart(0, 'toolu_w', 'write_file'), json(0, '{"path": "notes.md"'), stopReason('max_tokens'), end);
    expect(run).toEqual(outcome([failed('incomplete', 'toolu_w', 'write_file', '{"path": "notes.md"', 'length')], 'length/max_tokens'));
  });
});
