// The CLI on a hostile recording: escape sequences in text, names, ids, finish
// reasons and errors are shown escaped, never sent to the terminal; reasoning is shown (dim on a
// colour terminal, left out with --no-reasoning); provider names in the order of the format list.
import { FRAMED_FORMATS, WIRE_FORMATS } from 'rxjs-tool-calls/advanced';
import { anthropicEvent, openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { main, PROVIDERS, runCli, terminalText, type CliIo, type CliProcess } from '../src/cli';

async function run(argv: string[], stdin: string[] = [], color = false): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    stdin: (async function* () {
      yield* stdin;
    })(),
    color,
  };
  const code = await main(argv, io);
  return { code, out, err };
}

const TITLE = '\u001b]0;pwned\u0007'; // set the window title
const CLEAR = '\u001b[2J\u001b[H'; // clear the screen
const CLIPBOARD = '\u001b]52;c;ZWNobyBwd25lZA==\u0007'; // write the clipboard (OSC 52)
const C1_CSI = '\u009b2J'; // the one-character CSI
const BIDI = '\u202egnp.exe'; // right-to-left override
const HOSTILE = `${TITLE}${CLEAR}${CLIPBOARD}${C1_CSI}${BIDI}\r\b\u0000\u007f`;

/** Every character that may not reach the terminal raw (newline and tab are allowed where `lines`). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const RAW_LINES = /[\n\t]/;

const hostileChat = [
  openaiChunk({ role: 'assistant', content: `hello ${HOSTILE}\nline two` }),
  openaiChunk({ reasoning: `thinking ${TITLE}` }),
  openaiChunk({ toolCalls: [{ index: 0, id: `call\u0007${CLEAR}`, name: `get${TITLE}weather`, arguments: `{"city":"${'\\u001b'}]0;x${'\\u0007'}\\u009b"}` }] }),
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: `stop${CLEAR}` }] })}\n\n`,
  openaiDone(),
];

describe('terminalText()', () => {
  it('escapes every control character as \\u00XX (newline and tab kept only for text)', () => {
    expect(terminalText(TITLE)).toBe('\\u001b]0;pwned\\u0007');
    expect(terminalText(`${C1_CSI}${BIDI}`)).toBe('\\u009b2J\\u202egnp.exe');
    expect(terminalText('a\nb\tc\r')).toBe('a\\u000ab\\u0009c\\u000d');
    expect(terminalText('a\nb\tc\r', true)).toBe('a\nb\tc\\u000d');
    expect(terminalText('Zürich 東京 🗼')).toBe('Zürich 東京 🗼');
  });

  it('leaves nothing raw, for any string', () => {
    let all = '';
    for (let c = 0; c < 0x2100; c++) all += String.fromCharCode(c);
    expect(RAW.test(terminalText(all))).toBe(false);
    expect(RAW.test(terminalText(all, true))).toBe(false);
  });
});

describe('the readable output of a hostile recording', () => {
  it('shows text, reasoning, names, ids and finish reasons with their control characters escaped', async () => {
    const { code, out } = await run(['-'], hostileChat);
    expect(code).toBe(0);
    expect(RAW.test(out)).toBe(false);
    expect(out).toContain('text: hello \\u001b]0;pwned\\u0007\\u001b[2J\\u001b[H\\u001b]52;c;ZWNobyBwd25lZA==\\u0007\\u009b2J\\u202egnp.exe\\u000d\\u0008\\u0000\\u007f\nline two\n');
    expect(out).toContain('reasoning: thinking \\u001b]0;pwned\\u0007\n');
    expect(out).toContain('✓ get\\u001b]0;pwned\\u0007weather  id=call\\u0007\\u001b[2J\\u001b[H index=0\n');
    expect(out).toContain('{"city":"\\u001b]0;x\\u0007\\u009b"}'); // JSON escapes, the C1 CSI included
    expect(out).toContain('finish: stop\\u001b[2J\\u001b[H (');
  });

  it('escapes a failed call and a provider error (stderr)', async () => {
    const stdin = [
      openaiChunk({ toolCalls: [{ index: 0, id: `c${TITLE}`, name: `f${CLEAR}`, arguments: '{"a":' }] }),
      `data: {"error":{"message":"over${'\\u001b'}]52;c;AAAA${'\\u0007'}loaded","type":"server_error"}}\n\n`,
    ];
    const { code, out, err } = await run(['-'], stdin);
    expect(code).toBe(1);
    expect(RAW.test(out)).toBe(false);
    expect(RAW.test(err.replace(/\n$/, ''))).toBe(false);
    expect(RAW_LINES.test(err.replace(/\n$/, ''))).toBe(false);
    expect(out).toContain('✗ f\\u001b[2J\\u001b[H  id=c\\u001b]0;pwned\\u0007 index=0  [incomplete]');
    expect(err).toBe('error [provider-error]: openai-chat error (server_error): over\\u001b]52;c;AAAA\\u0007loaded\n');
  });

  it('an unknown format error quoting the hostile start stays escaped', async () => {
    const { code, err } = await run(['-'], [`${TITLE}${CLEAR}not a stream\n\n`]);
    expect(code).toBe(1);
    expect(RAW.test(err.replace(/\n$/, ''))).toBe(false);
    expect(err).toContain('\\u001b');
  });

  it('echoes a hostile command-line value escaped', async () => {
    const { code, err } = await run(['-', '--provider', `x${TITLE}`]);
    expect(code).toBe(2);
    expect(RAW.test(err.replace(/\n/g, ''))).toBe(false);
    expect(err).toContain("unknown provider 'x\\u001b]0;pwned\\u0007'");
  });
});

describe('--json output of a hostile recording', () => {
  it('is JSON whose strings are the originals, with no raw DEL, C1 or bidirectional controls', async () => {
    const { code, out } = await run(['-', '--json'], hostileChat);
    expect(code).toBe(0);
    expect(RAW.test(out.replace(/\n/g, ''))).toBe(false);
    const lines = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string; data?: { name: string; id: string; arguments: { city: string } } });
    expect(lines.find((l) => l.type === 'text-delta')?.text).toBe(`hello ${HOSTILE}\nline two`);
    expect(lines.find((l) => l.type === 'reasoning-delta')?.text).toBe(`thinking ${TITLE}`);
    const call = lines.find((l) => l.type === 'tool-call')?.data;
    expect(call).toMatchObject({ name: `get${TITLE}weather`, id: `call\u0007${CLEAR}`, arguments: { city: '\u001b]0;x\u0007\u009b' } });
  });
});

describe('reasoning', () => {
  const reasoningChat = [
    openaiChunk({ role: 'assistant', reasoning: 'Let me ' }),
    openaiChunk({ reasoning: 'think.' }),
    openaiChunk({ content: 'Done.' }),
    openaiChunk({ finishReason: 'stop' }),
    openaiDone(),
  ];

  it('is shown plain, labelled, before the text', async () => {
    const { out } = await run(['-'], reasoningChat);
    expect(out).toContain('reasoning: Let me think.\ntext: Done.\n');
  });

  it('is dim on a colour terminal: the only escape sequences written are SGR 2 and 22 around it', async () => {
    const { out } = await run(['-'], reasoningChat, true);
    expect(out).toContain('reasoning: \u001b[2mLet me \u001b[22m\u001b[2mthink.\u001b[22m\ntext: Done.\n');
    expect(out.replaceAll('\u001b[2m', '').replaceAll('\u001b[22m', '')).not.toMatch(RAW);
  });

  it('a hostile reasoning text on a colour terminal cannot end the dim or add its own sequences', async () => {
    const { out } = await run(['-'], [openaiChunk({ reasoning: `x\u001b[22m\u001b[31m${TITLE}` }), openaiChunk({ finishReason: 'stop' }), openaiDone()], true);
    expect(out).toContain('reasoning: \u001b[2mx\\u001b[22m\\u001b[31m\\u001b]0;pwned\\u0007\u001b[22m\n');
  });

  it('of Anthropic thinking blocks too', async () => {
    const stdin = [
      anthropicEvent('message_start', { message: { id: 'm', model: 'claude', usage: { input_tokens: 1, output_tokens: 1 } } }),
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Weighing it.' } }),
      anthropicEvent('content_block_stop', { index: 0 }),
      anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }),
      anthropicEvent('message_stop', {}),
    ];
    expect((await run(['-'], stdin)).out).toContain('reasoning: Weighing it.\n');
  });

  it('runCli dims it only when stdout is a terminal and NO_COLOR is unset or empty', async () => {
    const dimmed = async (isTTY: boolean, env: Record<string, string>): Promise<boolean> => {
      let out = '';
      const stdout = Object.assign(new EventEmitter(), { isTTY, write: (t: string) => ((out += t), true) });
      const stderr = Object.assign(new EventEmitter(), { write: () => true });
      const proc = { argv: ['node', 'rxjs-tool-calls', '-'], stdout, stderr, stdin: Readable.from(reasoningChat), env, exit: () => undefined as never } as unknown as CliProcess;
      await runCli(proc, '0.0.0');
      expect(out).toContain('Let me ');
      return out.includes('\u001b[2m');
    };
    expect(await dimmed(true, {})).toBe(true);
    expect(await dimmed(true, { NO_COLOR: '' })).toBe(true);
    expect(await dimmed(true, { NO_COLOR: '1' })).toBe(false);
    expect(await dimmed(false, {})).toBe(false);
  });

  it('--no-reasoning leaves it out, in both outputs', async () => {
    const plain = await run(['-', '--no-reasoning'], reasoningChat);
    expect(plain.out).not.toContain('reasoning');
    expect(plain.out).toContain('text: Done.\n');
    const json = await run(['-', '--json', '--no-reasoning'], reasoningChat);
    expect(json.out).not.toContain('reasoning-delta');
    expect((await run(['-', '--json'], reasoningChat)).out).toContain('"type":"reasoning-delta"');
  });
});

describe('provider names, in the order of the format list everywhere', () => {
  const order = ['auto', ...WIRE_FORMATS.map((format) => format.format), ...FRAMED_FORMATS.map((format) => format.format)];

  it('the --provider values', () => {
    expect(PROVIDERS).toEqual(order);
    expect(order).toEqual([
      'auto',
      'openai-realtime',
      'openai-responses',
      'anthropic',
      'cohere',
      'gemini-interactions',
      'openai-chat',
      'gemini',
      'ai-sdk-ui',
      'ag-ui',
      'bedrock-converse',
      'bedrock-invoke-model',
      'ollama',
    ]);
  });

  it('the usage line, the help and the error for an unknown provider', async () => {
    const help = await run(['--help']);
    expect(help.out).toContain(`[--provider ${order.join('|')}]`);
    expect(help.out).toContain(`--provider NAME    the wire format: ${order.join(', ')}`);
    const bad = await run(['-', '--provider', 'nope']);
    expect(bad.err).toContain(`(expected one of: ${order.join(', ')})`);
    expect(bad.err).toContain(`[--provider ${order.join('|')}]`);
  });
});
