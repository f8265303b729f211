/**
 * `textToolCalls()`: tool calls that open models write inside their text, lifted into ordinary
 * tool-call events while the text streams.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { StreamEvent } from '../events';
import { operate, type InputHandler } from '../internal/operate';
export { TEXT_TOOL_CALL_SYNTAXES, type TextToolCallSyntax } from './syntaxes';
import { checkTextOptions, type TextToolCallsOptions } from './parserOptions';
export type { TextToolCallsOptions } from './parserOptions';
import { TextToolCallParser } from './textToolCallParser';

/**
 * Lift tool calls written as text (open models served without a tool parser) into ordinary
 * `tool-call-delta` / `tool-call-end` events, while the text streams.
 *
 * <span class="informal">The text a model wrote, `<tool_call>{"name": …}</tool_call>` and all, goes
 * in; the same stream comes out as if the server had parsed the calls itself: `toolCalls()`,
 * `partialToolCalls()` and `runTools()` work on it unchanged.</span>
 *
 * ```text
 * --t--x--y--z--F--d--|      t: text-delta 'Sure. '; x, y, z: text-deltas '<tool_call>{"name":"f",',
 *                            '"arguments":{"a":1}}', '</tool_call>'; F: finish 'stop'; d: done
 *   textToolCalls()
 * --t--a--b--e--G--d--|      a: tool-call-delta (index 0, name 'f'), b: tool-call-delta '{"a":1}',
 *                            e: tool-call-end (index 0); G: finish 'tool-calls'
 * ```
 *
 * 1. Syntaxes (option `syntaxes`, default all): `hermes` (Hermes, Qwen 2.5, Qwen 3),
 *    `qwen3-coder`, `mistral`, `llama3`, `deepseek`, `glm45` (see {@link TextToolCallSyntax}).
 * 2. Arguments stream: each fragment is emitted as it arrives, in the order written. A Hermes
 *    object that gives `"arguments"` before `"name"` is the one exception: its arguments are held
 *    until the name arrives (or the object ends), then emitted at once. Qwen3-Coder and GLM
 *    parameters become a JSON object (`{"key": "value", …}`); their values are typed by the tool's
 *    schema when `tools` has it (a number, boolean, object or array that does not parse as that
 *    type stays a string), else strings (Qwen3-Coder) or JSON-if-it-parses (GLM).
 * 3. Markers may be split across deltas at any character. Only the shortest suffix that could
 *    still begin a marker (`<tool_`) is held back; nothing is shown as text and later retracted.
 * 4. Text that only looks like a call stays text: inside a fenced code block or an inline code
 *    span, a tag that turns out to be something else (`<toolbar>`), a marker followed by something
 *    no syntax allows (`` `<tool_call>` tags ``), and for Llama's bare JSON (only when the
 *    message starts with `{`), any object that is not `{"name": "…", "parameters": {…}}`: the start
 *    of such a message is held back until it can tell, then released unchanged.
 * 5. Each call ends at its own closing marker (`</tool_call>`, `</function>`, the end of a
 *    Mistral / Llama object, `<｜tool▁call▁end｜>`): `tool-call-end` is emitted right there. A call
 *    whose marker is never closed gets `tool-call-end` with `incomplete: true` when its choice
 *    finishes (or the stream completes): `toolCalls()` reports it `incomplete`. A call whose
 *    JSON breaks before its arguments start gets the broken text as its arguments, so it fails
 *    as `malformed-arguments` rather than passing with `{}`.
 * 6. Calls get indices 0, 1, 2, … per choice in order; no ids (the tracker generates them) unless
 *    the syntax carries one (Mistral). Each call's first delta has `metadata.textSyntax`.
 * 7. `<think>…</think>` (and, with `mistral`, `[THINK]…[/THINK]`) become `reasoning-delta`s
 *    (`thinkTags: false` leaves them as text); `startInReasoning: true` for templates that put
 *    `<think>` in the prompt. Calls written inside reasoning stay reasoning. Whitespace right after
 *    `</think>`, and between a call block and the next block or the end of the message, is
 *    template layout and is dropped.
 * 8. A `finish` with reason `stop` for a choice that had at least one lifted call becomes
 *    `tool-calls` (its `rawReason` is kept), as a server with a tool parser reports it.
 * 9. Every other event passes through untouched and in order; choices are independent. On a
 *    source error, held-back text is released and open calls are left to `toolCalls()`, which
 *    reports them `incomplete` with the error's reason.
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { readStreamEvents, toolCalls } from 'rxjs-tool-calls';
 * import { textToolCalls } from 'rxjs-tool-calls/text';
 *
 * declare const bytes$: Observable<Uint8Array>;
 *
 * // vLLM serving Qwen 2.5 without --tool-call-parser: the calls arrive as text in delta.content
 * bytes$.pipe(readStreamEvents(), textToolCalls(), toolCalls()).subscribe((r) => console.log(r.success && r.data.arguments));
 * // displays: { city: 'Paris' }
 * ```
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { z } from 'zod';
 * import { readStreamEvents, toolCalls } from 'rxjs-tool-calls';
 * import { textToolCalls } from 'rxjs-tool-calls/text';
 *
 * declare const bytes$: Observable<Uint8Array>;
 *
 * // Qwen3-Coder writes parameter values as bare text: the schema says `days` is a number
 * const tools = { forecast: z.object({ city: z.string(), days: z.number() }) };
 * bytes$.pipe(readStreamEvents(), textToolCalls({ syntaxes: ['qwen3-coder'], tools }), toolCalls({ tools })).subscribe((r) => console.log(r.success && r.data.arguments));
 * // displays: { city: 'Paris', days: 3 }
 * ```
 *
 * @param options The syntaxes to lift, reasoning tags, and tool schemas for typing XML values.
 * @return An operator from {@link StreamEvent}s to the same events with text-embedded calls lifted.
 * @throws {ToolStreamError} `invalid-option`, at once, when `syntaxes` names an unknown syntax, for an
 *   option it does not take or a value of the wrong kind.
 */
