/**
 * The project's own fixtures of the non-SSE formats (spec/fixtures/framing): Bedrock streams framed
 * by AWS's codec (`<name>.eventstream`, made from `<name>.frames.json` by
 * scripts/framing-fixtures.mjs), Ollama NDJSON and Gemini JSON arrays written by hand (each with
 * `<name>.expected.json`), and what a reader of each should end up with.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { concat, EMPTY, from, pipe, throwError, type Observable, type OperatorFunction } from 'rxjs';
import {
  bedrockConverse,
  bedrockInvokeModel,
  decodeAwsEventStream,
  decodeJsonArray,
  decodeNdjson,
  gemini,
  isToolStreamError,
  ollamaChat,
  toolCalls,
  type FramingName,
  type ReasoningEndEvent,
  type StreamEvent,
  type ToolCallResult,
  type UsageEvent,
} from 'rxjs-tool-calls';
import { collect } from './reencode';

export const FRAMING_FIXTURES_DIR = resolve(__dirname, '../fixtures/framing');

/** One call as a fixture states it: its result, or the code (and incomplete reason) of its error. */
export type ExpectedCall =
  { readonly id: string | null; readonly name: string; readonly arguments: unknown } | { readonly id: string | null; readonly name: string; readonly error: string; readonly reason?: string };

/** What a reader of a fixture ends up with. */
export interface FramingExpected {
  readonly provider: string;
  readonly toolCalls: ReadonlyArray<ExpectedCall>;
  readonly text: string;
  readonly reasoning: string;
  readonly reasoningParts?: ReadonlyArray<{ readonly text: string; readonly signature?: string; readonly redacted?: string }>;
  readonly finishReason: string | null;
  readonly usage?: Omit<UsageEvent, 'type' | 'raw'>;
  readonly error?: { readonly code: string; readonly type?: string; readonly status?: number; readonly retryable?: boolean; readonly message?: string };
}

export interface FramingFixture {
  /** `dir/name`. */
  readonly name: string;
  readonly framing: FramingName;
  readonly bytes: Uint8Array;
  readonly expected: FramingExpected;
  /** Bytes → this fixture's events: its framing, then its wire format. */
  readonly read: () => OperatorFunction<Uint8Array | string, StreamEvent>;
}

const FORMATS = { 'bedrock-converse': bedrockConverse, 'bedrock-invoke-model': bedrockInvokeModel, ollama: ollamaChat, gemini } as const;
const FRAMINGS = { 'aws-event-stream': decodeAwsEventStream, ndjson: decodeNdjson, 'json-array': decodeJsonArray } as const;

/** The reader of a framing and a format. */
export function readerOf(framing: Exclude<FramingName, 'json-sequence' | 'websocket'>, provider: string): () => OperatorFunction<Uint8Array | string, StreamEvent> {
  const format = FORMATS[provider as keyof typeof FORMATS];
  if (format === undefined) throw new Error(`no format ${provider}`);
  return () => pipe(FRAMINGS[framing](), format());
}

/** Every fixture, sorted by name. */
export function loadFramingFixtures(): FramingFixture[] {
  const out: FramingFixture[] = [];
  for (const dir of readdirSync(FRAMING_FIXTURES_DIR).sort()) {
    for (const file of readdirSync(join(FRAMING_FIXTURES_DIR, dir)).sort()) {
      const path = join(FRAMING_FIXTURES_DIR, dir, file);
      let base: string;
      let framing: FramingName;
      let expected: FramingExpected;
      if (file.endsWith('.eventstream')) {
        base = file.slice(0, -'.eventstream'.length);
        framing = 'aws-event-stream';
        expected = (JSON.parse(readFileSync(join(FRAMING_FIXTURES_DIR, dir, `${base}.frames.json`), 'utf8')) as { expected: FramingExpected }).expected;
      } else if (file.endsWith('.ndjson') || (file.endsWith('.json') && !file.endsWith('.expected.json') && !file.endsWith('.frames.json'))) {
        base = file.replace(/\.(ndjson|json)$/, '');
        framing = file.endsWith('.ndjson') ? 'ndjson' : 'json-array';
        expected = (JSON.parse(readFileSync(join(FRAMING_FIXTURES_DIR, dir, `${base}.expected.json`), 'utf8')) as { expected: FramingExpected }).expected;
      } else {
        continue;
      }
      out.push({ name: `${dir}/${base}`, framing, bytes: new Uint8Array(readFileSync(path)), expected, read: readerOf(framing, expected.provider) });
    }
  }
  return out;
}

/** What a reader of `events` (ending with `error`) sees, in the shape of {@link FramingExpected}. */
export function framedView(events: readonly StreamEvent[], error: unknown): FramingExpected {
  const source: Observable<StreamEvent> = concat(from(events), error === undefined ? EMPTY : throwError(() => error));
  const results = collect(source.pipe(toolCalls())).values;
  const metadata = events.find((e) => e.type === 'metadata');
  const usage = events.filter((e): e is UsageEvent => e.type === 'usage').at(-1);
  const finish = events.filter((e) => e.type === 'finish').at(-1);
  const parts = events
    .filter((e): e is ReasoningEndEvent => e.type === 'reasoning-end')
    .map(({ text, signature, redacted }) => ({ text, ...(signature === undefined ? {} : { signature }), ...(redacted === undefined ? {} : { redacted }) }));
  const callOf = (r: ToolCallResult): ExpectedCall => {
    if (r.success) return { id: r.data.providerMetadata?.['idGenerated'] === true ? null : r.data.id, name: r.data.name, arguments: r.data.arguments };
    const e = r.error;
    const call = e.toolCall;
    return { id: call.id, name: call.name, error: e.code, ...(e.code === 'incomplete' ? { reason: e.reason } : {}) };
  };
  let errorView: FramingExpected['error'];
  if (error !== undefined) {
    if (isToolStreamError(error, 'provider-error'))
      errorView = {
        code: error.code,
        ...(error.type === undefined ? {} : { type: error.type }),
        ...(error.status === undefined ? {} : { status: error.status }),
        retryable: error.retryable,
        message: error.message.slice(error.message.indexOf(': ') + 2),
      };
    else errorView = { code: isToolStreamError(error) ? error.code : String(error) };
  }
  let usageView: FramingExpected['usage'];
  if (usage !== undefined) {
    const { type: _type, raw: _raw, ...counts } = usage;
    usageView = counts;
  }
  return {
    provider: metadata?.type === 'metadata' ? metadata.provider : isToolStreamError(error) && 'provider' in error ? String(error.provider) : '(none)',
    toolCalls: results.map(callOf),
    text: events.map((e) => (e.type === 'text-delta' ? e.text : '')).join(''),
    reasoning: events.map((e) => (e.type === 'reasoning-delta' ? e.text : '')).join(''),
    ...(parts.length === 0 ? {} : { reasoningParts: parts }),
    finishReason: finish?.type === 'finish' ? finish.reason : null,
    ...(usageView === undefined ? {} : { usage: usageView }),
    ...(errorView === undefined ? {} : { error: errorView }),
  };
}

/** The events a fixture's reader gives for `chunks`, and the error it ended with. */
export function readFramed(fixture: Pick<FramingFixture, 'read'>, chunks: ReadonlyArray<Uint8Array | string>): { events: StreamEvent[]; error: unknown } {
  const { values, error } = collect(from(chunks).pipe(fixture.read()));
  return { events: values, error };
}
