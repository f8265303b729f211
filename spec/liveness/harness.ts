/**
 * The liveness rule, tested as such: a recorded stream is fed one framed record (an SSE event, an
 * AWS event-stream frame, an NDJSON line, a WebSocket message as a record) per chunk, and after each
 * chunk what every consumer shows of each tool call is compared with the wire's own prefix at that
 * record — derived here from the records themselves by a small reference reader per format, not
 * from the library's output.
 *
 * Compared after every chunk:
 * - `readStreamEvents()`: the argument text its deltas add up to (`accumulateToolCalls()` over them);
 * - `partialToolCalls()` with `snapshots: 'live'` (always current), and with the default immutable
 *   snapshots for arguments up to 1 KiB (beyond that, their copies are paced: docs/partial-values.md);
 * - `chatState()`'s `partialArguments` (choice 0);
 * - every encoder's output so far, read back: a streaming target (chat, Responses, Anthropic,
 *   Converse, Gemini Interactions, AI SDK UI, AG-UI) shows what the wire showed, except, for the
 *   append-only ones (chat, Anthropic, Converse, Interactions, AG-UI), arguments that arrived whole,
 *   held until the call's next event (the documented wait; Responses and AI SDK UI restate a call's
 *   arguments at its end, so they write them at once, and may show a whole value the wire then
 *   replaced until the end restates it); a target that writes whole calls (Gemini, Ollama) shows a
 *   call once it closed, with its final value (matched by id: calls close in any order).
 *
 * After the last chunk the source completes, and every encoder must have written every call (a
 * held value may not be held forever).
 *
 * A custom (freeform) tool's call shows its text as it grows; an encoder without custom tools writes
 * it as `{"input": text}`.
 *
 * @module
 */
import { Subject } from 'rxjs';
import {
  accumulateToolCalls,
  chatState,
  partialToolCalls,
  readStreamEvents,
  type ChatState,
  type FramedRecord,
  type PartialToolCall,
  type ProviderName,
  type StreamEvent,
  type ToolCallSnapshot,
} from 'rxjs-tool-calls';
import { PartialJsonParser } from 'rxjs-tool-calls/advanced';
import {
  encodeAgUi,
  encodeAiSdkUi,
  encodeAnthropicMessages,
  encodeBedrockConverse,
  encodeGemini,
  encodeGeminiInteractions,
  encodeOllamaChat,
  encodeOpenAIChat,
  encodeOpenAIResponses,
} from 'rxjs-tool-calls/gateway';
import type { OperatorFunction } from 'rxjs';

/** One framed record of the wire, as the reference readers read it. */
export interface WireRecord {
  /** The SSE `event:` name (`message` when none), the frame's event type, or `message` for a line or a WebSocket message. */
  readonly event: string;
  /** The record's payload, parsed when it is JSON (else the text). */
  readonly data: unknown;
}

/** One call as the wire shows it after some records. */
export interface WireCall {
  /** The call's choice. */
  readonly choice: number;
  /** The argument text so far, for formats that stream text (`undefined` for formats whose arguments are JSON values). */
  readonly text?: string;
  /** The arguments' value so far, for formats whose arguments are JSON values (Gemini, Ollama). */
  readonly value?: unknown;
  /** The arguments arrived whole, in one record, with nothing streamed before (an encoder may hold them one event). */
  readonly whole: boolean;
  /** A custom (freeform) tool's call: its value is its text, as it grows. */
  readonly custom?: boolean;
  /** The whole text a later record of the call replaced (not continued): an encoder that restates the text at the call's end may show it until the text continues it, or the end. */
  readonly superseded?: string;
}

/** A format's reference reader: the calls the wire shows after `records`, in order of first sight. */
export type ReferenceReader = (records: ReadonlyArray<WireRecord>) => WireCall[];

