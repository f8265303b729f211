/**
 * The per-choice state machine behind `textToolCalls()`: visible text in, text / reasoning /
 * tool-call events out, while the text streams.
 *
 * @module
 */
import type { StreamEvent } from '../events';
import { CONTINUE, ENDED, NO_MARKERS, REFUTE, type Block, type CallSink } from './block';
import { DeepSeekBlock } from './deepseekBlock';
import { FenceTracker } from './fenceTracker';
import { skipWs } from './jsonScan';
import { LlamaBlock } from './llamaBlock';
import { MistralBlock } from './mistralBlock';
import { ToolParamTypes } from './schemaTypes';
import { DEEPSEEK, MISTRAL, PYTHON_TAG, TEXT_TOOL_CALL_SYNTAXES, THINK, THINK_END, TOOL_CALL, type TextToolCallSyntax } from './syntaxes';
import { REASONING, TEXT, TextOut } from './textOut';
import { ToolCallStart } from './toolCallBlocks';

/** Options of {@link TextToolCallParser} and `textToolCalls()`. */
export interface TextToolCallParserOptions {
  /** The syntaxes to lift (see {@link TextToolCallSyntax}). Default: all of them. */
  readonly syntaxes?: ReadonlyArray<TextToolCallSyntax>;
  /** Turn `<think>…</think>` (and Magistral's `[THINK]…[/THINK]` with `mistral`) into reasoning. Default `true`. */
  readonly thinkTags?: boolean;
  /** The text starts inside reasoning, up to `</think>` (templates that put `<think>` in the prompt, e.g. DeepSeek R1). Default `false`. */
  readonly startInReasoning?: boolean;
  /**
   * Tool names mapped to their argument schemas: a JSON Schema object (the tool's `parameters`) or
   * a Standard Schema validator that describes itself as JSON Schema (zod 4). Used to type the
   * parameter values of the XML syntaxes (Qwen3-Coder, GLM), which arrive as bare text.
   */
  readonly tools?: Readonly<Record<string, object>>;
}

const TEXT_MODE = 0;
const REASONING_MODE = 1;
const BLOCK_MODE = 2;
const PARTIAL = '\u0000partial';
const THINK_END_MARKERS: readonly string[] = [THINK_END];
const MISTRAL_THINK_END: readonly string[] = [MISTRAL.thinkEnd];

/**
 * Lifts tool calls written as text out of one choice's visible text, incrementally.
 *
 * Each `push()` scans only the new text (plus at most the start of a marker held back from the
 * previous push), once, left to right; events go to `emit` as soon as they are known. Markers may
 * be split anywhere: a suffix that may still begin a marker (`<tool_`) is held back until the next
 * push tells, and nothing is ever emitted and then retracted. `end()` closes the message.
 */
export class TextToolCallParser {
  private readonly out: TextOut;
  private readonly fence = new FenceTracker();
  private readonly enabledSet: ReadonlySet<TextToolCallSyntax>;
  private readonly textMarkers: readonly string[];
  private readonly startInReasoning: boolean;
  private readonly bareJson: boolean;
  private readonly types: ToolParamTypes;
  private readonly sink: CallSink;
  private mode: number;
  private block: Block | undefined;
  private replacement: Block | undefined;
  private reasoningMarkers = THINK_END_MARKERS;
  private pending = ''; // the start of a possible marker, held back
  private tentative = false; // the block may still turn out to be text
  private held = ''; // the tentative block's text so far, to release
  private literal = 0; // how much of `held` is the opener, released as it is
  private holdWs = true; // whitespace at the start, or after a block: text only if text follows
  private blockWs = '';
  private afterCall = false;
  private messageStart = true;
  private nextIndex = 0;
  private openIndex = -1;
  private calls = 0;
  private lt = -1; // cached positions of the next '<' and '[' in the text being scanned
  private br = -1;

