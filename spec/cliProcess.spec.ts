/**
 * The `rxjs-tool-calls` command as a user runs it: the real `bin/` script in a child process, over
 * `src/cli.ts` bundled as the package's `dist/cli.cjs` (in a temporary directory, next to a
 * `package.json` carrying the version).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const root = path.resolve(__dirname, '..');
let dir = '';
let bin = '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-cli-'));
  mkdirSync(path.join(dir, 'bin'));
  await build({ entryPoints: [path.join(root, 'src/cli.ts')], outfile: path.join(dir, 'dist/cli.cjs'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
  bin = path.join(dir, 'bin/rxjs-tool-calls.cjs');
  copyFileSync(path.join(root, 'bin/rxjs-tool-calls.cjs'), bin);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'rxjs-tool-calls', version: '9.8.7-test' }));
  const big = [openaiChunk({ role: 'assistant' }), ...Array.from({ length: 20_000 }, (_, i) => openaiChunk({ content: `word ${i} ` })), openaiChunk({ finishReason: 'stop' }), openaiDone()];
  writeFileSync(path.join(dir, 'big.sse'), big.join(''));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run a command line (`file` then `args`) with `stdin` piped in (or nothing), within 20 s. */
function run(file: string, args: ReadonlyArray<string>, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin ?? '');
  });
}
const cli = (args: ReadonlyArray<string>, stdin?: string) => run(process.execPath, [bin, ...args], stdin);

describe('rxjs-tool-calls (child process)', () => {
  it('a closed pipe (--json | head -1) exits quietly: no EPIPE, exit 0', async () => {
    const result = await run('bash', ['-c', `"${process.execPath}" "${bin}" big.sse --json | head -1; echo "cli-exit=\${PIPESTATUS[0]}" >&2`]);
    expect(JSON.parse(result.stdout.trim())).toEqual({ type: 'text-delta', choice: 0, text: 'word 0 ' });
    expect(result.stderr).toBe('cli-exit=0\n');
  });

  it('no arguments on a terminal prints the usage instead of waiting (exit 2)', async () => {
    const result = await run('script', ['-qec', `"${process.execPath}" "${bin}"`, '/dev/null']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('usage: rxjs-tool-calls');
  });

  it('no arguments with piped input reads it', async () => {
    const result = await cli([], [openaiChunk({ content: 'hi', finishReason: 'stop' }), openaiDone()].join(''));
    expect([result.code, result.stdout, result.stderr]).toEqual([0, 'text: hi\nfinish: stop (stop)\n', '']);
  });

  it('an unknown option or provider says why, on stderr, and exits 2', async () => {
    const flag = await cli(['--jsn']);
    expect([flag.code, flag.stdout]).toEqual([2, '']);
    expect(flag.stderr).toMatch(/^rxjs-tool-calls: unknown option '--jsn'\nusage: /);
    const provider = await cli(['-', '--provider', 'openai']);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toContain(
      "unknown provider 'openai' (expected one of: auto, openai-responses, anthropic, cohere, openai-chat, gemini, ai-sdk-ui, ag-ui, bedrock-converse, bedrock-invoke-model, ollama)",
    );
    const missing = await cli(['--provider']);
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([2, 'rxjs-tool-calls: --provider needs a value']);
    const two = await cli(['a.sse', 'b.sse']);
    expect([two.code, two.stderr.split('\n')[0]]).toEqual([2, 'rxjs-tool-calls: one input at a time (got 2: a.sse b.sse)']);
  });

  it('-h / --help print the help on stdout (exit 0); --version the package version', async () => {
    for (const flag of ['-h', '--help']) {
      const help = await cli([flag]);
      expect([help.code, help.stderr]).toEqual([0, '']);
      expect(help.stdout).toMatch(/^usage: rxjs-tool-calls .*\n[\s\S]*--provider NAME[\s\S]*Exit codes/);
    }
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: '9.8.7-test\n', stderr: '' });
  });

  it('stream errors go to stderr; stdout keeps what was read (exit 1)', async () => {
    const result = await cli(['-'], [openaiChunk({ content: 'partial' }), 'data: {"error":{"message":"overloaded","type":"server_error"}}\n\n'].join(''));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('text: partial\n');
    expect(result.stderr).toBe('error [provider-error]: openai-chat error (server_error): overloaded\n');
    const missing = await cli(['nope.sse']);
    expect([missing.code, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toMatch(/^error: ENOENT: no such file or directory, open 'nope.sse'\n$/);
  });

  it('--json: the error is the last stdout line and also a line on stderr', async () => {
    const result = await cli(['-', '--json'], '<html>502</html>');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ type: 'error', error: { code: 'unknown-format' } });
    expect(result.stderr).toMatch(/^error \[unknown-format\]: /);
  });

  it('a JSON body that is not a stream is read as the one response it is; a JSON error body as its error', async () => {
    const result = await cli([], JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] }));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('hi');
    const apiError = await cli([], JSON.stringify({ error: { message: 'Invalid API key' } }));
    expect(apiError.code).toBe(1);
    expect(apiError.stderr).toContain('Invalid API key');
  });

  it('usage: one line, with the total computed when the provider omits it (readable and --json)', async () => {
    const stdin = [
      anthropicEvent('message_start', { message: { id: 'm', model: 'claude', usage: { input_tokens: 10, output_tokens: 1 } } }),
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ok' } }),
      anthropicEvent('content_block_stop', { index: 0 }),
      anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }),
      anthropicEvent('message_stop', {}),
    ].join('');
    const readable = await cli(['-'], stdin);
    expect(readable.stdout.match(/^usage: .*$/gm)).toEqual(['usage: input 10, output 7, total 17']);
    const json = await cli(['-', '--json'], stdin);
    const usage = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; totalTokens?: number })
      .filter((l) => l.type === 'usage');
    expect(usage.map((u) => u.totalTokens)).toEqual([17]);
    const chat = await cli(['-'], [openaiChunk({ content: 'x', finishReason: 'stop' }), openaiChunk({ usage: { prompt_tokens: 4, completion_tokens: 5 } }), openaiDone()].join(''));
    expect(chat.stdout).toContain('usage: input 4, output 5, total 9\n');
  });
});
