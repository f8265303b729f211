/**
 * What the readers of one tool-call block (the text between a syntax's opening marker and where
 * the block ends) share with the parser that runs them.
 *
 * @module
 * @internal
 */
import type { TextToolCallSyntax } from './syntaxes';
import type { ParamTypes } from './schemaTypes';

/** A block reader's answer: go on reading. */
export const CONTINUE = -1;
/** A block reader's answer: this was not a tool call after all; release it as text. */
export const REFUTE = -2;
/** `marker()`'s answer: the block ended with this marker (it was consumed). */
export const ENDED = -3;

/** How a block reader reports calls. Calls get indices 0, 1, 2, … per choice, in order. */
export interface CallSink {
  /** Start the next call. `id` only when the syntax carries one. */
  open(syntax: TextToolCallSyntax, name: string, id?: string): void;
  /** A fragment of the open call's JSON arguments: `text[from..to)`. */
  args(text: string, from: number, to: number): void;
  /** The open call's id arrived after its name (Mistral's `"id"` key). */
  lateId(id: string): void;
  /** End the open call at its closing marker (`incomplete`: the stream ended first). */
  close(incomplete: boolean): void;
  /** A tentative block (one that may still turn out to be text) is a tool call after all. */
  confirm(): void;
  /** Whitespace between calls of a block that has no closing marker: text only if text follows. */
  whitespace(text: string, from: number, to: number): void;
  /** Hand the rest of the block to another reader (the syntax became clear). */
  replace(next: Block): void;
  /** Whether a syntax is enabled. */
  enabled(syntax: TextToolCallSyntax): boolean;
  /** The parameter types of a tool, from `options.tools` (`undefined` when unknown). */
  paramTypes(tool: string, param: string): ParamTypes | undefined;
}

/** The reader of one block, fed plain text and the markers found in it. */
export interface Block {
  /** The markers to look for now (constant arrays: the parser matches them, split or whole). */
  markers(): readonly string[];
  /**
   * Plain text `text[from..to)` (no marker inside). Returns {@link CONTINUE}, {@link REFUTE}, or the
   * index where the block ended (the parser reads the rest as text, or with the replacement).
   */
  plain(text: string, from: number, to: number): number;
  /** One of {@link markers}. Returns {@link CONTINUE}, {@link REFUTE} or {@link ENDED}. */
  marker(marker: string): number;
  /** The stream ended inside the block: close what is open. Returns `true` to release it as text instead. */
  end(): boolean;
}

/** Whether `c` may be part of a tool name written bare (GLM, Mistral, DeepSeek): `[A-Za-z0-9_.:-]`. */
export function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46 || c === 58;
}

/** The longest bare name accepted before a block is refuted. */
export const MAX_NAME = 256;

/** An empty marker list. */
export const NO_MARKERS: readonly string[] = [];

/** {@link matchMarker}'s answer when the text ends with the start of a marker. */
export const PARTIAL = '\u0000partial';

/**
 * The marker of `markers` at `text[pos]`; {@link PARTIAL} when the text ends with the start of one
 * (and more text may come: not `final`); else `undefined`. No marker may be a prefix of another.
 */
export function matchMarker(markers: readonly string[], text: string, pos: number, final: boolean): string | undefined {
  const c = text.charCodeAt(pos);
  const avail = text.length - pos;
  let partial = false;
  for (const m of markers) {
    if (m.charCodeAt(0) !== c) continue;
    const n = m.length < avail ? m.length : avail;
    let k = 1;
    while (k < n && text.charCodeAt(pos + k) === m.charCodeAt(k)) k++;
    if (k === m.length) return m;
    if (k === avail) partial = true;
  }
  return partial && !final ? PARTIAL : undefined;
}
