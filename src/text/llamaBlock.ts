/**
 * Llama 3.1 – 3.3 calls: `<|python_tag|>{"name": …, "parameters": {…}}`, and the same JSON written
 * as the whole message (several separated by `;`).
 *
 * @module
 * @internal
 */
import { CONTINUE, NO_MARKERS, REFUTE, type Block, type CallSink } from './block';
import { JsonCallReader } from './jsonCallReader';
import { skipWs } from './jsonScan';

const START = 0; // after <|python_tag|>: a JSON object must follow (tentative)
const OBJECT = 1;
const AFTER = 2; // after an object: `;` and another object, or the end of the block
const NEXT = 3; // after `;`

/**
 * One Llama block. After `<|python_tag|>` anything but a JSON object (Python code, the built-in
 * `brave_search.call(…)` form) makes it text. A bare message (`bare`) is read strictly: it is a
 * call only once it has a string `name` and an object `parameters` (or `arguments`) and no other
 * key before them; otherwise the whole held text is released unchanged. Each call ends with its
 * object's closing brace.
 */
export class LlamaBlock implements Block {
  private state: number;
  private current: JsonCallReader | undefined;

  /**
   * @param sink The parser.
   * @param bare The block is a message that starts with `{` (no tag).
   */
  constructor(
    private readonly sink: CallSink,
    bare: boolean,
  ) {
    this.state = bare ? OBJECT : START;
    if (bare) this.current = new JsonCallReader(sink, 'llama3', true);
  }

  markers(): readonly string[] {
    return NO_MARKERS;
  }

  plain(text: string, from: number, to: number): number {
    let i = from;
    while (i < to) {
      if (this.state === OBJECT && this.current !== undefined) {
        const r = this.current.feed(text, i, to);
        if (r === REFUTE) return REFUTE;
        if (r === CONTINUE) return CONTINUE;
        this.sink.close(false);
        if (this.current.broken) return r;
        this.state = AFTER;
        i = r;
        continue;
      }
      const j = skipWs(text, i, to);
      if (this.state === AFTER && j > i) this.sink.whitespace(text, i, j);
      i = j;
      if (i === to) return CONTINUE;
      const c = text.charCodeAt(i);
      if (this.state === AFTER) {
        if (c !== 59) return i;
        this.state = NEXT;
        i++;
        continue;
      }
      if (c !== 123) return this.state === START ? REFUTE : i;
      if (this.state === START) this.sink.confirm();
      this.current = new JsonCallReader(this.sink, 'llama3');
      this.state = OBJECT;
    }
    return CONTINUE;
  }

  marker(): number {
    return CONTINUE;
  }

  end(): boolean {
    if (this.state === START) {
      this.sink.confirm();
      this.sink.open('llama3', '');
    } else if (this.state === OBJECT && this.current !== undefined) {
      if (!this.current.isOpen && this.current.unconfirmed) return true;
      this.current.ensureOpen();
    } else return false;
    this.sink.close(true);
    return false;
  }
}
