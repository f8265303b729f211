/**
 * The inspector command: `rxjs-tool-calls [file | -] [--json] [--no-reasoning] [--provider NAME]`.
 *
 * Reads a recorded SSE response (a file or standard input) and prints every tool call result, the
 * text, the reasoning, the finish reasons and the usage, readably or as JSON lines.
 *
 * The file is untrusted: everything it carries (text, reasoning, names, ids, finish reasons, error
 * messages) reaches the terminal with its control characters escaped as `\u001b` (C0 but the text's
 * newlines and tabs, DEL, C1, and the bidirectional-text controls), so no escape sequence in it can
 * set the window title, clear the screen or write the clipboard (OSC 52).
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { filter, from, map, type Observable } from 'rxjs';
import { eventsAndResults } from './operators/eventsAndResults';
import { isToolStreamError } from './errors';
import type { StreamEvent, UsageEvent } from './events';
import { readStreamEvents } from './read/readStreamEvents';
import type { ToolCallResult } from './result';
import type { ProviderOption } from './providers/auto';
import { FRAMED_FORMATS, WIRE_FORMATS } from './providers/list';

/** What the CLI writes to; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stdin: AsyncIterable<Uint8Array | string>;
  /** Standard input is a terminal: without a file argument, print the usage instead of waiting. */
  readonly stdinIsTTY?: boolean;
  /** Standard output is a terminal that takes colour: reasoning text is shown dim. Default `false` (plain). */
  readonly color?: boolean;
  /** The package version, for `--version`. */
  readonly version?: string;
}

type Item = { readonly kind: 'event'; readonly event: StreamEvent } | { readonly kind: 'result'; readonly result: ToolCallResult };

/** The `--provider` values: `auto`, then the wire formats in the order of their list (`providers/list.ts`), everywhere the CLI names them. */
export const PROVIDERS: ReadonlyArray<ProviderOption> = ['auto', ...WIRE_FORMATS.map((format) => format.format), ...FRAMED_FORMATS.map((format) => format.format)];

const USAGE = `usage: rxjs-tool-calls [file | -] [--json] [--no-reasoning] [--provider ${PROVIDERS.join('|')}]`;

const HELP = `${USAGE}

Reads a recorded LLM response stream (SSE) from a file, or from standard input with - (or when
input is piped), and prints its text, its reasoning (dim on a colour terminal), each tool call
(parsed arguments or a typed error), the tool results and approvals a UI stream carries, the
finish reasons and the token usage. Control characters from the stream are shown escaped
(\\u001b), never sent to the terminal.

  --json             one JSON object per line: events, tool-call results, then the usage and
                     any error
  --no-reasoning     leave the reasoning text out
  --provider NAME    the wire format: ${PROVIDERS.join(', ')} (default auto: recognised from
                     the first event)
  -h, --help         this help
  --version          the version

Exit codes: 0 the stream was read, 1 the stream failed (the error is on stderr), 2 bad usage.
`;

/** The parsed command line, or why it is wrong. */
type Args =
  | { readonly kind: 'run'; readonly file: string | undefined; readonly json: boolean; readonly reasoning: boolean; readonly provider: ProviderOption }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'bad'; readonly reason: string };

function parseArgs(argv: ReadonlyArray<string>): Args {
  let json = false;
  let reasoning = true;
  let provider: string = 'auto';
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    if (arg === '--version') return { kind: 'version' };
    if (arg === '--json') json = true;
    else if (arg === '--no-reasoning') reasoning = false;
    else if (arg === '--provider' || arg.startsWith('--provider=')) {
      const value = arg === '--provider' ? argv[++i] : arg.slice('--provider='.length);
      if (value === undefined || value === '') return { kind: 'bad', reason: '--provider needs a value' };
      provider = value;
    } else if (arg === '--') {
      files.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') return { kind: 'bad', reason: `unknown option '${terminalText(arg)}'` };
    else files.push(arg);
  }
  const known = PROVIDERS.find((p) => p === provider);
  if (known === undefined) return { kind: 'bad', reason: `unknown provider '${terminalText(provider)}' (expected one of: ${PROVIDERS.join(', ')})` };
  if (files.length > 1) return { kind: 'bad', reason: `one input at a time (got ${files.length}: ${terminalText(files.join(' '))})` };
  return { kind: 'run', file: files[0], json, reasoning, provider: known };
}

/**
 * Characters that drive a terminal rather than print: C0 controls, DEL, C1 controls (U+0080–U+009F,
 * among them the one-character CSI and OSC), and the bidirectional-text controls (which reorder
 * what is shown). `keepLines`: newline and tab are left as they are (in text and reasoning).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escapeChar = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` safe to write to a terminal: every control character (see above) written as its
 * `\u001b`-style escape, so a file's `ESC ] 0 ;` (window title), `ESC [ 2 J` (clear screen) or
 * `ESC ] 52 ;` (clipboard) is shown, not obeyed.
 *
 * @param text Anything from the stream (text, a name, an id, an error message).
 * @param keepLines Leave newlines and tabs as they are (text and reasoning); default `false` (one line).
 */
