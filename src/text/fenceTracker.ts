/**
 * Where visible text is inside Markdown code: a fenced block (a line starting with three or more
 * backticks or tildes, up to a line with at least as many) or an inline code span (a run of
 * backticks up to the next run of the same length on the same line). Tool-call markers there are
 * text: a model showing the syntax, not using it.
 *
 * @module
 * @internal
 */

const START = 0; // at the start of a line (up to three spaces of indentation)
const MID = 1;

/** Follows the text character by character (one comparison each, no allocation). */
export class FenceTracker {
  private col = START;
  private indent = 0;
  private runChar = 0;
  private runLen = 0;
  private runAtStart = false;
  private fenceChar = 0;
  private fenceLen = 0;
  private inlineLen = 0;

  /** Whether the text so far ends inside a fenced block or an inline code span. */
  get inCode(): boolean {
    this.endRun();
    return this.fenceLen > 0 || this.inlineLen > 0;
  }

  /** Forget everything (a new message). */
  reset(): void {
    this.col = START;
    this.indent = this.runChar = this.runLen = this.fenceChar = this.fenceLen = this.inlineLen = 0;
    this.runAtStart = false;
  }

  /** Follow `text[from..to)`. */
  track(text: string, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (this.runLen > 0) {
        if (c === this.runChar) {
          this.runLen++;
          continue;
        }
        this.endRun();
      }
      if (c === 10) {
        this.col = START;
        this.indent = 0;
        this.inlineLen = 0;
      } else if (c === 96 || (c === 126 && this.col === START)) {
        this.runChar = c;
        this.runLen = 1;
        this.runAtStart = this.col === START;
        this.col = MID;
      } else if (this.col === START && c === 32 && this.indent < 3) this.indent++;
      else this.col = MID;
    }
  }

  private endRun(): void {
    const len = this.runLen;
    if (len === 0) return;
    this.runLen = 0;
    if (this.runAtStart && len >= 3) {
      if (this.fenceLen === 0) {
        this.fenceChar = this.runChar;
        this.fenceLen = len;
        this.inlineLen = 0;
      } else if (this.runChar === this.fenceChar && len >= this.fenceLen) this.fenceLen = 0;
    } else if (this.fenceLen === 0 && this.runChar === 96) {
      this.inlineLen = this.inlineLen === 0 ? len : this.inlineLen === len ? 0 : this.inlineLen;
    }
  }
}
