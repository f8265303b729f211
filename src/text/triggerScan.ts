/**
 * Where the next marker may start: every marker begins with `<` or `[`, so the parser looks only
 * there. Positions are cached, and looking again from an earlier position (after a block ended
 * early, or turned out to be text) searches only the part not searched yet: each character is
 * searched a bounded number of times.
 *
 * @module
 * @internal
 */

/** The next occurrence of one character, cached: none in `[from, at)`. */
class Next {
  private from = 0;
  private at = -1;

  constructor(private readonly c: string) {}

  reset(): void {
    this.from = 0;
    this.at = -1;
  }

  find(text: string, from: number): number {
    if (from < this.from && this.at >= 0) {
      const code = this.c.charCodeAt(0);
      for (let i = from; i < this.from; i++) {
        if (text.charCodeAt(i) === code) {
          this.at = i;
          break;
        }
      }
    } else if (this.at < from) {
      const i = text.indexOf(this.c, from);
      this.at = i === -1 ? text.length : i;
    }
    this.from = from;
    return this.at;
  }
}

/** The next `<` or `[` of a text, cached. */
export class TriggerScan {
  private readonly lt = new Next('<');
  private readonly br = new Next('[');

  /** Forget the cache (a new text). */
  reset(): void {
    this.lt.reset();
    this.br.reset();
  }

  /** The index of the next `<` or `[` at or after `from`, or the text's length. */
  next(text: string, from: number): number {
    const lt = this.lt.find(text, from);
    const br = this.br.find(text, from);
    return lt < br ? lt : br;
  }
}