/** One recorded stream, cut into one chunk per framed record (bytes, or the records a WebSocket's messages are). */
export interface LiveStream {
  readonly name: string;
  readonly provider: ProviderName;
  readonly chunks: ReadonlyArray<Uint8Array | FramedRecord>;
  readonly records: ReadonlyArray<WireRecord>;
}

/** What the value of some argument text shows: the partial parser's value (`undefined` once the text is not JSON). */
export function shownOf(text: string): unknown {
  if (text.trim() === '') return {};
  const parser = new PartialJsonParser();
  parser.push(text);
  return parser.error === undefined ? (parser.value ?? {}) : undefined;
}

/** The value a wire call shows (`undefined`: its text stopped being JSON, the views stop there); a custom call's is its text. */
function expectedShown(call: WireCall): unknown {
  if (call.custom === true) return call.text;
  return call.text === undefined ? call.value : shownOf(call.text);
}

/**
 * Each encoder, how it writes arguments (append-only, restating the text at the call's end, or whole
 * calls only), and whether it writes a custom tool's call as such (else as `{"input": text}`).
 */
const ENCODERS: ReadonlyArray<readonly [string, () => OperatorFunction<StreamEvent, string | Uint8Array>, 'append-only' | 'restating' | 'whole', 'custom' | 'as-json']> = [
  ['encodeOpenAIChat', () => encodeOpenAIChat(), 'append-only', 'custom'],
  ['encodeOpenAIResponses', () => encodeOpenAIResponses(), 'restating', 'custom'],
  ['encodeAnthropicMessages', () => encodeAnthropicMessages(), 'append-only', 'as-json'],
  ['encodeBedrockConverse', () => encodeBedrockConverse(), 'append-only', 'as-json'],
  ['encodeGemini', () => encodeGemini(), 'whole', 'as-json'],
  ['encodeOllamaChat', () => encodeOllamaChat(), 'whole', 'as-json'],
  ['encodeGeminiInteractions', () => encodeGeminiInteractions(), 'append-only', 'as-json'],
  ['encodeAiSdkUi', () => encodeAiSdkUi(), 'restating', 'custom'],
  ['encodeAgUi', () => encodeAgUi(), 'append-only', 'as-json'],
];

/** The calls a snapshot array shows (a choice's `missing` call is no call of the wire). */
function wireCalls(snapshots: ReadonlyArray<ToolCallSnapshot>): ToolCallSnapshot[] {
  return snapshots.filter((s) => !(s.result !== undefined && !s.result.success && s.result.error.code === 'missing-tool-calls'));
}

/** Everything the consumers show after each chunk, fed one chunk at a time. */
class Views {
  readonly input = new Subject<Uint8Array | FramedRecord>();
  readonly events = new Subject<StreamEvent>();
  accumulated: ReadonlyArray<ToolCallSnapshot> = [];
  readonly live = new Map<number, PartialToolCall>();
  readonly immutable = new Map<number, PartialToolCall>();
  chat: ChatState | undefined;
  readonly readBack = new Map<string, ReadonlyArray<ToolCallSnapshot>>();
  private readonly subscriptions: Array<{ unsubscribe(): void }> = [];

  constructor(provider: ProviderName) {
    const ignore = (): void => undefined;
    this.subscriptions.push(this.events.pipe(accumulateToolCalls()).subscribe({ next: (s) => (this.accumulated = s), error: ignore }));
    this.subscriptions.push(this.events.pipe(partialToolCalls({ snapshots: 'live' })).subscribe({ next: (p) => this.live.set(p.key, p), error: ignore }));
    this.subscriptions.push(this.events.pipe(partialToolCalls()).subscribe({ next: (p) => this.immutable.set(p.key, p), error: ignore }));
    this.subscriptions.push(this.events.pipe(chatState()).subscribe({ next: (s) => (this.chat = s), error: ignore }));
    for (const [name, encoder] of ENCODERS) {
      const back = new Subject<string | Uint8Array>();
      this.readBack.set(name, []);
      this.subscriptions.push(back.pipe(readStreamEvents(), accumulateToolCalls()).subscribe({ next: (s) => this.readBack.set(name, s), error: ignore }));
      this.subscriptions.push(this.events.pipe(encoder()).subscribe({ next: (out) => back.next(out), error: ignore, complete: () => back.complete() }));
    }
    this.subscriptions.push(this.input.pipe(readStreamEvents({ provider })).subscribe(this.events));
  }

