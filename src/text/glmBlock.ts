/**
 * GLM 4.5 / 4.6 calls: `<tool_call>NAME\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>…</tool_call>`.
 *
 * @module
 * @internal
 */
import { CONTINUE, ENDED, isNameChar, MAX_NAME, REFUTE, type Block, type CallSink } from './block';
import { isWs } from './jsonScan';
import { GLM, TOOL_CALL_END } from './syntaxes';
import { XmlValue } from './xmlValue';

const NAME = 0; // the tool name, right after `<tool_call>` (tentative)
const AFTER_NAME = 1; // whitespace after the name (tentative)
const BODY = 2; // between pairs
const KEY = 3; // inside `<arg_key>`
const BETWEEN = 4; // after `</arg_key>`, before `<arg_value>`
const VALUE = 5; // inside `<arg_value>`

const AT_NAME: readonly string[] = [GLM.key, TOOL_CALL_END];
const IN_KEY: readonly string[] = [GLM.keyEnd, TOOL_CALL_END];
const AT_VALUE: readonly string[] = [GLM.value, GLM.key, TOOL_CALL_END];
const IN_VALUE: readonly string[] = [GLM.valueEnd, GLM.key, TOOL_CALL_END];

/**
 * One GLM call. It stays tentative until the name is followed by `<arg_key>` or `</tool_call>`: a
 * name with characters no tool name has (a space inside, punctuation) makes it text. Values are
 * typed by the tool's schema when `options.tools` has it; otherwise a value that is JSON
 * (`42`, `true`, `{"a": 1}`) is that JSON and anything else a string, as GLM's own parser does.
 * Whitespace around values is dropped.
 */
export class GlmBlock implements Block {
  private state = NAME;
  private name = '';
  private key = '';
  private first = true;
  private opened = false;
  private readonly value: XmlValue;

  /** @param sink The parser. */
  constructor(private readonly sink: CallSink) {
    this.value = new XmlValue(sink);
  }

  markers(): readonly string[] {
    switch (this.state) {
      case KEY:
        return IN_KEY;
      case BETWEEN:
        return AT_VALUE;
      case VALUE:
        return IN_VALUE;
      default:
        return AT_NAME;
    }
  }

  plain(text: string, from: number, to: number): number {
    if (this.state === NAME || this.state === AFTER_NAME) {
      let i = from;
      if (this.state === NAME) {
        while (i < to && isNameChar(text.charCodeAt(i))) i++;
        this.name += text.slice(from, i);
        if (this.name.length > MAX_NAME) return REFUTE;
        if (i < to) this.state = AFTER_NAME;
      }
      while (i < to && isWs(text.charCodeAt(i))) i++;
      return i < to ? REFUTE : CONTINUE;
    }
    if (this.state === KEY) this.key += text.slice(from, to);
    else if (this.state === VALUE) this.value.push(text, from, to);
    return CONTINUE; // anything between the tags is ignored
  }

  marker(marker: string): number {
    this.openCall();
    switch (marker) {
      case GLM.key:
        this.endValue();
        this.state = KEY;
        this.key = '';
        return CONTINUE;
      case GLM.keyEnd:
        this.state = BETWEEN;
        return CONTINUE;
      case GLM.value: {
        const key = this.key.trim();
        this.value.begin(key, this.first, this.sink.paramTypes(this.name, key), 'auto', 'whitespace');
        this.first = false;
        this.state = VALUE;
        return CONTINUE;
      }
      case GLM.valueEnd:
        this.endValue();
        return CONTINUE;
      default: // </tool_call>
        this.endValue();
        this.sink.args(this.first ? '{}' : '}', 0, this.first ? 2 : 1);
        this.sink.close(false);
        return ENDED;
    }
  }

  end(): boolean {
    this.openCall();
    this.sink.close(true);
    return false;
  }

  private openCall(): void {
    if (this.opened) return;
    this.opened = true;
    this.sink.confirm();
    this.sink.open('glm45', this.name);
    this.state = BODY;
  }

  private endValue(): void {
    if (this.state === VALUE) this.value.finish();
    this.state = BODY;
  }
}
