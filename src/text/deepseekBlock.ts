/**
 * DeepSeek's special-token calls: V3 / R1
 * `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>` and V3.1
 * `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`, inside
 * `<｜tool▁calls▁begin｜>` … `<｜tool▁calls▁end｜>`.
 *
 * @module
 * @internal
 */
import { CONTINUE, ENDED, type Block, type CallSink } from './block';
import { indexIn, JsonValueEnd, skipWs } from './jsonScan';
import { DEEPSEEK } from './syntaxes';

const BETWEEN = 0; // between calls
const HEAD = 1; // after <｜tool▁call▁begin｜>: `function` (V3) or the name (V3.1), up to <｜tool▁sep｜>
const AFTER_SEP = 2; // V3.1 arguments, or the V3 name line
const NAME = 3; // V3: the name, up to the line feed
const FENCE = 4; // V3: the "```json" line before the arguments
const ARGS = 5;
const TAIL = 6; // after the arguments: the closing fence, up to <｜tool▁call▁end｜>

const AT_BETWEEN: readonly string[] = [DEEPSEEK.callBegin, DEEPSEEK.callsEnd];
const AT_HEAD: readonly string[] = [DEEPSEEK.sep, DEEPSEEK.callEnd, DEEPSEEK.callsEnd];
const IN_CALL: readonly string[] = [DEEPSEEK.callEnd, DEEPSEEK.callsEnd];

/**
 * One DeepSeek block (special tokens: never mistaken for prose, so never tentative). Each call
 * ends at `<｜tool▁call▁end｜>`; the block at `<｜tool▁calls▁end｜>`, or at the first text after a call.
 */
export class DeepSeekBlock implements Block {
  private state: number;
  private head = '';
  private name = '';
  private readonly args = new JsonValueEnd();

  /**
   * @param sink The parser.
   * @param inCall The block opened with `<｜tool▁call▁begin｜>` itself (no `<｜tool▁calls▁begin｜>`).
   */
  constructor(
    private readonly sink: CallSink,
    inCall: boolean,
  ) {
    this.state = inCall ? HEAD : BETWEEN;
  }

  markers(): readonly string[] {
    return this.state === BETWEEN ? AT_BETWEEN : this.state === HEAD ? AT_HEAD : IN_CALL;
  }

  plain(text: string, from: number, to: number): number {
    let i = from;
    switch (this.state) {
      case BETWEEN:
        i = skipWs(text, i, to);
        return i === to ? CONTINUE : i;
      case HEAD:
        this.head += text.slice(from, to);
        return CONTINUE;
      case AFTER_SEP: {
        i = skipWs(text, i, to);
        if (i === to) return CONTINUE;
        const c = text.charCodeAt(i);
        if (c === 123 || c === 91) {
          this.open(this.head);
          return this.readArgs(text, i, to);
        }
        this.state = NAME;
        return this.plain(text, i, to);
      }
      case NAME: {
        const end = indexIn(text, 10, i, to); // line feed
        this.name += text.slice(i, end);
        if (end === to) return CONTINUE;
        this.open(this.name);
        this.state = FENCE;
        return this.plain(text, end + 1, to);
      }
      case FENCE: {
        for (; i < to; i++) {
          const c = text.charCodeAt(i);
          if (c === 123 || c === 91) {
            this.state = ARGS;
            return this.readArgs(text, i, to);
          }
        }
        return CONTINUE;
      }
      case ARGS:
        return this.readArgs(text, i, to);
      default:
        return CONTINUE; // TAIL: the closing fence and whitespace
    }
  }

  marker(marker: string): number {
    if (marker === DEEPSEEK.callBegin) {
      this.state = HEAD;
      this.head = '';
      this.name = '';
      return CONTINUE;
    }
    if (marker === DEEPSEEK.sep) {
      this.state = AFTER_SEP;
      return CONTINUE;
    }
    if (this.state !== BETWEEN) this.closeCall(false);
    return marker === DEEPSEEK.callsEnd ? ENDED : CONTINUE;
  }

  end(): boolean {
    if (this.state !== BETWEEN) this.closeCall(true);
    return false;
  }

  private open(name: string): void {
    this.sink.open('deepseek', name.trim());
    this.args.reset();
    this.state = ARGS;
  }

  private readArgs(text: string, from: number, to: number): number {
    const end = this.args.scan(text, from, to);
    this.sink.args(text, from, end === -1 ? to : end);
    if (end !== -1) this.state = TAIL;
    return CONTINUE;
  }

  private closeCall(incomplete: boolean): void {
    if (this.state === HEAD || this.state === AFTER_SEP) this.open(this.head);
    else if (this.state === NAME) this.open(this.name);
    this.sink.close(incomplete);
    this.state = BETWEEN;
  }
}