  close(): void {
    for (const s of this.subscriptions) s.unsubscribe();
  }
}

/** A view's partial values, in order of each call's first value. */
function ordered(values: Map<number, PartialToolCall>): PartialToolCall[] {
  return [...values.entries()].sort(([a], [b]) => a - b).map(([, v]) => v);
}

/** What one check found wrong after a chunk (empty: live). */
export interface Mismatch {
  readonly chunk: number;
  readonly view: string;
  readonly call: number;
  readonly expected: unknown;
  readonly got: unknown;
}

/**
 * Feed `stream` one record per chunk and compare every view with `reference` after each chunk;
 * returns the mismatches (none: the stream is live everywhere the rule says).
 */
export function liveness(stream: LiveStream, reference: ReferenceReader): Mismatch[] {
  const views = new Views(stream.provider);
  const out: Mismatch[] = [];
  const miss = (chunk: number, view: string, call: number, expected: unknown, got: unknown): void => {
    out.push({ chunk, view, call, expected, got });
  };
  for (let k = 0; k < stream.chunks.length; k++) {
    views.input.next(stream.chunks[k] as Uint8Array | FramedRecord);
    const wire = reference(stream.records.slice(0, k + 1));
    const accumulated = wireCalls(views.accumulated);
    if (accumulated.length !== wire.length) miss(k, 'readStreamEvents (calls)', -1, wire.length, accumulated.length);
    const live = ordered(views.live);
    const immutable = ordered(views.immutable);
    const chat = views.chat?.calls ?? [];
    wire.forEach((call, i) => {
      const shown = expectedShown(call);
      const got = accumulated[i];
      if (call.text !== undefined) {
        if (got?.rawArguments !== call.text) miss(k, 'readStreamEvents', i, call.text, got?.rawArguments);
      } else if (shown !== undefined && !sameValue(shownOf(got?.rawArguments ?? ''), shown)) miss(k, 'readStreamEvents', i, shown, got?.rawArguments);
      if (shown === undefined) return; // not JSON: partial values stop (by design), the result says why
      if (!sameValue(live[i]?.arguments ?? {}, shown)) miss(k, 'partialToolCalls (live)', i, shown, live[i]?.arguments);
      if ((call.text ?? '').length <= 1024 && !sameValue(immutable[i]?.arguments ?? {}, shown)) miss(k, 'partialToolCalls', i, shown, immutable[i]?.arguments);
      if (call.choice === 0) {
        // chatState lists calls by their index: matched by id to the call read in wire order.
        const entry = chat.find((c) => c.id === got?.id);
        if (!sameValue(entry?.partialArguments ?? {}, shown)) miss(k, 'chatState', i, shown, entry?.partialArguments);
      }
    });
    checkEncoders(views, wire, accumulated, true, (view, call, expected, got) => miss(k, view, call, expected, got));
  }
  // The source's end: nothing may be held any more (a whole value waits for the call's next event, and there is none).
  views.input.complete();
  checkEncoders(views, reference(stream.records), wireCalls(views.accumulated), false, (view, call, expected, got) => miss(stream.chunks.length, view, call, expected, got));
  views.close();
  return out;
}

