/**
 * Anthropic's message lifecycle as servers and intermediaries really send it: a message that starts
 * whole, a second generation spliced into the response, blocks that are stopped twice, restarted or
 * never stopped, indices with gaps, and stop reasons that disagree with the blocks. Each case is our
 * own small stream shaped like the one in the named public report; see `helpers.ts`.
 */
import { lastValueFrom, of, toArray } from 'rxjs';
import { isToolStreamError, retryStream, type StreamEvent, toolCalls } from 'rxjs-tool-calls';
import { anthropicEvent } from 'rxjs-tool-calls/marbles';
import { failed, ok, outcome, runWire } from './helpers';

const start = (id = 'msg_rw', extra: Record<string, unknown> = {}): string =>
  anthropicEvent('message_start', {
    message: { id, type: 'message', role: 'assistant', content: [], model: 'claude-test', stop_reason: null, usage: { input_tokens: 25, output_tokens: 1 }, ...extra },
  });
const toolStart = (index: number, id: string, name: string, input: Record<string, unknown> = {}): string =>
  anthropicEvent('content_block_start', { index, content_block: { type: 'tool_use', id, name, input } });
const textStart = (index: number): string => anthropicEvent('content_block_start', { index, content_block: { type: 'text', text: '' } });
const text = (index: number, piece: string): string => anthropicEvent('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
const json = (index: number, partial: string): string => anthropicEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
const stop = (index: number): string => anthropicEvent('content_block_stop', { index });
const stopReason = (reason: string): string => anthropicEvent('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 40 } });
const end = anthropicEvent('message_stop');

describe('real-world Anthropic message lifecycles', () => {
  it('vercel/ai#18331: an intermediary splices a retried generation into the response (a second message_start while the first is open): truncated, the cut call incomplete, nothing of the second merged', () => {
    const run = runWire(
      start('msg_first'),
      toolStart(0, 'toolu_done', 'list'),
      json(0, '{"dir":"."}'),
      stop(0),
      toolStart(1, 'toolu_cut', 'read'),
      json(1, '{"path":"RE'),
      start('msg_second'),
      toolStart(0, 'toolu_second', 'read'),
      json(0, '{"path":"README.md"}'),
      stop(0),
      stopReason('tool_use'),
      end,
    );
    // What completed before the splice stays; the call the splice cut is incomplete (never malformed-arguments).
    expect(run).toEqual(outcome([ok('toolu_done', 'list', { dir: '.' }), failed('incomplete', 'toolu_cut', 'read', '{"path":"RE', 'truncated')], null, 'truncated'));
    expect(run.error).toMatchObject({ code: 'truncated', provider: 'anthropic', detail: expect.stringContaining('msg_second') });
  });

  it('vercel/ai#18331: what a client does with the spliced response: ask for the turn again (retryStream with restart: true and a shouldRetry that takes truncated)', async () => {
    const spliced = [start('msg_first'), toolStart(0, 'toolu_done', 'list'), json(0, '{"dir":"."}'), stop(0), toolStart(1, 'toolu_cut', 'read'), json(1, '{"path":"RE'), start('msg_second')];
    const again = [start('msg_again'), toolStart(0, 'toolu_new', 'read'), json(0, '{"path":"README.md"}'), stop(0), stopReason('tool_use'), end];
    const attempts = [spliced.join(''), again.join('')];
    const seen: string[] = [];
    const events = await lastValueFrom(
      retryStream((context) => of(attempts[context.attempt - 1] ?? ''), {
        restart: true,
        backoff: () => 0,
        shouldRetry: (error) => {
          seen.push(isToolStreamError(error) ? error.code : 'other');
          return isToolStreamError(error, 'truncated');
        },
      }).pipe(toArray()),
    );
    expect(seen).toEqual(['truncated']);
    expect(events.filter((e: StreamEvent) => e.type === 'restart')).toHaveLength(1);
    const results = await lastValueFrom(of(...events).pipe(toolCalls(), toArray()));
    // The first attempt's completed call was emitted before the splice and stays emitted; its cut call is incomplete; the
    // turn asked again gives its own call; nothing of the spliced second generation is read.
    expect(results.map((r) => (r.success ? [r.data.id, 'ok'] : [r.error.toolCall?.id, r.error.code]))).toEqual([
      ['toolu_done', 'ok'],
      ['toolu_cut', 'incomplete'],
      ['toolu_new', 'ok'],
    ]);
  });

  it('vercel/ai#18402: the same message_start announced twice (same id) is one message', () => {
    const run = runWire(start('msg_dup'), start('msg_dup'), toolStart(0, 'toolu_1', 'get_time', { tz: 'CET' }), stop(0), stopReason('tool_use'), end);
    expect(run).toEqual(outcome([ok('toolu_1', 'get_time', { tz: 'CET' })], 'tool-calls/tool_use'));
  });

  it('vercel/ai#11262: programmatic tool calling sends a deferred tool_use whole in message_start.content, then message_stop with nothing between', () => {
    const caller = { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' };
    const run = runWire(
      start('msg_deferred', {
        content: [{ type: 'tool_use', id: 'toolu_die', name: 'rollDie', input: { player: 'player2' }, caller }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 0, output_tokens: 0 },
      }),
      end,
    );
    expect(run).toEqual(outcome([ok('toolu_die', 'rollDie', { player: 'player2' })], 'tool-calls/tool_use'));
  });

  it('BerriAI/litellm#37273: a translated stream sends content_block_stop twice for one tool_use block: one call, run once', () => {
    const run = runWire(start(), toolStart(0, 'call_bews', 'Read'), json(0, '{"file_path":"a.ts"}'), stop(0), stop(0), stopReason('tool_use'), end);
    expect(run).toEqual(outcome([ok('call_bews', 'Read', { file_path: 'a.ts' })], 'tool-calls/tool_use'));
  });

  it('NousResearch/hermes-agent#45908: content block indices with gaps (0, 2, 5) are still one block each', () => {
    const run = runWire(
      start(),
      textStart(0),
      text(0, 'Reading both.'),
      stop(0),
      toolStart(2, 'toolu_a', 'read'),
      json(2, '{"path":"a"}'),
      stop(2),
      toolStart(5, 'toolu_b', 'read'),
      json(5, '{"path":"b"}'),
      stop(5),
      stopReason('tool_use'),
      end,
    );
    expect(run).toEqual(outcome([ok('toolu_a', 'read', { path: 'a' }), ok('toolu_b', 'read', { path: 'b' })], 'tool-calls/tool_use', 'completed', 'Reading both.'));
  });

  it('farion1231/cc-switch#2303: a proxy keeps two tool_use blocks open and interleaves their input deltas', () => {
    const run = runWire(
      start(),
      toolStart(0, 'toolu_a', 'Bash'),
      toolStart(1, 'toolu_b', 'Bash'),
      json(0, '{"command":"ls'),
      json(1, '{"command":"pw'),
      json(0, ' -la"}'),
      json(1, 'd"}'),
      stop(0),
      stop(1),
      stopReason('tool_use'),
      end,
    );
    expect(run).toEqual(outcome([ok('toolu_a', 'Bash', { command: 'ls -la' }), ok('toolu_b', 'Bash', { command: 'pwd' })], 'tool-calls/tool_use'));
  });

  it('vercel/ai#18331: a block restarted at the index of one the wire never stopped ends the first incomplete (not-closed), not malformed-arguments', () => {
    const run = runWire(
      start(),
      toolStart(0, 'toolu_a', 'write'),
      json(0, '{"path":"a.txt","content":"hel'),
      toolStart(0, 'toolu_b', 'write'),
      json(0, '{"path":"b.txt","content":""}'),
      stop(0),
      stopReason('tool_use'),
      end,
    );
    expect(run).toEqual(
      outcome([failed('incomplete', 'toolu_a', 'write', '{"path":"a.txt","content":"hel', 'not-closed'), ok('toolu_b', 'write', { path: 'b.txt', content: '' })], 'tool-calls/tool_use'),
    );
  });

  it('XiaomiMiMo/MiMo#63: an Anthropic-compatible endpoint says stop_reason "tool_use" but writes the call as text: missing-tool-calls, the text kept, nothing run', () => {
    const pseudo = '<tool_call><function=ListWorkItems></function></tool_call>';
    const run = runWire(start(), textStart(0), text(0, pseudo), stop(0), stopReason('tool_use'), end);
    expect(run).toEqual(outcome([failed('missing-tool-calls', 'gen_0', '', '')], 'tool-calls/tool_use', 'completed', pseudo));
  });

  it('maximhq/bifrost#4065: an Anthropic ingress reports stop_reason "end_turn" for a tool_use block: the call still comes out, whole', () => {
    const run = runWire(start(), toolStart(0, 'call_az', 'get_weather'), json(0, '{"city":"Lima"}'), stop(0), stopReason('end_turn'), end);
    expect(run).toEqual(outcome([ok('call_az', 'get_weather', { city: 'Lima' })], 'stop/end_turn'));
  });

  it('maximhq/bifrost#4900: an Anthropic-compatible egress passes the chat reason "tool_calls" through as stop_reason: read as tool-calls', () => {
    const run = runWire(start(), toolStart(0, 'call_az', 'get_weather'), json(0, '{"city":"Lima"}'), stop(0), stopReason('tool_calls'), end);
    expect(run).toEqual(outcome([ok('call_az', 'get_weather', { city: 'Lima' })], 'tool-calls/tool_calls'));
  });
});
