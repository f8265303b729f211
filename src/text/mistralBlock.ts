/**
 * Mistral's calls after `[TOOL_CALLS]`: a JSON list `[{"name": …, "arguments": {…}, "id": …}, …]`
 * (tokenizers before v11), or `NAME[ARGS]{…}` (v11+; `NAME[CALL_ID]ID[ARGS]{…}` and, when the
 * server drops control tokens, `NAME{…}`), repeated with one `[TOOL_CALLS]` per call.
 *
 * @module
 * @internal
 */
import { CONTINUE, isNameChar, MAX_NAME, NO_MARKERS, REFUTE, type Block, type CallSink } from './block';
import { JsonCallReader } from './jsonCallReader';
import { isWs, JsonValueEnd, skipWs } from './jsonScan';
import { MISTRAL } from './syntaxes';

const START = 0; // after [TOOL_CALLS] (tentative)
const NAME = 1; // the name of the v11 form (tentative)
const CALL_ID = 2; // after [CALL_ID]
const ARGS_WAIT = 3; // after [ARGS]
const ARGS = 4; // the arguments object
const LIST = 5; // the JSON list form

const AT_NAME: readonly string[] = [MISTRAL.args, MISTRAL.callId];
const AT_ID: readonly string[] = [MISTRAL.args];

/**
 * One `[TOOL_CALLS]` block. Tentative until its form is clear (`[`, `{`, or a name followed by
 * `[ARGS]` / `{`). In the list form each object is one call, ended by its closing brace; the
 * block ends after `]`. In the v11 form the call ends with its arguments object.
 */
export class MistralBlock implements Block {
  private state = START;
  private name = '';
  private id = '';
  private readonly args = new JsonValueEnd();
  private current: JsonCallReader | undefined;
  private bracketed = false;
  private opened = false;

  /** @param sink The parser. */
  constructor(private readonly sink: CallSink) {}

  markers(): readonly string[] {
    return this.state === NAME ? AT_NAME : this.state === CALL_ID ? AT_ID : NO_MARKERS;
  }

  plain(text: string, from: number, to: number): number {
    let i = from;
    switch (this.state) {
      case START: {
        i = skipWs(text, i, to);
        if (i === to) return CONTINUE;
        const c = text.charCodeAt(i);
        if (c === 91 || c === 123) {
          this.sink.confirm();
          this.state = LIST;
          this.bracketed = c === 91;
          if (this.bracketed) i++;
          return this.list(text, i, to);
        }
        if (!isNameChar(c)) return REFUTE;
        this.state = NAME;
        return this.plain(text, i, to);
      }
      case NAME: {
        while (i < to && isNameChar(text.charCodeAt(i))) i++;
        this.name += text.slice(from, i);
        if (this.name.length > MAX_NAME) return REFUTE;
        if (i === to) return CONTINUE;
        if (text.charCodeAt(i) !== 123) return REFUTE;
        this.startArgs();
        return this.readArgs(text, i, to);
      }
      case CALL_ID:
        this.id += text.slice(from, to);
        return CONTINUE;
      case ARGS_WAIT:
        i = skipWs(text, i, to);
        if (i === to) return CONTINUE;
        this.state = ARGS;
        return this.readArgs(text, i, to);
      case ARGS:
        return this.readArgs(text, i, to);
      default:
        return this.list(text, i, to);
    }
  }

  marker(marker: string): number {
    if (marker === MISTRAL.callId) {
      this.state = CALL_ID;
      return CONTINUE;
    }
    this.startArgs(); // [ARGS]
    this.state = ARGS_WAIT;
    return CONTINUE;
  }

  end(): boolean {
    if (this.state === START || this.state === NAME || this.state === CALL_ID) this.startArgs();
    if (this.state === LIST) {
      const current = this.current;
      if (current === undefined || current.done) {
        if (this.opened) return false;
        this.sink.open('mistral', '');
      } else current.ensureOpen();
    }
    this.sink.close(true);
    return false;
  }

  private startArgs(): void {
    this.sink.confirm();
    this.opened = true;
    const id = this.id.trim();
    this.sink.open('mistral', this.name, id === '' ? undefined : id);
    this.args.reset();
    this.state = ARGS;
  }

  private readArgs(text: string, from: number, to: number): number {
    const end = this.args.scan(text, from, to);
    this.sink.args(text, from, end === -1 ? to : end);
    if (end === -1) return CONTINUE;
    this.sink.close(false);
    return end;
  }

  /** The list form: objects separated by commas, up to `]` (or one bare object). */
  private list(text: string, from: number, to: number): number {
    let i = from;
    while (i < to) {
      const current = this.current;
      if (current !== undefined && !current.done) {
        const r = current.feed(text, i, to);
        if (r < 0) return CONTINUE;
        this.sink.close(false); // the object ended (or stopped being JSON): its call is over
        if (current.broken || !this.bracketed) return r;
        i = r;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 123) {
        this.opened = true;
        this.current = new JsonCallReader(this.sink, 'mistral');
        continue;
      }
      if (c === 93) return i + 1;
      if (c !== 44 && !isWs(c)) return i;
      i++;
    }
    return CONTINUE;
  }
}
