/**
 * What follows `<tool_call>`: Hermes JSON (`{"name": …, "arguments": …}`), Qwen3-Coder XML
 * (`<function=…>`) or GLM 4.5 (`NAME` then `<arg_key>` pairs), told apart by the first
 * non-whitespace character.
 *
 * @module
 * @internal
 */
import { CONTINUE, ENDED, isNameChar, REFUTE, type Block, type CallSink } from './block';
import { GlmBlock } from './glmBlock';
import { JsonCallReader } from './jsonCallReader';
import { skipWs } from './jsonScan';
import { QwenBlock } from './qwenBlock';
import { QWEN, TOOL_CALL_END } from './syntaxes';

const HERMES_MARKERS: readonly string[] = [TOOL_CALL_END];

/**
 * Right after `<tool_call>`, before the syntax is clear (tentative: a character that starts none
 * of the enabled syntaxes, as in `` `<tool_call>` ``, makes it text).
 */
export class ToolCallStart implements Block {
  private readonly list: readonly string[];
  private atTag = true; // nothing read since the tag: GLM writes the name right after it

  /** @param sink The parser. */
  constructor(private readonly sink: CallSink) {
    this.list = sink.enabled('qwen3-coder') ? [TOOL_CALL_END, QWEN.function] : HERMES_MARKERS;
  }

  markers(): readonly string[] {
    return this.list;
  }

  plain(text: string, from: number, to: number): number {
    const i = skipWs(text, from, to);
    const atTag = this.atTag && i === from;
    this.atTag = false;
    if (i === to) return CONTINUE;
    const c = text.charCodeAt(i);
    if ((c === 123 || c === 91) && this.sink.enabled('hermes')) {
      this.sink.confirm();
      this.sink.replace(new HermesBlock(this.sink));
      return i;
    }
    if (atTag && isNameChar(c) && this.sink.enabled('glm45')) {
      this.sink.replace(new GlmBlock(this.sink));
      return i;
    }
    return REFUTE;
  }

  marker(marker: string): number {
    if (marker === QWEN.function) {
      this.sink.confirm();
      this.sink.replace(new QwenBlock(this.sink));
    }
    return ENDED; // `<tool_call></tool_call>`: nothing
  }

  end(): boolean {
    this.sink.confirm();
    this.sink.open('hermes', '');
    this.sink.close(true);
    return false;
  }
}

/**
 * Hermes / Qwen 2.5 / Qwen 3: one JSON call object (or, as some models write, several, or a JSON
 * list of them) up to `</tool_call>`, which ends the (last) call.
 */
export class HermesBlock implements Block {
  private current: JsonCallReader | undefined;

  /** @param sink The parser. */
  constructor(private readonly sink: CallSink) {}

  markers(): readonly string[] {
    return HERMES_MARKERS;
  }

  plain(text: string, from: number, to: number): number {
    let i = from;
    while (i < to) {
      const current = this.current;
      if (current !== undefined && !current.done) {
        if (current.broken) {
          // not JSON any more: up to the closing tag, the arguments' text when they had not started, else ignored
          if (current.rawTail) this.sink.args(text, i, to);
          return CONTINUE;
        }
        const r = current.feed(text, i, to);
        if (r < 0) return CONTINUE;
        i = r;
        continue;
      }
      if (text.charCodeAt(i) === 123) {
        if (current !== undefined) this.sink.close(false);
        this.current = new JsonCallReader(this.sink, 'hermes');
        continue;
      }
      i++; // whitespace, and the `[`, `,` and `]` of a list of calls
    }
    return CONTINUE;
  }

  marker(): number {
    this.closeCall(false);
    return ENDED;
  }

  end(): boolean {
    this.closeCall(true);
    return false;
  }

  private closeCall(incomplete: boolean): void {
    if (this.current === undefined) this.sink.open('hermes', '');
    else this.current.ensureOpen();
    this.sink.close(incomplete);
  }
}
