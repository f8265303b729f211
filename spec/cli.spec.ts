import { resolve } from 'node:path';
import { ToolStreamError } from 'rxjs-tool-calls';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { main, type CliIo } from '../src/cli';
import { loadOwnFixtures } from './helpers/fixtures';

const EXAMPLE = resolve(__dirname, '../examples/weather.sse');

async function run(argv: string[], stdin: Array<string | Uint8Array> = []): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    stdin: (async function* () {
      yield* stdin;
    })(),
  };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('rxjs-tool-calls CLI', () => {
  it('prints text, each tool call, the finish reason and usage of the bundled example', async () => {
    const { code, out } = await run([EXAMPLE]);
    expect(code).toBe(0);
    expect(out).toContain('text: Let me check the weather in Zürich and the time in Tōkyō.\n');
    expect(out).toContain('✓ get_weather  id=call_wx_7Qm2 index=0\n  {"city":"Zürich","units":"celsius"}\n');
    expect(out).toContain('✓ get_time  id=call_tm_9Kd4 index=1\n  {"tz":"Asia/Tokyo","label":"東京 🗼"}\n');
    expect(out).toContain('finish: tool_calls (tool-calls)\n');
    expect(out).toContain('usage: input 82, output 41, total 123\n');
    expect(out.indexOf('✓ get_time')).toBeLessThan(out.indexOf('finish:'));
  });

  it('--json prints one JSON object per line', async () => {
    const { code, out } = await run([EXAMPLE, '--json']);
    expect(code).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; success?: boolean; data?: { name: string } });
    expect(lines.filter((l) => l.type === 'tool-call').map((l) => l.data?.name)).toEqual(['get_weather', 'get_time']);
    expect(lines.some((l) => l.type === 'usage')).toBe(true);
  });

  it('reads standard input with -, any wire format', async () => {
    const stdin = [
      anthropicEvent('message_start', { message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 3, output_tokens: 1 } } }),
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"q":"rx' } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: 'js"}' } }),
      anthropicEvent('content_block_stop', { index: 0 }),
      anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
      anthropicEvent('message_stop', {}),
    ];
    const { code, out } = await run(['-'], stdin);
    expect(code).toBe(0);
    expect(out).toContain('✓ lookup  id=toolu_1 index=0\n  {"q":"rxjs"}\n');
    expect(out).toContain('finish: tool_use (tool-calls)');
  });

  it('reads a recording of Gemini’s Interactions API (auto-detected, and with --provider gemini-interactions)', async () => {
    const fixture = loadOwnFixtures().find((f) => f.name === 'gemini-interactions/thought-text-and-two-streamed-calls');
    if (fixture === undefined) throw new Error('missing fixture');
    const stdin = [new TextDecoder().decode(fixture.bytes)];
    for (const args of [['-'], ['-', '--provider', 'gemini-interactions']]) {
      const { code, out } = await run(args, stdin);
      expect(code).toBe(0);
      expect(out).toContain('✓ get_weather  id=k3v9qz1a index=2\n  {"city":"Zürich","units":"celsius"}\n');
      expect(out).toContain('✓ get_weather  id=p8m2wd7c index=3\n');
      expect(out).toContain('text: Checking Zürich and São Paulo…');
      expect(out).toContain('finish: requires_action (tool-calls)');
    }
  });

  it('prints a failed call on stdout and the stream error on stderr, and exits 1', async () => {
    const stdin = [openaiChunk({ toolCalls: [{ index: 0, id: 'c1', name: 'f', arguments: '{"a":' }] }), 'data: {"error":{"message":"overloaded","type":"server_error"}}\n\n'];
    const { code, out, err } = await run(['-'], stdin);
    expect(code).toBe(1);
    expect(out).toContain('✗ f  id=c1 index=0  [incomplete]');
    expect(out).not.toContain('error [');
    expect(err).toBe('error [provider-error]: openai-chat error (server_error): overloaded\n');
  });

  it('--json reports the error as a line', async () => {
    const { code, out } = await run(['-', '--json'], ['<html>502 Bad Gateway</html>']);
    expect(code).toBe(1);
    const last = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { type: string; error: { code: string; start: string } };
    expect(last.type).toBe('error');
    expect(last.error.code).toBe('unknown-format');
    expect(last.error.start).toContain('502 Bad Gateway');
  });

  it('--provider skips detection; bad usage exits 2', async () => {
    const ok = await run(['-', '--provider', 'openai-chat'], [openaiChunk({ content: 'hi', finishReason: 'stop' }), openaiDone()]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('text: hi');
    const bad = await run(['-', '--provider', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('usage:');
    expect((await run(['a.sse', 'b.sse'])).code).toBe(2);
    const help = await run(['--help']);
    expect([help.code, help.out.startsWith('usage:')]).toEqual([0, true]);
  });
});

describe('ToolStreamError.toJSON()', () => {
  it('keeps the cause, reduced to its name and message', async () => {
    const error = new ToolStreamError('tool-failed', { toolCall: { id: 'c', name: 'f', index: 0, choice: 0, rawArguments: '{}' } }, { cause: new RangeError('out of range') });
    expect(error.toJSON()).toMatchObject({ code: 'tool-failed', cause: { name: 'RangeError', message: 'out of range' } });
  });
});