  /**
   * @param choice The choice whose text this is (put on every event).
   * @param emit Where events go.
   * @param options Syntaxes, reasoning tags and tool schemas.
   */
  constructor(choice: number, emit: (event: StreamEvent) => void, options: TextToolCallParserOptions = {}) {
    this.out = new TextOut(choice, emit);
    this.enabledSet = new Set(options.syntaxes ?? TEXT_TOOL_CALL_SYNTAXES);
    const on = (s: TextToolCallSyntax): boolean => this.enabledSet.has(s);
    const thinkTags = options.thinkTags ?? true;
    const markers: string[] = [];
    if (on('hermes') || on('qwen3-coder') || on('glm45')) markers.push(TOOL_CALL);
    if (on('mistral')) markers.push(MISTRAL.calls);
    if (on('llama3')) markers.push(PYTHON_TAG);
    if (on('deepseek')) markers.push(...DEEPSEEK.callsBegin, DEEPSEEK.callBegin);
    if (thinkTags) markers.push(THINK);
    if (thinkTags && on('mistral')) markers.push(MISTRAL.think);
    this.textMarkers = markers;
    this.bareJson = on('llama3');
    this.startInReasoning = options.startInReasoning ?? false;
    this.mode = this.startInReasoning ? REASONING_MODE : TEXT_MODE;
    this.types = new ToolParamTypes(options.tools);
    this.sink = {
      open: (syntax, name, id) => {
        if (this.openIndex !== -1) this.sink.close(false);
        this.openIndex = this.nextIndex++;
        this.calls++;
        this.out.startCall(this.openIndex, name, id, syntax);
      },
      args: (text, from, to) => {
        if (this.openIndex !== -1) this.out.args(text, from, to);
      },
      lateId: (id) => {
        if (this.openIndex !== -1) this.out.event({ type: 'tool-call-delta', choice, index: this.openIndex, id, argumentsDelta: '' });
      },
      close: (incomplete) => {
        if (this.openIndex === -1) return;
        this.out.event({ type: 'tool-call-end', choice, index: this.openIndex, ...(incomplete ? { incomplete: true } : {}) });
        this.openIndex = -1;
      },
      confirm: () => {
        if (!this.tentative) return;
        this.tentative = false;
        this.held = '';
        this.blockWs = '';
      },
      whitespace: (text, from, to) => {
        this.blockWs += text.slice(from, to);
      },
      replace: (next) => {
        this.replacement = next;
      },
      enabled: on,
      paramTypes: (tool, param) => this.types.typesOf(tool, param),
    };
  }

  /** The next piece of the choice's visible text. */
  push(text: string): void {
    if (text === '') return;
    const input = this.pending === '' ? text : this.pending + text;
    this.pending = '';
    this.run(input, false);
    this.out.flush();
  }

  /**
   * The message ended: release held-back text, close an unfinished call as incomplete (or, with
   * `closeCalls: false`, leave it open: the stream failed and the caller reports it), and start
   * over for a next message. Returns how many calls the message had.
   */
  end(closeCalls = true): number {
    const pending = this.pending;
    this.pending = '';
    if (pending !== '') this.run(pending, true);
    while (this.mode === BLOCK_MODE && this.block !== undefined) {
      if (closeCalls ? this.block.end() : this.tentative) this.run(this.refuted('', 0), true);
      else this.endBlock();
    }
    if (!this.afterCall) this.releaseWs();
    this.out.flush();
    const calls = this.calls;
    this.mode = this.startInReasoning ? REASONING_MODE : TEXT_MODE;
    this.reasoningMarkers = THINK_END_MARKERS;
    this.fence.reset();
    this.holdWs = this.messageStart = true;
    this.blockWs = '';
    this.afterCall = false;
    this.openIndex = -1;
    this.calls = 0;
    return calls;
  }

  private run(input: string, final: boolean): void {
    let text = input;
    let pos = 0;
    let scan = 0;
    this.lt = this.br = -1;
    while (pos < text.length) {
      const t = this.nextTrigger(text, scan);
      if (t > pos) {
        const r = this.deliver(text, pos, t);
        if (r === REFUTE) {
          text = this.refuted(text, pos);
          pos = scan = 0;
          this.lt = this.br = -1;
          continue;
        }
        if (r >= 0) {
          pos = scan = r;
          continue;
        }
        if (t >= text.length) break;
        pos = t;
      }
      const marker = this.match(text, pos, final);
      if (marker === undefined) {
        scan = pos + 1;
        continue;
      }
      if (marker === PARTIAL) {
        this.pending = text.slice(pos);
        break;
      }
      if (this.onMarker(marker) === REFUTE) {
        text = this.refuted(text, pos);
        pos = scan = 0;
        this.lt = this.br = -1;
        continue;
      }
      pos = scan = pos + marker.length;
    }
  }

  /** The next '<' or '[' (every marker starts with one) at or after `from`, or the text's length. */
  private nextTrigger(text: string, from: number): number {
    if (this.lt < from) {
      const i = text.indexOf('<', from);
      this.lt = i === -1 ? text.length : i;
    }
    if (this.br < from) {
      const i = text.indexOf('[', from);
      this.br = i === -1 ? text.length : i;
    }
    return this.lt < this.br ? this.lt : this.br;
  }

  private markers(): readonly string[] {
    if (this.mode === TEXT_MODE) return this.fence.inCode ? NO_MARKERS : this.textMarkers;
    if (this.mode === REASONING_MODE) return this.reasoningMarkers;
    return this.block === undefined ? NO_MARKERS : this.block.markers();
  }