export function terminalText(text: string, keepLines = false): string {
  return text.replace(keepLines ? CONTROL_BUT_LINES : CONTROL, escapeChar);
}

/** One JSON line whose strings carry no raw DEL, C1 or bidirectional controls either (`JSON.stringify` escapes only C0); still the same JSON. */
function jsonLine(value: unknown): string {
  return `${(JSON.stringify(value) ?? 'null').replace(CONTROL, escapeChar)}\n`;
}

/** The usage counts with `totalTokens` computed (input + output) when the provider left it out. */
function withTotal(event: UsageEvent): UsageEvent {
  if (event.totalTokens !== undefined || event.inputTokens === undefined || event.outputTokens === undefined) return event;
  return { ...event, totalTokens: event.inputTokens + event.outputTokens };
}

function errorLine(error: unknown): string {
  if (isToolStreamError(error)) return `error [${error.code}]: ${terminalText(error.message)}\n`;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `error: ${terminalText(message)}${typeof code === 'string' && !(error instanceof Error && error.message.includes(code)) ? ` (${terminalText(code)})` : ''}\n`;
}

function toJson(item: Item): unknown {
  if (item.kind === 'result') {
    const r = item.result;
    return r.success ? { type: 'tool-call', success: true, data: r.data } : { type: 'tool-call', success: false, error: r.error.toJSON() };
  }
  return item.event;
}

/** Dim on, and back to normal intensity (SGR 2 / 22). */
const DIM = '\u001b[2m';
const UNDIM = '\u001b[22m';

/** Text, reasoning and results as they come; the finish reasons and the (last, most complete) usage once, at the end. */
class ReadablePrinter {
  /** The running section (`text` / `reasoning` of one choice) whose line is open. */
  private section: string | undefined;
  private readonly finishes: string[] = [];
  private usage: string | undefined;
  constructor(private readonly io: CliIo) {}

  private summary(): void {
    this.endSection();
    for (const line of this.finishes) this.io.stdout(line);
    if (this.usage !== undefined) this.io.stdout(this.usage);
    this.finishes.length = 0;
    this.usage = undefined;
  }

  private endSection(): void {
    if (this.section !== undefined) this.io.stdout('\n');
    this.section = undefined;
  }

  /** A piece of `kind` text of `choice`: a labelled line starts when the section changes. */
  private piece(kind: 'text' | 'reasoning', choice: number, text: string): void {
    const section = `${kind}[${choice}]`;
    if (this.section !== section) {
      this.endSection();
      this.io.stdout(choice ? `${kind}[${choice}]: ` : `${kind}: `);
      this.section = section;
    }
    const safe = terminalText(text, true);
    if (kind === 'reasoning' && this.io.color === true && safe !== '') this.io.stdout(`${DIM}${safe}${UNDIM}`);
    else this.io.stdout(safe);
  }

  print(item: Item): void {
    if (item.kind === 'result') {
      this.endSection();
      const r = item.result;
      if (r.success) {
        const d = r.data;
        this.io.stdout(`✓ ${terminalText(d.name)}  id=${terminalText(d.id)} index=${d.index}${d.choice ? ` choice=${d.choice}` : ''}\n  ${jsonLine(d.arguments)}`);
      } else {
        const e = r.error;
        this.io.stdout(`✗ ${terminalText(e.toolCall.name) || '(unnamed)'}  id=${terminalText(e.toolCall.id)} index=${e.toolCall.index}  [${e.code}]\n  ${terminalText(e.message)}\n`);
      }
      return;
    }
    const e = item.event;
    switch (e.type) {
      case 'text-delta':
        this.piece('text', e.choice, e.text);
        return;
      case 'reasoning-delta':
        this.piece('reasoning', e.choice, e.text);
        return;
      case 'finish':
        this.finishes.push(`finish${e.choice ? `[${e.choice}]` : ''}: ${terminalText(String(e.rawReason))} (${e.reason})\n`);
        return;
      case 'tool-result': {
        this.endSection();
        const what = e.denied === true ? 'denied' : e.error !== undefined ? `error: ${terminalText(e.error)}` : jsonLine(e.output).trimEnd();
        this.io.stdout(`→ ${e.preliminary === true ? 'progress' : 'result'} of id=${terminalText(e.id)}  ${what}\n`);
        return;
      }
      case 'tool-approval-request':
        this.endSection();
        this.io.stdout(`? approval asked for id=${terminalText(e.id)}  approval=${terminalText(e.approvalId)}\n`);
        return;
      case 'usage': {
        const u = withTotal(e);
        this.usage = `usage: input ${count(u.inputTokens)}, output ${count(u.outputTokens)}, total ${count(u.totalTokens)}\n`;
        return;
      }
      default:
        return;
    }
  }

