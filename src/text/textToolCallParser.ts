/**
 * The per-choice state machine behind `textToolCalls()`: visible text in, text / reasoning /
 * tool-call events out, while the text streams.
 *
 * @module
 */
import type { StreamEvent } from '../events';
import { CONTINUE, ENDED, matchMarker, NO_MARKERS, PARTIAL, REFUTE, type Block, type CallSink } from './block';
import { DeepSeekBlock } from './deepseekBlock';
import { FenceTracker } from './fenceTracker';
import { skipWs } from './jsonScan';
import { LlamaBlock } from './llamaBlock';
import { MistralBlock } from './mistralBlock';
import { checkTextOptions, parserSetup, type ParserSetup, type TextToolCallsOptions } from './parserOptions';
import { ToolParamTypes } from './schemaTypes';
import { DEEPSEEK, MISTRAL, PYTHON_TAG, THINK, THINK_END, TOOL_CALL } from './syntaxes';
import { REASONING, TEXT, TextOut } from './textOut';
import { ToolCallStart } from './toolCallBlocks';
import { TriggerScan } from './triggerScan';

const TEXT_MODE = 0;
const REASONING_MODE = 1;
const BLOCK_MODE = 2;
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
  private readonly setup: ParserSetup;
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
  private afterThink = false; // the held whitespace follows `</think>`: the template's separator, dropped
  private afterCall = false;
  private messageStart = true;
  private readonly triggers = new TriggerScan();
  private heldIn: string | undefined; // the text the tentative block opened in, within the current run
  private heldAt = 0; // where in `heldIn`
  private resume = 0; // where to read again after a refuted block

  /**
   * A parser for one choice's text.
   *
   * @param choice The choice whose text this is (put on every event).
   * @param emit Where events go.
   * @param options Syntaxes, reasoning tags and tool schemas.
   * @throws {ToolStreamError} `invalid-option` for an option it does not take or a value it cannot use (see `textToolCalls()`).
   */
  constructor(choice: number, emit: (event: StreamEvent) => void, options: TextToolCallsOptions = {}) {
    checkTextOptions('TextToolCallParser', options);
    this.out = new TextOut(choice, emit);
    this.setup = parserSetup(options);
    this.mode = this.setup.startInReasoning ? REASONING_MODE : TEXT_MODE;
    this.types = new ToolParamTypes(options.tools);
    const out = this.out;
    this.sink = {
      open: (syntax, name, id) => out.open(name, id, syntax),
      args: (text, from, to) => out.args(text, from, to),
      lateId: (id) => out.lateId(id),
      close: (incomplete) => out.close(incomplete),
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
      enabled: (syntax) => this.setup.enabled.has(syntax),
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
      if (closeCalls ? this.block.end() : this.tentative) {
        const rest = this.refuted('', 0);
        this.run(rest.slice(this.resume), true);
      } else this.endBlock();
    }
    if (!this.afterCall) this.releaseWs();
    this.out.flush();
    const calls = this.out.calls;
    this.out.resetCount();
    this.mode = this.setup.startInReasoning ? REASONING_MODE : TEXT_MODE;
    this.reasoningMarkers = THINK_END_MARKERS;
    this.fence.reset();
    this.holdWs = this.messageStart = true;
    this.blockWs = '';
    this.afterCall = this.afterThink = false;
    return calls;
  }

  private run(input: string, final: boolean): void {
    let text = input;
    let pos = 0;
    let scan = 0;
    this.triggers.reset();
    this.heldIn = undefined;
    while (pos < text.length) {
      const t = this.triggers.next(text, scan);
      let r = CONTINUE;
      let marker: string | undefined;
      if (t > pos) r = this.deliver(text, pos, t);
      else if ((marker = matchMarker(this.markers(), text, pos, final)) === PARTIAL) {
        this.pending = text.slice(pos);
        break;
      } else if (marker !== undefined) r = this.onMarker(marker, text, pos);
      if (r === REFUTE) {
        const rest = this.refuted(text, pos);
        if (rest !== text) this.triggers.reset();
        text = rest;
        pos = scan = this.resume;
      } else if (r >= 0) pos = scan = r;
      else if (t > pos) pos = scan = t;
      else if (marker === undefined) scan = pos + 1;
      else pos = scan = pos + marker.length;
    }
  }

  private markers(): readonly string[] {
    if (this.mode === TEXT_MODE) return this.fence.inCode ? NO_MARKERS : this.setup.textMarkers;
    if (this.mode === REASONING_MODE) return this.reasoningMarkers;
    return this.block === undefined ? NO_MARKERS : this.block.markers();
  }

  /** Plain text (no marker inside) to the current mode. */
  private deliver(text: string, from: number, to: number): number {
    if (this.mode === TEXT_MODE) {
      const k = this.textPlain(text, from, to, false);
      if (k >= 0) this.startBlock(new LlamaBlock(this.sink, true), true, '', 1, text, k);
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
      if (!literal && this.messageStart && this.setup.bareJson && text.charCodeAt(i) === 123) return i;
      this.releaseWs();
    }
    this.messageStart = false;
    this.fence.track(text, i, to);
    this.out.add(TEXT, text, i, to);
    return CONTINUE;
  }

  private onMarker(marker: string, text: string, pos: number): number {
    if (this.mode === TEXT_MODE) {
      this.fence.track(marker, 0, marker.length);
      if (marker === THINK || marker === MISTRAL.think) {
        this.releaseWs();
        this.mode = REASONING_MODE;
        this.reasoningMarkers = marker === THINK ? THINK_END_MARKERS : MISTRAL_THINK_END;
      } else if (marker === TOOL_CALL) this.startBlock(new ToolCallStart(this.sink), true, marker, marker.length, text, pos);
      else if (marker === MISTRAL.calls) this.startBlock(new MistralBlock(this.sink), true, marker, marker.length, text, pos);
      else if (marker === PYTHON_TAG) this.startBlock(new LlamaBlock(this.sink, false), true, marker, marker.length, text, pos);
      else this.startBlock(new DeepSeekBlock(this.sink, marker === DEEPSEEK.callBegin), false, marker, marker.length, text, pos);
      return CONTINUE;
    }
    if (this.mode === REASONING_MODE) {
      this.mode = TEXT_MODE;
      this.holdWs = this.afterThink = true;
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

  /** A block opens at `text[at]` with `opener` (of which `literal` characters are released as they are if it is refuted). */
  private startBlock(block: Block, tentative: boolean, opener: string, literal: number, text: string, at: number): void {
    this.heldIn = text;
    this.heldAt = at;
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
    this.afterThink = this.messageStart = false;
  }

  /**
   * The tentative block is text after all: write its opener as text, and return the text to read
   * again from {@link resume}: the current text itself when the block opened in it (nothing is
   * copied), else what was held joined to the rest.
   */
  private refuted(text: string, from: number): string {
    const same = this.heldIn === text;
    const rest = same ? text : this.held + text.slice(from);
    const at = same ? this.heldAt : 0;
    this.mode = TEXT_MODE;
    this.block = this.replacement = this.heldIn = undefined;
    this.tentative = false;
    this.held = '';
    this.textPlain(rest, at, at + this.literal, true);
    this.resume = at + this.literal;
    return rest;
  }

  private releaseWs(): void {
    this.holdWs = false;
    if (this.afterThink) {
      this.afterThink = false;
      this.blockWs = '';
    }
    if (this.blockWs === '') return;
    const ws = this.blockWs;
    this.blockWs = '';
    this.out.add(TEXT, ws, 0, ws.length);
  }
}
