/**
 * One string built from many pieces (the lines of an event's data, the chunks of a long line) in
 * memory proportional to its length, however small the pieces are.
 *
 * Concatenating piece by piece with `+` builds a rope of 32-byte cells per piece (about 35 × the
 * text for one-char data lines); an array of one-char chunks costs 8 + 16 bytes a char. Here the
 * pieces are collected in an array that is joined into one block every {@link MAX_PIECES} pieces;
 * the blocks are joined once, when the text is taken. The peak, at that last join, is twice the
 * text; a text of fewer pieces is joined once, as before.
 *
 * @module
 */

/** The pieces are joined into one block when there are this many. */
const MAX_PIECES = 1024;
/** {@link TextBuffer.detach} makes a block of its copy once it is this long (else keeps it as a piece). */
const BLOCK = 8192;
/** V8 keeps a substring this long (or longer) as a view into its parent string. */
const SLICE_MIN = 13;

/** The empty list of a buffer that never had two pieces (shared: never written to). */
const NONE: string[] = [];

/**
 * A copy of `s` that does not keep the string it was sliced from alive. (Joining two non-empty
 * strings makes a new flat string; V8 returns `[s].join('')` and even `[s, ''].join('')` as `s`.)
 */
function detached(s: string): string {
  return s.length < SLICE_MIN ? s : [s.slice(0, 1), s.slice(1)].join('');
}

/** Builds one string from pieces joined by a separator, in memory of about the text's size. */
export class TextBuffer {
  /** The length of the text so far, separators included. */
  length = 0;
  /** The number of pieces added since the last {@link TextBuffer.take}. */
  count = 0;

  private readonly separator: string;
  /** The only piece, while there is one (the common case: no array, no join). */
  private first = '';
  /** Pieces not yet joined into a block (from the second piece on, the first included). */
  private pieces: string[] = NONE;
  /** Joined blocks of pieces. */
  private blocks: string[] = NONE;
  /** Pieces added since the last copy. */
  private fresh = 0;

  /**
   * An empty buffer.
   *
   * @param separator Put between pieces: `''` for the chunks of a line, `'\n'` for data lines.
   */
  constructor(separator: string) {
    this.separator = separator;
  }

  /** Append `piece` (after a separator, unless it is the first). */
  add(piece: string): void {
    if (this.count++ === 0) {
      this.first = piece;
      this.length = piece.length;
      return;
    }
    this.length += this.separator.length + piece.length;
    if (this.count === 2) {
      this.pieces = [this.first];
      this.first = '';
    }
    this.fresh++;
    if (this.pieces.push(piece) >= MAX_PIECES) this.seal();
  }

  /**
   * Copy the pieces not yet joined, so that the buffer keeps nothing of the texts they were
   * sliced from but their own chars (called after a large text: otherwise a few short data lines
   * could keep many large chunks alive). A lone first piece stays as it is: one text at most.
   * The copy stays a piece until it is {@link BLOCK} chars long, so that a run of large texts
   * with one short line each does not make one block per line: each call copies at most that
   * much besides the new pieces.
   */
  detach(): void {
    if (this.fresh === 0) return;
    const copy = this.copy();
    if (copy.length >= BLOCK) {
      this.addBlock(copy);
      this.pieces = [];
    } else {
      this.pieces = [copy];
    }
    this.fresh = 0;
  }

  /** The text, and an empty buffer. */
  take(): string {
    if (this.count < 2) {
      const text = this.first;
      this.first = '';
      this.length = this.count = 0;
      return text;
    }
    let text: string;
    if (this.blocks.length === 0) {
      text = this.pieces.join(this.separator);
    } else {
      this.seal();
      text = this.blocks.join(this.separator);
    }
    this.clear();
    return text;
  }

  /** Forget the text. */
  clear(): void {
    this.first = '';
    this.pieces = this.blocks = NONE;
    this.length = this.count = this.fresh = 0;
  }

  /** Join the pieces into one block. */
  private seal(): void {
    if (this.pieces.length === 0) return;
    this.addBlock(this.copy());
    this.pieces = [];
    this.fresh = 0;
  }

  private addBlock(block: string): void {
    if (this.blocks === NONE) this.blocks = [block];
    else this.blocks.push(block);
  }

  /** The pieces joined (a copy: nothing in it refers to the texts they came from). */
  private copy(): string {
    const { pieces } = this;
    return pieces.length === 1 ? detached(pieces[0] as string) : pieces.join(this.separator);
  }
}
