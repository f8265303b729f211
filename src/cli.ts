/**
 * The inspector command: `rxjs-tool-calls [file.sse | -] [--json]`.
 *
 * Reads a recorded SSE response (a file or standard input) and prints every tool call result, the
 * text, the finish reasons and the usage, readably or as JSON lines.
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { filter, from, map, type Observable } from 'rxjs';
import { eventsAndResults } from './parse/toolCalls';
import { isToolStreamError } from './errors';
import type { StreamEvent } from './events';
import { readStreamEvents } from './readStreamEvents';
import type { ToolCallResult } from './result';
import type { ProviderOption } from './providers/auto';
import { WIRE_FORMATS } from './providers/list';

/** What the CLI writes to; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stdin: AsyncIterable<Uint8Array | string>;
}

type Item = { readonly kind: 'event'; readonly event: StreamEvent } | { readonly kind: 'result'; readonly result: ToolCallResult };

const PROVIDERS: ReadonlyArray<ProviderOption> = ['auto', ...WIRE_FORMATS.map((format) => format.format)];

const USAGE = `usage: rxjs-tool-calls [file.sse | -] [--json] [--provider ${PROVIDERS.join('|')}]`;

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
      case 'usage':
        this.usage = `usage: input ${e.inputTokens ?? '?'}, output ${e.outputTokens ?? '?'}, total ${e.totalTokens ?? '?'}\n`;
        return;
      default:
        return;
    }
  }

  finish(): void {
    this.summary();
  }

  error(error: unknown): void {
    this.summary();
    this.io.stdout(isToolStreamError(error) ? `error [${error.code}]: ${error.message}\n` : `error: ${String(error)}\n`);
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

/** Run the command; resolves to the exit code (0 ok, 1 the stream failed, 2 bad usage). */
export function main(argv: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const providerAt = argv.indexOf('--provider');
  const providerArg = providerAt >= 0 ? argv[providerAt + 1] : 'auto';
  const provider = PROVIDERS.find((p) => p === providerArg);
  const files = argv.filter((a, i) => !a.startsWith('--') && (providerAt < 0 || i !== providerAt + 1));
  if (argv.includes('--help') || files.length > 1 || provider === undefined) {
    (argv.includes('--help') ? io.stdout : io.stderr)(`${USAGE}\n`);
    return Promise.resolve(argv.includes('--help') ? 0 : 2);
  }
  const file = files[0] ?? '-';
  const bytes$ = from(file === '-' ? io.stdin : (createReadStream(file) as AsyncIterable<Uint8Array>));
  const printer = new ReadablePrinter(io);
  return new Promise((resolve) => {
    inspect(bytes$, provider).subscribe({
      next: (item) => (json ? io.stdout(`${JSON.stringify(toJson(item))}\n`) : printer.print(item)),
      error: (error: unknown) => {
        if (json) io.stdout(`${JSON.stringify({ type: 'error', error: isToolStreamError(error) ? error.toJSON() : { message: String(error) } })}\n`);
        else printer.error(error);
        resolve(1);
      },
      complete: () => {
        if (!json) printer.finish();
        resolve(0);
      },
    });
  });
}
