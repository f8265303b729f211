/**
 * The inspector command: `rxjs-tool-calls [file.sse | -] [--json] [--provider NAME]`.
 *
 * Reads a recorded SSE response (a file or standard input) and prints every tool call result, the
 * text, the finish reasons and the usage, readably or as JSON lines.
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
import { WIRE_FORMATS } from './providers/list';

/** What the CLI writes to; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stdin: AsyncIterable<Uint8Array | string>;
  /** Standard input is a terminal: without a file argument, print the usage instead of waiting. */
  readonly stdinIsTTY?: boolean;
  /** The package version, for `--version`. */
  readonly version?: string;
}

type Item = { readonly kind: 'event'; readonly event: StreamEvent } | { readonly kind: 'result'; readonly result: ToolCallResult };

const PROVIDERS: ReadonlyArray<ProviderOption> = ['auto', ...WIRE_FORMATS.map((format) => format.format)];

const USAGE = `usage: rxjs-tool-calls [file.sse | -] [--json] [--provider ${PROVIDERS.join('|')}]`;

const HELP = `${USAGE}

Reads a recorded LLM response stream (SSE) from a file, or from standard input with - (or when
input is piped), and prints its text, each tool call (parsed arguments or a typed error), the
finish reasons and the token usage.

  --json             one JSON object per line: events, tool-call results, then the usage and
                     any error
  --provider NAME    the wire format (default auto: recognised from the first event)
  -h, --help         this help
  --version          the version

Exit codes: 0 the stream was read, 1 the stream failed (the error is on stderr), 2 bad usage.
`;

/** The parsed command line, or why it is wrong. */
type Args =
  | { readonly kind: 'run'; readonly file: string | undefined; readonly json: boolean; readonly provider: ProviderOption }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'bad'; readonly reason: string };

function parseArgs(argv: ReadonlyArray<string>): Args {
  let json = false;
  let provider: string = 'auto';
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    if (arg === '--version') return { kind: 'version' };
    if (arg === '--json') json = true;
    else if (arg === '--provider' || arg.startsWith('--provider=')) {
      const value = arg === '--provider' ? argv[++i] : arg.slice('--provider='.length);
      if (value === undefined || value === '') return { kind: 'bad', reason: '--provider needs a value' };
      provider = value;
    } else if (arg === '--') {
      files.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') return { kind: 'bad', reason: `unknown option '${arg}'` };
    else files.push(arg);
  }
  const known = PROVIDERS.find((p) => p === provider);
  if (known === undefined) return { kind: 'bad', reason: `unknown provider '${provider}' (expected one of: ${PROVIDERS.join(', ')})` };
  if (files.length > 1) return { kind: 'bad', reason: `one input at a time (got ${files.length}: ${files.join(' ')})` };
  return { kind: 'run', file: files[0], json, provider: known };
}

/** The usage counts with `totalTokens` computed (input + output) when the provider left it out. */
function withTotal(event: UsageEvent): UsageEvent {
  if (event.totalTokens !== undefined || event.inputTokens === undefined || event.outputTokens === undefined) return event;
  return { ...event, totalTokens: event.inputTokens + event.outputTokens };
}

function errorLine(error: unknown): string {
  if (isToolStreamError(error)) return `error [${error.code}]: ${error.message}\n`;
  const code = (error as { code?: unknown } | null)?.code;
  return `error: ${error instanceof Error ? error.message : String(error)}${typeof code === 'string' && !(error instanceof Error && error.message.includes(code)) ? ` (${code})` : ''}\n`;
}

function toJson(item: Item): unknown {
  if (item.kind === 'result') {
    const r = item.result;
    return r.success ? { type: 'tool-call', success: true, data: r.data } : { type: 'tool-call', success: false, error: r.error.toJSON() };
  }
  return item.event;
}

/** Text and results as they come; the finish reasons and the (last, most complete) usage once, at the end. */
class ReadablePrinter {
  private inText = false;
  private readonly finishes: string[] = [];
  private usage: string | undefined;
  constructor(private readonly io: CliIo) {}

  private summary(): void {
    this.endText();
    for (const line of this.finishes) this.io.stdout(line);
    if (this.usage !== undefined) this.io.stdout(this.usage);
    this.finishes.length = 0;
    this.usage = undefined;
  }

  private endText(): void {
    if (this.inText) this.io.stdout('\n');
    this.inText = false;
  }

  print(item: Item): void {
    if (item.kind === 'result') {
      this.endText();
      const r = item.result;
      if (r.success) {
        const d = r.data;
        this.io.stdout(`✓ ${d.name}  id=${d.id} index=${d.index}${d.choice ? ` choice=${d.choice}` : ''}\n  ${JSON.stringify(d.arguments)}\n`);
      } else {
        const e = r.error;
        this.io.stdout(`✗ ${e.toolCall.name || '(unnamed)'}  id=${e.toolCall.id} index=${e.toolCall.index}  [${e.code}]\n  ${e.message}\n`);
      }
      return;
    }
    const e = item.event;
    switch (e.type) {
      case 'text-delta':
        if (!this.inText) this.io.stdout(e.choice ? `text[${e.choice}]: ` : 'text: ');
        this.inText = true;
        this.io.stdout(e.text);
        return;
      case 'finish':
        this.finishes.push(`finish${e.choice ? `[${e.choice}]` : ''}: ${e.rawReason} (${e.reason})\n`);
        return;
      case 'usage': {
        const u = withTotal(e);
        this.usage = `usage: input ${u.inputTokens ?? '?'}, output ${u.outputTokens ?? '?'}, total ${u.totalTokens ?? '?'}\n`;
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

/** Everything the CLI prints: text, finishes and usage as they come, each call's result when it completes. */
export function inspect(bytes$: Observable<Uint8Array | string>, provider: ProviderOption): Observable<Item> {
  return bytes$.pipe(
    readStreamEvents({ provider }),
    eventsAndResults(),
    filter((item) => item.type === 'result' || item.event.type === 'text-delta' || item.event.type === 'finish' || item.event.type === 'usage'),
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
  const { json, provider } = args;
  const file = args.file ?? '-';
  const bytes$ = from(file === '-' ? io.stdin : (createReadStream(file) as AsyncIterable<Uint8Array>));
  const printer = new ReadablePrinter(io);
  let usage: UsageEvent | undefined;
  const flushUsage = (): void => {
    if (usage !== undefined) io.stdout(`${JSON.stringify(withTotal(usage))}\n`);
    usage = undefined;
  };
  return new Promise((resolve) => {
    inspect(bytes$, provider).subscribe({
      next: (item) => {
        if (!json) printer.print(item);
        else if (item.kind === 'event' && item.event.type === 'usage') usage = item.event;
        else io.stdout(`${JSON.stringify(toJson(item))}\n`);
      },
      error: (error: unknown) => {
        if (json) {
          flushUsage();
          io.stdout(`${JSON.stringify({ type: 'error', error: isToolStreamError(error) ? error.toJSON() : { message: error instanceof Error ? error.message : String(error) } })}\n`);
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
    ...(version === undefined ? {} : { version }),
  };
  return main(proc.argv.slice(2), io).then((code) => {
    proc.exitCode = code;
    return code;
  });
}
