/**
 * The parser's output: text, reasoning and argument pieces are gathered (adjacent slices of one
 * string are joined without copying) and sent as one event per kind change or `flush()`, so one
 * incoming delta gives one outgoing event per kind, however its text was scanned.
 *
 * @module
 * @internal
 */
import type { StreamEvent } from '../events';
import type { TextToolCallSyntax } from './syntaxes';

const NONE = 0;
/** A piece of visible text. */
export const TEXT = 1;
/** A piece of reasoning. */
export const REASONING = 2;
const ARGS = 3;

/** Gathers one choice's output pieces. */
export class TextOut {
  private kind = NONE;
  private src = '';
  private from = 0;
  private to = 0;
  private acc = '';
  private index = 0;
  private nextIndex = 0;
  private openIndex = -1;
  private count = 0;
  private head: { readonly name: string; readonly id: string | undefined; readonly syntax: TextToolCallSyntax } | undefined;

  /**
   * @param choice The choice put on every event.
   * @param emit Where events go.
   */
  constructor(
    private readonly choice: number,
    private readonly emit: (event: StreamEvent) => void,
  ) {}

  /** Add `text[from..to)` as text or reasoning. */
  add(kind: typeof TEXT | typeof REASONING, text: string, from: number, to: number): void {
    if (from >= to) return;
    if (kind !== this.kind) {
      this.flush();
      this.kind = kind;
    }
    this.piece(text, from, to);
  }

  /** How many calls were opened since the last {@link resetCount}. */
  get calls(): number {
    return this.count;
  }

  /** Start counting calls for a new message (indices go on). */
  resetCount(): void {
    this.count = 0;
    this.openIndex = -1;
  }

  /** Open the next call (indices 0, 1, 2, … in order): its first event carries the name (and id). */
  open(name: string, id: string | undefined, syntax: TextToolCallSyntax): void {
    if (this.openIndex !== -1) this.close(false);
    this.flush();
    this.kind = ARGS;
    this.index = this.openIndex = this.nextIndex++;
    this.count++;
    this.head = { name, id, syntax };
  }

  /** The open call's id arrived after its first event. */
  lateId(id: string): void {
    if (this.openIndex !== -1) this.event({ type: 'tool-call-delta', choice: this.choice, index: this.openIndex, id, argumentsDelta: '' });
  }

  /** Close the open call (`incomplete`: the stream ended before its closing marker). */
  close(incomplete: boolean): void {
    if (this.openIndex === -1) return;
    this.event({ type: 'tool-call-end', choice: this.choice, index: this.openIndex, ...(incomplete ? { incomplete: true } : {}) });
    this.openIndex = -1;
  }

  /** Add `text[from..to)` to the open call's arguments. */
  args(text: string, from: number, to: number): void {
    if (from >= to || this.openIndex === -1) return;
    if (this.kind !== ARGS) {
      this.flush();
      this.kind = ARGS;
    }
    this.piece(text, from, to);
  }

  /** Send an event that is not gathered (after what was gathered). */
  event(event: StreamEvent): void {
    this.flush();
    this.emit(event);
  }

  /** Send what was gathered. */
  flush(): void {
    const kind = this.kind;
    if (kind === NONE) return;
    const text = this.to > this.from ? this.acc + this.src.slice(this.from, this.to) : this.acc;
    const head = this.head;
    this.kind = NONE;
    this.src = '';
    this.acc = '';
    this.from = this.to = 0;
    this.head = undefined;
    if (kind === ARGS) {
      if (head === undefined) {
        if (text !== '') this.emit({ type: 'tool-call-delta', choice: this.choice, index: this.index, argumentsDelta: text });
        return;
      }
      this.emit({
        type: 'tool-call-delta',
        choice: this.choice,
        index: this.index,
        ...(head.id === undefined ? {} : { id: head.id }),
        name: head.name,
        argumentsDelta: text,
        metadata: { textSyntax: head.syntax },
      });
    } else if (text !== '') this.emit({ type: kind === TEXT ? 'text-delta' : 'reasoning-delta', choice: this.choice, text });
  }

  private piece(text: string, from: number, to: number): void {
    if (text === this.src && from === this.to) {
      this.to = to;
      return;
    }
    if (this.to > this.from) this.acc += this.src.slice(this.from, this.to);
    this.src = text;
    this.from = from;
    this.to = to;
  }
}
