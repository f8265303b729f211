/**
 * Qwen3-Coder's XML calls: `<function=NAME>` `<parameter=KEY>` value `</parameter>` … `</function>`,
 * inside `<tool_call>` … `</tool_call>`.
 *
 * @module
 * @internal
 */
import { CONTINUE, ENDED, type Block, type CallSink } from './block';
import { indexIn } from './jsonScan';
import { QWEN, TOOL_CALL_END } from './syntaxes';
import { XmlValue } from './xmlValue';

const FN_NAME = 0; // after `<function=`: the name up to `>`
const FN_BODY = 1; // between parameters
const PARAM_NAME = 2; // after `<parameter=`: the key up to `>`
const VALUE = 3;
const AFTER_FN = 4; // after `</function>`: another `<function=` or `</tool_call>`

const IN_FUNCTION: readonly string[] = [QWEN.parameter, QWEN.functionEnd, TOOL_CALL_END];
const IN_VALUE: readonly string[] = [QWEN.parameterEnd, QWEN.parameter, QWEN.functionEnd, TOOL_CALL_END];
const AFTER_FUNCTION: readonly string[] = [QWEN.function, TOOL_CALL_END];

/**
 * One `<tool_call>` block of Qwen3-Coder, entered right after `<function=`. Each function is one
 * call, ended by its `</function>`. Parameter values are JSON-typed by the tool's schema when
 * `options.tools` has it, strings otherwise (one line feed around the value is dropped, as the
 * template writes the value on its own line). A missing `</parameter>` is tolerated: the next
 * `<parameter=` or `</function>` ends the value.
 */
export class QwenBlock implements Block {
  private state = FN_NAME;
  private name = '';
  private key = '';
  private first = true;
  private readonly value: XmlValue;

  /** @param sink The parser. */
  constructor(private readonly sink: CallSink) {
    this.value = new XmlValue(sink);
  }

  markers(): readonly string[] {
    return this.state === VALUE ? IN_VALUE : this.state === AFTER_FN ? AFTER_FUNCTION : IN_FUNCTION;
  }

  plain(text: string, from: number, to: number): number {
    let i = from;
    if (this.state === FN_NAME || this.state === PARAM_NAME) {
      const end = indexIn(text, 62, i, to); // '>'
      if (this.state === FN_NAME) this.name += text.slice(i, end);
      else this.key += text.slice(i, end);
      if (end === to) return CONTINUE;
      i = end + 1;
      if (this.state === FN_NAME) this.openCall();
      else this.beginValue();
    }
    if (this.state === VALUE && i < to) this.value.push(text, i, to);
    return CONTINUE; // anything between the tags is ignored
  }

  marker(marker: string): number {
    switch (marker) {
      case QWEN.parameter:
        this.endHeader();
        this.state = PARAM_NAME;
        this.key = '';
        return CONTINUE;
      case QWEN.parameterEnd:
        this.endHeader();
        this.state = FN_BODY;
        return CONTINUE;
      case QWEN.function:
        this.state = FN_NAME;
        this.name = '';
        this.first = true;
        return CONTINUE;
      case QWEN.functionEnd:
        this.closeCall(false);
        return CONTINUE;
      default: // </tool_call>
        if (this.state !== AFTER_FN) this.closeCall(false);
        return ENDED;
    }
  }

  end(): boolean {
    if (this.state === FN_NAME) this.openCall();
    if (this.state !== AFTER_FN) this.sink.close(true);
    return false;
  }

  private openCall(): void {
    this.sink.open('qwen3-coder', this.name.trim());
    this.state = FN_BODY;
  }

  private beginValue(): void {
    const key = this.key.trim();
    this.value.begin(key, this.first, this.sink.paramTypes(this.name.trim(), key), 'string', 'newline');
    this.first = false;
    this.state = VALUE;
  }

  /** Whatever was being read when a tag arrived is finished as far as it got. */
  private endHeader(): void {
    if (this.state === FN_NAME) this.openCall();
    else if (this.state === PARAM_NAME) this.beginValue();
    if (this.state === VALUE) {
      this.value.finish();
      this.state = FN_BODY;
    }
  }

  private closeCall(incomplete: boolean): void {
    this.endHeader();
    const close = this.first ? '{}' : '}';
    this.sink.args(close, 0, close.length);
    this.sink.close(incomplete);
    this.state = AFTER_FN;
  }
}