  finish(): void {
    this.summary();
  }

  error(error: unknown): void {
    this.summary();
    this.io.stderr(errorLine(error));
  }
}

/** A token count as shown: `?` when unknown. */
function count(value: number | undefined): string {
  return value === undefined ? '?' : terminalText(String(value));
}

/** Everything the CLI prints: text, reasoning (unless `reasoning` is `false`), finishes and usage as they come, each call's result when it completes. */
export function inspect(bytes$: Observable<Uint8Array | string>, provider: ProviderOption, reasoning = true): Observable<Item> {
  const shown = new Set<string>(['text-delta', 'finish', 'usage', 'tool-result', 'tool-approval-request', ...(reasoning ? ['reasoning-delta'] : [])]);
  return bytes$.pipe(
    readStreamEvents({ provider }),
    eventsAndResults(),
    filter((item) => item.type === 'result' || shown.has(item.event.type)),
    map((item): Item => (item.type === 'result' ? { kind: 'result', result: item.result } : { kind: 'event', event: item.event })),
  );
}

/**
 * Run the command; resolves to the exit code (0 ok, 1 the stream failed, 2 bad usage). Errors go to
 * stderr (with `--json` the error is also the last stdout line, as JSON); with `--json` the usage is
 * one line at the end (the last report, total computed when missing), not one per report.
 */
export function main(argv: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const done = (write: (text: string) => void, text: string, code: number): Promise<number> => {
    write(text);
    return Promise.resolve(code);
  };
  if (args.kind === 'help') return done(io.stdout, HELP, 0);
  if (args.kind === 'version') return done(io.stdout, `${io.version ?? 'unknown'}\n`, 0);
  if (args.kind === 'bad') return done(io.stderr, `rxjs-tool-calls: ${args.reason}\n${USAGE}\n`, 2);
  if (args.file === undefined && io.stdinIsTTY === true) return done(io.stderr, HELP, 2);
  const { json, provider, reasoning } = args;
  const file = args.file ?? '-';
  const bytes$ = from(file === '-' ? io.stdin : (createReadStream(file) as AsyncIterable<Uint8Array>));
  const printer = new ReadablePrinter(io);
  let usage: UsageEvent | undefined;
  const flushUsage = (): void => {
    if (usage !== undefined) io.stdout(jsonLine(withTotal(usage)));
    usage = undefined;
  };
  return new Promise((resolve) => {
    inspect(bytes$, provider, reasoning).subscribe({
      next: (item) => {
        if (!json) printer.print(item);
        else if (item.kind === 'event' && item.event.type === 'usage') usage = item.event;
        else io.stdout(jsonLine(toJson(item)));
      },
      error: (error: unknown) => {
        if (json) {
          flushUsage();
          io.stdout(jsonLine({ type: 'error', error: isToolStreamError(error) ? error.toJSON() : { message: error instanceof Error ? error.message : String(error) } }));
          io.stderr(errorLine(error));
        } else printer.error(error);
        resolve(1);
      },
      complete: () => {
        if (json) flushUsage();
        else printer.finish();
        resolve(0);
      },
    });
  });
}

/** The Node process the command runs in (the parts `runCli` uses). */
export interface CliProcess {
  readonly argv: ReadonlyArray<string>;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /** The environment: `NO_COLOR` (any value) turns the dim reasoning off. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  exitCode?: number | string | undefined;
  exit(code?: number): never;
}

/**
 * The `bin` entry: runs {@link main} on the process. A closed stdout (`… --json | head -1`) ends
 * the command quietly (exit 0, no EPIPE stack); any other write error is reported on stderr.
 */
export function runCli(proc: CliProcess, version: string | undefined): Promise<number> {
  const onWriteError = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE') proc.exit(0);
    proc.stderr.write(`rxjs-tool-calls: cannot write output: ${error.message}\n`);
    proc.exit(1);
  };
  proc.stdout.on('error', onWriteError);
  const io: CliIo = {
    stdout: (text) => void proc.stdout.write(text),
    stderr: (text) => void proc.stderr.write(text),
    stdin: proc.stdin as AsyncIterable<Uint8Array | string>,
    stdinIsTTY: proc.stdin.isTTY === true,
    color: (proc.stdout as { isTTY?: boolean }).isTTY === true && (proc.env?.['NO_COLOR'] ?? '') === '',
    ...(version === undefined ? {} : { version }),
  };
  return main(proc.argv.slice(2), io).then((code) => {
    proc.exitCode = code;
    return code;
  });
}
