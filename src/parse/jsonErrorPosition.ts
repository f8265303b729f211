/**
 * Find where JSON text first goes wrong, for engines whose `JSON.parse` messages carry no position
 * (V8 says only "Unexpected token 'C', … is not valid JSON"). A single left-to-right pass.
 *
 * @module
 */

const WS = /* @__PURE__ */ new Set([0x20, 0x0a, 0x0d, 0x09]);

class Scanner {
  i = 0;
  constructor(private readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && WS.has(this.s.charCodeAt(this.i))) this.i++;
  }

  value(depth: number): boolean {
    if (depth > 10_000) return false;
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === 't') return this.word('true');
    if (c === 'f') return this.word('false');
    if (c === 'n') return this.word('null');
    return this.number();
  }

  private object(depth: number): boolean {
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') return ++this.i > 0;
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"' || !this.string()) return false;
      this.ws();
      if (this.s[this.i] !== ':') return false;
      this.i++;
      if (!this.value(depth + 1)) return false;
      this.ws();
      const c = this.s[this.i];
      if (c === '}') return ++this.i > 0;
      if (c !== ',') return false;
      this.i++;
    }
  }

  private array(depth: number): boolean {
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return ++this.i > 0;
    for (;;) {
      if (!this.value(depth + 1)) return false;
      this.ws();
      const c = this.s[this.i];
      if (c === ']') return ++this.i > 0;
      if (c !== ',') return false;
      this.i++;
    }
  }

  private string(): boolean {
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s.charCodeAt(this.i);
      if (c === 0x22) return ++this.i > 0;
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = this.s[this.i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i + 2, this.i + 6))) return false;
          this.i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return false;
        this.i += 2;
        continue;
      }
      this.i++;
    }
    return false;
  }

  private word(w: string): boolean {
    for (let k = 0; k < w.length; k++, this.i++) if (this.s[this.i] !== w[k]) return false;
    return true;
  }

  private number(): boolean {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (m === null) return false;
    this.i += m[0].length;
    return true;
  }
}

/** The character offset of the first JSON syntax error in `text`, or `undefined` when it is valid. */
export function jsonErrorPosition(text: string): number | undefined {
  const scanner = new Scanner(text);
  if (!scanner.value(0)) return scanner.i;
  scanner.ws();
  return scanner.i < text.length ? scanner.i : undefined;
}
