/**
 * Reads one tool call written as a JSON object, `{"name": …, "arguments": {…}}` (Hermes, Mistral's
 * list, Llama's `"parameters"`), streaming the arguments' text as it arrives.
 *
 * @module
 * @internal
 */
import { CONTINUE, REFUTE, type CallSink } from './block';
import { decodeJsonString, isWs, JsonStringStream, JsonValueEnd, stringEnd } from './jsonScan';
import type { TextToolCallSyntax } from './syntaxes';

const START = 0; // before '{'
const KEY_OR_END = 1; // after '{' or ',': a key or '}'
const KEY = 2; // inside a key
const COLON = 3;
const VALUE = 4; // after ':'
const CAPTURE = 5; // inside the string value of "name" / "id" / "type"
const ARGS = 6; // inside the arguments value (object, array, number, literal)
const ARGS_STRING = 7; // inside arguments written as a JSON string: its decoded content is the arguments
const SKIP = 8; // inside the value of another key
const AFTER = 9; // after a value: ',' or '}'
const DONE = 10;
const BROKEN = 11;

const OTHER = 0;
const NAME = 1;
const ARGUMENTS = 2;
const ID = 3;
const TYPE = 4;

function keyKind(key: string): number {
  switch (key) {
    case 'name':
      return NAME;
    case 'arguments':
    case 'parameters':
      return ARGUMENTS;
    case 'id':
      return ID;
    case 'type':
      return TYPE;
    default:
      return OTHER;
  }
}

/**
 * One call object. The call opens when its name is known, so the arguments stream right after it;
 * arguments written BEFORE the name (`{"arguments": {…}, "name": …}`) are kept until the name
 * arrives (or the object ends), then sent in one piece.
 *
 * `strict` (a bare JSON message, Llama): the object counts as a call only once it has a string
 * `name` and `parameters` / `arguments`, with no other key before them (`type` aside); until then
 * anything else refutes it, and the parser releases the text unchanged.
 */
export class JsonCallReader {
  private state = START;
  private kind = OTHER;
  private raw = '';
  private readonly escape = { escaped: false };
  private readonly value = new JsonValueEnd();
  private readonly str = new JsonStringStream();
  private name: string | undefined;
  private id: string | undefined;
  private argsSeen = false;
  private opened = false;
  private confirmed: boolean;
  private buffer = '';
  private rawObject = '';
  private readonly emitArgs = (text: string, from: number, to: number): void => {
    if (this.opened) this.sink.args(text, from, to);
    else this.buffer += text.slice(from, to);
  };

  /**
   * @param sink Where the call goes.
   * @param syntax The syntax named on the call.
   * @param strict Refute the object unless it is clearly a call (see the class comment).
   */
  constructor(
    private readonly sink: CallSink,
    private readonly syntax: TextToolCallSyntax,
    private readonly strict = false,
  ) {
    this.confirmed = !strict;
  }

  /** The object was read to its closing brace. */
  get done(): boolean {
    return this.state === DONE;
  }

  /** The text stopped being a JSON object (the call keeps what it had). */
  get broken(): boolean {
    return this.state === BROKEN;
  }

  /** A strict object that is not (yet) known to be a call. */
  get unconfirmed(): boolean {
    return !this.confirmed;
  }

  /** Whether the call was reported (opened). */
  get isOpen(): boolean {
    return this.opened;
  }

  /**
   * Read `text[from..to)`. Returns {@link CONTINUE}, {@link REFUTE}, or the index where reading
   * stopped: just past the closing brace ({@link done}) or at a character that does not fit ({@link broken}).
   */
  feed(text: string, from: number, to: number): number {
    const r = this.read(text, from, to);
    if (!this.argsSeen && this.state !== DONE && r !== REFUTE) {
      // keep the object's text until its arguments start: if it breaks first, that text is the
      // call's arguments, so the call fails as malformed instead of passing with `{}`
      this.rawObject += text.slice(from, r >= 0 ? r : to);
      if (this.state === BROKEN) {
        this.ensureOpen();
        this.sink.args(this.rawObject, 0, this.rawObject.length);
        this.rawObject = '';
      }
    }
    return r;
  }

  /** The text broke before the arguments started: what follows (up to the closing marker) belongs to the arguments. */
  get rawTail(): boolean {
    return this.state === BROKEN && !this.argsSeen;
  }