/** Each encoder's read-back against the wire's calls; `mayHold`: arguments that arrived whole may not be written yet by an append-only encoder. */
function checkEncoders(
  views: Views,
  wire: ReadonlyArray<WireCall>,
  accumulated: ReadonlyArray<ToolCallSnapshot>,
  mayHold: boolean,
  miss: (view: string, call: number, expected: unknown, got: unknown) => void,
): void {
  for (const [name, , kind, custom] of ENCODERS) {
    const back = wireCalls(views.readBack.get(name) ?? []);
    wire.forEach((call, i) => {
      let shown = expectedShown(call);
      if (shown === undefined) return;
      if (call.custom === true && custom === 'as-json') shown = { input: shown };
      if (kind === 'whole') {
        // Whole calls: a call is written when it closed, with its final value (calls close in any order: matched by id).
        const mine = accumulated[i]?.id;
        const got = back.find((c) => c.id === mine) ?? (back[i] !== undefined && accumulated.some((a) => a.id === back[i]?.id) ? undefined : back[i]);
        if (got !== undefined && got.status === 'complete' && got.result?.success === true && !sameValue(got.result.data.arguments, shown)) miss(name, i, shown, got.rawArguments);
        return;
      }
      const text = back[i]?.rawArguments ?? '';
      if (call.custom === true && custom === 'custom' ? text === shown : sameValue(shownOf(text), shown)) return;
      if (call.custom === true && call.text === '' && text === '') return; // `{"input":"` is written with the first text
      if (mayHold && kind === 'append-only' && call.whole && text === '') return; // whole arguments, held until the call's next event
      if (mayHold && kind === 'restating' && call.superseded !== undefined && sameValue(shownOf(text), shownOf(call.superseded))) return; // restated at the call's end
      miss(name, i, shown, text);
    });
  }
}

/** Deep equality of JSON values (key order aside). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameValue(v, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

// ---------------------------------------------------------------------------------------------
// Cutting a recording into one chunk per framed record.
// ---------------------------------------------------------------------------------------------

const decoder = new TextDecoder();

/** SSE bytes cut after each event's blank line, each event with its record (`event:` name, `data:` lines joined). */
export function sseRecords(bytes: Uint8Array): { chunks: Uint8Array[]; records: WireRecord[] } {
  const chunks: Uint8Array[] = [];
  const records: WireRecord[] = [];
  let start = 0;
  let lineStart = 0;
  let blank = true;
  let name = 'message';
  let data: string[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 0x0a && c !== 0x0d) continue;
    const line = decoder.decode(bytes.subarray(lineStart, i));
    if (c === 0x0d && bytes[i + 1] === 0x0a) i++;
    lineStart = i + 1;
    if (line !== '') {
      blank = false;
      if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      else if (line.startsWith('event:')) name = line.slice(line.startsWith('event: ') ? 7 : 6);
      continue;
    }
    if (blank) continue; // blank lines between events
    chunks.push(bytes.subarray(start, i + 1));
    start = i + 1;
    const text = data.join('\n');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // `[DONE]`, a keep-alive, a comment-only event
    }
    records.push({ event: name, data: parsed });
    name = 'message';
    data = [];
    blank = true;
  }
  // Trailing bytes after the last event (a comment, whitespace) belong to the last chunk.
  const last = chunks.length - 1;
  if (start < bytes.length && last >= 0) chunks[last] = bytes.subarray(bytes.length - (chunks[last] as Uint8Array).length - (bytes.length - start));
  return { chunks, records };
}

/** AWS event-stream bytes cut at each frame (its first four bytes are its length). */
export function frameChunks(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
    out.push(bytes.subarray(at, at + length));
    at += length;
  }
  return out;
}

/** NDJSON bytes cut after each line, each with its parsed record. */
export function lineRecords(bytes: Uint8Array): { chunks: Uint8Array[]; records: WireRecord[] } {
  const chunks: Uint8Array[] = [];
  const records: WireRecord[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a) continue;
    const line = decoder.decode(bytes.subarray(start, i)).trim();
    chunks.push(bytes.subarray(start, i + 1));
    records.push({ event: 'message', data: line === '' ? '' : (JSON.parse(line) as unknown) });
    start = i + 1;
  }
  return { chunks, records };
}