  /** The marker at `pos`, {@link PARTIAL} when the text ends with the start of one, else `undefined`. */
  private match(text: string, pos: number, final: boolean): string | undefined {
    const c = text.charCodeAt(pos);
    const avail = text.length - pos;
    let partial = false;
    for (const m of this.markers()) {
      if (m.charCodeAt(0) !== c) continue;
      const n = m.length < avail ? m.length : avail;
      let k = 1;
      while (k < n && text.charCodeAt(pos + k) === m.charCodeAt(k)) k++;
      if (k === m.length) return m;
      if (k === avail) partial = true;
    }
    return partial && !final ? PARTIAL : undefined;
  }

  /** Plain text (no marker inside) to the current mode. */
  private deliver(text: string, from: number, to: number): number {
    if (this.mode === TEXT_MODE) {
      const k = this.textPlain(text, from, to, false);
      if (k >= 0) this.startBlock(new LlamaBlock(this.sink, true), true, '', 1);
      return k;
    }
    if (this.mode === REASONING_MODE) {
      this.out.add(REASONING, text, from, to);
      return CONTINUE;
    }
    let i = from;
    for (;;) {
      const r = (this.block as Block).plain(text, i, to);
      if (r === REFUTE) return REFUTE;
      if (r === CONTINUE) {
        if (this.tentative) this.held += text.slice(from, to);
        return CONTINUE;
      }
      if (this.replacement === undefined) {
        this.endBlock();
        return r;
      }
      this.block = this.replacement;
      this.replacement = undefined;
      i = r;
    }
  }

  /** Visible text. Returns the index of a `{` that starts a bare Llama message, else {@link CONTINUE}. */
  private textPlain(text: string, from: number, to: number, literal: boolean): number {
    let i = from;
    if (this.holdWs) {
      const j = skipWs(text, i, to);
      if (j > i) {
        this.blockWs += text.slice(i, j);
        this.fence.track(text, i, j);
      }
      if (j === to) return CONTINUE;
      i = j;
      if (!literal && this.messageStart && this.bareJson && text.charCodeAt(i) === 123) return i;
      this.releaseWs();
    }
    this.messageStart = false;
    this.fence.track(text, i, to);
    this.out.add(TEXT, text, i, to);
    return CONTINUE;
  }

  private onMarker(marker: string): number {
    if (this.mode === TEXT_MODE) {
      this.fence.track(marker, 0, marker.length);
      if (marker === THINK || marker === MISTRAL.think) {
        this.releaseWs();
        this.mode = REASONING_MODE;
        this.reasoningMarkers = marker === THINK ? THINK_END_MARKERS : MISTRAL_THINK_END;
      } else if (marker === TOOL_CALL) this.startBlock(new ToolCallStart(this.sink), true, marker, marker.length);
      else if (marker === MISTRAL.calls) this.startBlock(new MistralBlock(this.sink), true, marker, marker.length);
      else if (marker === PYTHON_TAG) this.startBlock(new LlamaBlock(this.sink, false), true, marker, marker.length);
      else this.startBlock(new DeepSeekBlock(this.sink, marker === DEEPSEEK.callBegin), false, marker, marker.length);
      return CONTINUE;
    }
    if (this.mode === REASONING_MODE) {
      this.mode = TEXT_MODE;
      this.holdWs = true;
      this.afterCall = false;
      return CONTINUE;
    }
    const r = (this.block as Block).marker(marker);
    if (r === REFUTE) return REFUTE;
    if (r === ENDED && this.replacement === undefined) {
      this.endBlock();
      return CONTINUE;
    }
    if (r === ENDED) {
      this.block = this.replacement;
      this.replacement = undefined;
    }
    if (this.tentative) this.held += marker;
    return CONTINUE;
  }

  private startBlock(block: Block, tentative: boolean, opener: string, literal: number): void {
    this.mode = BLOCK_MODE;
    this.block = block;
    this.tentative = tentative;
    this.held = opener;
    this.literal = literal;
    if (!tentative) this.blockWs = '';
  }

  private endBlock(): void {
    this.mode = TEXT_MODE;
    this.block = this.replacement = undefined;
    this.tentative = false;
    this.held = '';
    this.holdWs = this.afterCall = true;
    this.messageStart = false;
  }

  /** The tentative block is text after all: write its opener as text; returns the rest to read again. */
  private refuted(text: string, from: number): string {
    const rest = this.held + text.slice(from);
    const literal = this.literal;
    this.mode = TEXT_MODE;
    this.block = this.replacement = undefined;
    this.tentative = false;
    this.held = '';
    this.textPlain(rest, 0, literal, true);
    return rest.slice(literal);
  }

  private releaseWs(): void {
    this.holdWs = false;
    if (this.blockWs === '') return;
    const ws = this.blockWs;
    this.blockWs = '';
    this.out.add(TEXT, ws, 0, ws.length);
  }
}