export function textToolCalls(options: TextToolCallsOptions = {}): OperatorFunction<StreamEvent, StreamEvent> {
  checkTextOptions('textToolCalls', options);
  return operate<StreamEvent, StreamEvent>((out) => new TextCalls(out, options));
}

/** One subscription of `textToolCalls()`: one parser per choice; every other event passes through in order. */
class TextCalls implements InputHandler<StreamEvent> {
  private readonly parsers = new Map<number, TextToolCallParser>();
  private readonly emit = (event: StreamEvent): void => this.out.next(event);

  constructor(
    private readonly out: Subscriber<StreamEvent>,
    private readonly options: TextToolCallsOptions,
  ) {}

  next(event: StreamEvent): void {
    switch (event.type) {
      case 'text-delta': {
        let parser = this.parsers.get(event.choice);
        if (parser === undefined) this.parsers.set(event.choice, (parser = new TextToolCallParser(event.choice, this.emit, this.options)));
        parser.push(event.text);
        return;
      }
      case 'finish': {
        const calls = this.parsers.get(event.choice)?.end() ?? 0;
        this.out.next(event.reason === 'stop' && calls > 0 ? { ...event, reason: 'tool-calls' } : event);
        return;
      }
      case 'done':
        this.endAll(true);
        this.out.next(event);
        return;
      case 'restart':
        // The abandoned attempt's held text is released before the restart; its open calls are left
        // for toolCalls() to close. The new attempt's text is read from scratch.
        this.endAll(false);
        this.parsers.clear();
        this.out.next(event);
        return;
      default:
        this.out.next(event);
    }
  }

  complete(): void {
    this.endAll(true);
  }

  error(): void {
    // Held-back text is released; open calls are left for toolCalls() to report incomplete.
    this.endAll(false);
  }

  private endAll(closeCalls: boolean): void {
    for (const parser of this.parsers.values()) parser.end(closeCalls);
  }
}