  private read(text: string, from: number, to: number): number {
    let i = from;
    while (i < to) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case START:
        case KEY_OR_END:
        case COLON:
        case VALUE:
        case AFTER:
          if (isWs(c)) {
            i++;
            continue;
          }
          if (this.state === START) {
            if (c !== 123) return this.fail(i);
            this.state = KEY_OR_END;
          } else if (this.state === KEY_OR_END) {
            if (c === 125) return this.close(i + 1);
            if (c !== 34) return this.fail(i);
            this.state = KEY;
            this.raw = '';
          } else if (this.state === COLON) {
            if (c !== 58) return this.fail(i);
            this.state = VALUE;
          } else if (this.state === AFTER) {
            if (c === 125) return this.close(i + 1);
            if (c !== 44) return this.fail(i);
            this.state = KEY_OR_END;
          } else {
            const next = this.startValue(c);
            if (next === REFUTE) return REFUTE;
            if (next !== CAPTURE && next !== ARGS_STRING) continue; // the scanner reads the first character
          }
          i++;
          continue;
        case KEY:
        case CAPTURE: {
          const end = stringEnd(text, i, to, this.escape);
          this.raw += text.slice(i, end === -1 ? to : end);
          if (end === -1) return CONTINUE;
          i = end + 1;
          if (this.onString(decodeJsonString(this.raw)) === REFUTE) return REFUTE;
          continue;
        }
        case ARGS:
        case SKIP: {
          const end = this.value.scan(text, i, to);
          if (this.state === ARGS) this.emitArgs(text, i, end === -1 ? to : end);
          if (end === -1) return CONTINUE;
          i = end;
          this.state = AFTER;
          continue;
        }
        case ARGS_STRING: {
          const end = this.str.push(text, i, to, this.emitArgs);
          if (end === -1) return CONTINUE;
          i = end;
          this.state = AFTER;
          continue;
        }
        default:
          return i;
      }
    }
    return CONTINUE;
  }

  /** The key or captured value ended. */
  private onString(value: string): number {
    if (this.state === KEY) {
      this.kind = keyKind(value);
      this.state = COLON;
      return this.strict && !this.confirmed && this.kind !== NAME && this.kind !== ARGUMENTS && this.kind !== TYPE ? REFUTE : CONTINUE;
    }
    this.state = AFTER;
    if (this.kind === NAME && this.name === undefined) {
      this.name = value;
      if (this.confirmed || this.argsSeen) this.openCall();
    } else if (this.kind === ID && this.id === undefined) {
      this.id = value;
      if (this.opened) this.sink.lateId(value);
    }
    return CONTINUE;
  }

  /** The first character of a value; returns the new state (or {@link REFUTE}). */
  private startValue(c: number): number {
    this.escape.escaped = false;
    this.raw = '';
    if (this.kind === ARGUMENTS && !this.argsSeen) {
      this.argsSeen = true;
      if (this.strict && !this.confirmed) {
        if (c !== 123) return REFUTE;
        if (this.name !== undefined) this.openCall();
      }
      if (c === 34) {
        this.str.reset();
        return (this.state = ARGS_STRING);
      }
      this.value.reset();
      return (this.state = ARGS);
    }
    if (this.kind === NAME || this.kind === ID || this.kind === TYPE) {
      if (c === 34) return (this.state = CAPTURE);
      if (this.strict && !this.confirmed) return REFUTE;
    }
    this.value.reset();
    return (this.state = SKIP);
  }

  private openCall(): void {
    if (!this.confirmed) {
      this.confirmed = true;
      this.sink.confirm();
    }
    this.opened = true;
    this.sink.open(this.syntax, this.name ?? '', this.id);
    if (this.buffer !== '') {
      const buffered = this.buffer;
      this.buffer = '';
      this.sink.args(buffered, 0, buffered.length);
    }
  }

  private close(index: number): number {
    this.state = DONE;
    if (!this.confirmed) return REFUTE;
    this.ensureOpen();
    return index;
  }

  private fail(index: number): number {
    if (!this.confirmed) return REFUTE;
    this.state = BROKEN;
    return index;
  }

  /** Report the call if it was not yet (no name, or the name came after the arguments and never arrived). */
  ensureOpen(): void {
    if (!this.opened) this.openCall();
  }
}
