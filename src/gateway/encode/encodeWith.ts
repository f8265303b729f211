/**
 * The one driver of every wire encoder: {@link StreamEvent}s → SSE text of one format, with tool-call
 * identity resolved by the same reducer (and the same result rules) the readers use.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import { cutReason, type ToolCallsOptions, type TrackedCall } from '../../calls/call';
import { CALLS_OPTION_CHECKS, CallDriver, callsConfig, type CallSink, type CallsConfig } from '../../calls/driver';
import { ToolStreamError, isToolStreamError, type ProviderErrorInfo } from '../../errors';
import type { RestartEvent, RetryEvent, StreamEvent, ToolApprovalRequestEvent, ToolResultEvent } from '../../events';
import { operate, type InputHandler } from '../../internal/operate';
import { aCount, aString, checkOptions, oneOf, type OptionCheck, type OptionChecks } from '../../internal/options';
import { resultOf } from '../../parse/results';
import type { CallOutcome, WireEncoder } from './encoding';

/** Options of every encoder (identity limits, ids and repair, as for the readers; reasoning). */
export interface EncodeOptions extends ToolCallsOptions {
  /** What to do with reasoning text: write it (`'keep'`, the default) or leave it out (`'drop'`). */
  readonly reasoning?: 'keep' | 'drop';
}

/** The checks of {@link EncodeOptions}' own keys and of `EncoderOptions`' (each encoder adds its own: `choice`, `created`, …). */
export const ENCODE_OPTION_CHECKS: OptionChecks = { reasoning: /* @__PURE__ */ oneOf(['keep', 'drop']), model: aString, id: aString };

/** The check of an encoder's `choice`: a choice index. */
export const aChoice: OptionCheck = /* @__PURE__ */ aCount(0, false);

/** The check of an encoder's `created`: a time in seconds since the epoch. */
export const aTimeInSeconds: OptionCheck = (value) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? undefined : 'a time in seconds since the epoch (a finite number, 0 or more)';

/** What was written of one call's arguments. */
interface Written {
  /** The argument text written so far (the tracker's `rawArguments` when in step). */
  sent: string;
  /**
   * A `replace` arrived before anything was written: its text waits for the call's next event; or,
   * in a format that restates the text at the call's end, one replaced what was written: the text
   * waits until it continues what was written, or the call's end.
   */
  held: boolean;
  /**
   * An append-only format, and a fragment began a second JSON object in the call (`}` then `{`):
   * the rest waits for the call's end, where the reducer splits it into calls or not.
   */
  glued?: boolean;
  /** A custom tool's call, written as JSON `{"input": …}` by a format without custom tools: `{"input":"` was written. */
  wrapped?: boolean;
  /**
   * A format whose clients read the argument text as written (`strictArguments`), and every
   * fragment so far repeated all the text before it (the cumulative resend shape): only the first
   * was written; the rest waits for the call's end (the last fragment, when the reader repairs it so).
   */
  cumulative?: boolean;
}

/** How a reader repaired a complete call's text, if it did. */
function repairOf(outcome: CallOutcome): 'repeated' | 'cumulative' | 'split' | undefined {
  return outcome.status === 'complete' ? outcome.repaired : undefined;
}

/** Whether a stream error is the provider's own failure (written in the target's error shape). */
function isProviderError(error: unknown): error is ToolStreamError<'provider-error'> {
  return isToolStreamError(error) && error.code === 'provider-error';
}

/**
 * The provider's own facts of a `provider-error` error. Its `message` is decorated with the provider, code
 * and type (`anthropic error (overloaded_error): Overloaded`); the provider's own message is what
 * the target's error carries, so the decoration is taken off again.
 */
function infoOf(error: ToolStreamError<'provider-error'>): ProviderErrorInfo {
  const prefix = `${error.provider} error${error.providerCode ? ` ${error.providerCode}` : ''}${error.type ? ` (${error.type})` : ''}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  const { provider, providerCode, type, status, retryable, payload, failedGeneration } = error;
  return { provider, providerCode, type, status, retryable, payload, failedGeneration, message };
}

/** The options of an encoder operator, resolved once. */
interface EncodeConfig {
  readonly calls: CallsConfig;
  readonly dropReasoning: boolean;
}

/**
 * Feeds one encoder from one event stream, one subscription: the driver resolves each fragment's
 * call (this run is its sink), this handler gives the encoder what is new and emits the SSE text
 * after each event.
 */
class EncodeRun implements InputHandler<StreamEvent>, CallSink {
  private readonly driver: CallDriver;
  private readonly written: Written[] = [];
  private readonly dropReasoning: boolean;
  private readonly repair: boolean;
  /** Choices that had output, and which of them had calls / finished. */
  private readonly seen = new Set<number>();
  private readonly withCalls = new Set<number>();
  private readonly finished = new Set<number>();
  private any = false;
  private ended = false;
  /** The tool-call delta being applied is a `replace`. */
  private replace = false;
  /** The latest call of each wire id (what tool results and approvals name). */
  private readonly byWireId = new Map<string, TrackedCall>();

  /**
   * @param out Where the SSE text goes.
   * @param encoder The format's writer.
   * @param config The tool-call options and `reasoning`.
   */
  constructor(
    private readonly out: Subscriber<string>,
    private readonly encoder: WireEncoder,
    config: EncodeConfig,
  ) {
    this.driver = new CallDriver(config.calls, this);
    this.dropReasoning = config.dropReasoning;
    this.repair = config.calls.repair;
  }

  /** One source event; throws `too-many-tool-calls`, or `invalid-event` for arguments an append-only format cannot take back. */
  next(event: StreamEvent): void {
    if (this.ended) return; // after the terminator, as the decoders do
    if (event.type === 'retry' || event.type === 'restart') return; // retryStream()'s notices: nothing to write
    this.any = true;
    try {
      this.apply(event);
    } catch (error) {
      this.ended = true; // this run's own failure: nothing more is written (the open calls are not ended)
      throw error;
    }
    this.flush();
  }

  /** The source completed: the end of the stream, unless it never sent anything. */
  complete(): void {
    if (this.any) this.finishStream();
    this.flush();
  }

  /**
   * The source failed: its open calls are closed `incomplete` (each format leaves such a call as a
   * cut-off one reads back: unclosed, or left out). A provider error is then written in the
   * format's error shape and the output completes; any other error goes on as it is, after what
   * was written, with nothing more (no terminator).
   */
  error(error: unknown): void {
    if (!this.ended) this.driver.error(error);
    if (!isProviderError(error)) {
      this.ended = true;
      this.flush();
      return;
    }
    if (!this.ended) this.encoder.error(infoOf(error));
    this.ended = true;
    this.flush();
    this.out.complete();
  }

  /** The driver's step for one tool-call event: the new fragment, or the calls it closed (told back through {@link callFragment} and {@link callClosed}). */
  private reduce(event: StreamEvent): void {
    this.replace = event.type === 'tool-call-delta' && event.replace === true;
    this.driver.event(event);
  }

  /** Hand the encoder what is new of a call's arguments, live; a `replace` waits one event when nothing was written yet. */
  callFragment(call: TrackedCall, argumentsDelta: string): void {
    let written = this.written[call.seq];
    if (written === undefined) {
      written = this.written[call.seq] = { sent: '', held: false };
      if (call.wireId !== undefined) this.byWireId.set(call.wireId, call);
    }
    if (written.glued === true || (call.split === undefined && call.glued && !this.encoder.restatesArguments)) {
      // Glued text (rule `glued-calls`): what follows the first object is written at the call's end, as one call or as its pieces.
      written.glued = true;
      this.hand(call, '');
    } else if (!this.replace && !written.held && this.encoder.strictArguments === true && call.kind !== 'custom' && (written.cumulative === true || (call.cumulative && call.fragments >= 2))) {
      // Each fragment repeats the text before it (rule `unambiguous-repair`): while that holds, only the first is written.
      if (call.cumulative) {
        written.cumulative = true;
        this.hand(call, '');
      } else {
        written.cumulative = false; // the chain broke: not a resend, the text is as it came
        this.hand(call, this.catchUp(call, written));
      }
    } else if (!this.replace && !written.held) {
      // In step: the tracker appended exactly this fragment to what was written.
      written.sent = call.rawArguments;
      this.hand(call, argumentsDelta);
    } else if (this.replace && written.sent === '' && !this.encoder.restatesArguments) {
      // The whole arguments arrived (Gemini parts, Anthropic `input`, Responses `.done` without
      // deltas): an append-only format writes them with the call's next event, so a later
      // `replace` can still supersede them (a format that restates the text at the call's end
      // writes them at once: a later replace is set right there).
      written.held = call.rawArguments !== '';
      this.hand(call, '');
    } else {
      this.hand(call, this.catchUp(call, written));
    }
  }

  /** A call closed: what was held of it, then its end. */
  callClosed(call: TrackedCall): void {
    if (this.ended) return;
    // A choice's `missing` call is no call: its `tool-calls` finish is written as it came, and reads back the same.
    if (call.ending?.kind === 'missing') return;
    const written = this.written[call.seq];
    if (call.wireId !== undefined) this.byWireId.set(call.wireId, call);
    let outcome: CallOutcome | undefined;
    const judge = (): CallOutcome => (outcome ??= this.outcome(call));
    if (call.split !== undefined && call.split.part > 0) {
      // A piece split from glued text: its own call, written whole.
      this.written[call.seq] = { sent: call.rawArguments, held: false };
      this.hand(call, call.rawArguments);
    } else if (written?.glued === true) {
      // Held glued text: the first object was written (with at most some whitespace after it); the rest now, unless it was split off.
      // A client that reads the text as written gets the repaired value: copies of one document are not written again.
      const raw = call.rawArguments;
      const repeated = this.encoder.strictArguments === true && repairOf(judge()) === 'repeated';
      if (!repeated && raw.startsWith(written.sent)) {
        const append = raw.slice(written.sent.length);
        written.sent = raw;
        if (append !== '') this.hand(call, append);
      }
    } else if (written?.cumulative === true) {
      // Held resends: the last fragment when the reader repairs the call so (it began with what was written), else the text as it came.
      const last = call.lastFragment;
      let append: string;
      if (repairOf(judge()) === 'cumulative' && last.startsWith(written.sent)) {
        append = last.slice(written.sent.length);
        written.sent = last;
      } else append = this.catchUp(call, written);
      if (append !== '') this.hand(call, append);
    } else if (written !== undefined && written.held) {
      const append = this.catchUp(call, written);
      if (append !== '') this.hand(call, append);
    }
    if (call.kind === 'custom' && this.encoder.customCalls !== true && call.ending?.kind === 'complete' && judge().status !== 'incomplete') {
      // The end of the `{"input": …}` a custom call is written as (a call cut short is left open: read back as cut).
      const wrapped = this.written[call.seq]?.wrapped === true;
      this.encoder.toolCallDelta(call, wrapped ? '"}' : '{"input":""}');
    } else if (this.encoder.strictArguments === true && call.kind !== 'custom' && call.rawArguments.trim() === '' && call.split === undefined) {
      // No arguments (a tool without parameters): the readers take them as `{}`, a client that parses the text needs it written.
      const outcome = judge();
      if (outcome.status === 'complete') this.hand(call, JSON.stringify(outcome.value));
    }
    this.encoder.toolCallEnd(call, {
      outcome: judge,
      // Without parsing when the ending decides it: cut or too large, or complete under a finish
      // that cuts nothing (only `cutReason` finishes make unparseable arguments incomplete).
      incomplete: () => {
        const ending = call.ending;
        if (ending === undefined || ending.kind !== 'complete') return true;
        return cutReason(ending.finishReason) !== undefined && judge().status === 'incomplete';
      },
    });
  }

  private apply(event: Exclude<StreamEvent, RetryEvent | RestartEvent>): void {
    if (event.type === 'metadata') return this.encoder.metadata(event);
    if (event.type === 'usage') return this.encoder.usage(event);
    if (event.type === 'done') return this.finishStream();
    const choices = this.encoder.choices;
    if (choices !== 'all' && event.choice !== choices) return;
    switch (event.type) {
      case 'text-delta':
        this.seen.add(event.choice);
        if (event.text !== '' || event.signature !== undefined) this.encoder.text(event.choice, event.text, event.signature);
        return;
      case 'reasoning-delta':
        if (this.dropReasoning) return;
        this.seen.add(event.choice);
        this.encoder.reasoning(event.choice, event.text, event.signature);
        return;
      case 'reasoning-end':
        if (this.dropReasoning) return;
        this.seen.add(event.choice);
        this.encoder.reasoningEnd(event.choice, event);
        return;
      case 'tool-call-delta':
        this.seen.add(event.choice);
        this.withCalls.add(event.choice);
        return this.reduce(event);
      case 'tool-call-end':
        return this.reduce(event);
      case 'provider-tool':
        // A tool the provider ran: written back by a target that can (its own format's item), else dropped.
        this.seen.add(event.choice);
        this.encoder.providerTool?.(event);
        return;
      case 'tool-result':
      case 'tool-approval-request':
        // Written by a format that carries them (the UI streams), on the call they name; else dropped.
        return this.answer(event);
      case 'finish':
        this.seen.add(event.choice);
        this.reduce(event); // closes the choice's open calls
        this.finished.add(event.choice);
        this.encoder.finish(event.choice, event.reason, event.rawReason);
        return;
    }
  }

  /** A tool result or an approval request, handed over with the call it names (the latest of that wire id, `undefined` when none was written). */
  private answer(event: ToolResultEvent | ToolApprovalRequestEvent): void {
    const call = this.byWireId.get(event.id);
    if (event.type === 'tool-result') this.encoder.toolResult?.(event, call);
    else this.encoder.toolApproval?.(event, call);
  }

  /** The format's end: open calls closed, a finish for every choice, the encoder's terminator. */
  private finishStream(): void {
    if (this.ended) return;
    this.driver.complete(); // closes every open call, complete
    this.ended = true;
    // Every format's clients want a finish reason (the openai SDK's final message throws without
    // one): a choice the source never finished gets `tool-calls` when it had calls, else `stop`.
    if (this.seen.size === 0) this.seen.add(typeof this.encoder.choices === 'number' ? this.encoder.choices : 0);
    for (const choice of this.seen) if (!this.finished.has(choice)) this.encoder.finish(choice, this.withCalls.has(choice) ? 'tool-calls' : 'stop', '');
    this.encoder.end();
  }

  private flush(): void {
    const text = this.encoder.take();
    if (text !== '') this.out.next(text);
  }

  /**
   * Hand the encoder what is new of a call's text. A custom tool's call goes to a format without
   * custom tools as the JSON of the function `toolSpecs()` declares for it, `{"input": text}`: its
   * text escaped as a JSON string, after `{"input":"` (the end, `"}`, is written when it completes).
   */
  private hand(call: TrackedCall, append: string): void {
    if (call.kind !== 'custom' || this.encoder.customCalls === true) return this.encoder.toolCallDelta(call, append);
    const written = (this.written[call.seq] ??= { sent: '', held: false });
    let text = append === '' ? '' : JSON.stringify(append).slice(1, -1);
    if (written.wrapped !== true && text !== '') {
      text = `{"input":"${text}`;
      written.wrapped = true;
    }
    this.encoder.toolCallDelta(call, text);
  }

  /** The text that brings what was written up to the call's arguments. */
  private catchUp(call: TrackedCall, written: Written): string {
    const raw = call.rawArguments;
    written.held = false;
    if (raw.startsWith(written.sent)) {
      const append = raw.slice(written.sent.length);
      written.sent = raw;
      return append;
    }
    if (!this.encoder.restatesArguments) {
      throw new ToolStreamError('invalid-event', {
        provider: this.encoder.provider,
        data: raw,
        detail: `call ${call.id} was given arguments that do not continue the ${written.sent.length} characters already written, which this format cannot take back`,
      });
    }
    // The format restates the whole text at the call's end. Until then nothing more is written:
    // what follows would continue the text the wire no longer has (its deltas would add up to no
    // JSON); writing resumes if the text comes to continue what was written again.
    written.held = true;
    return '';
  }

  /** How the readers judge the closed call (the same `resultOf`; a custom call written as JSON: `{ input }`). */
  private outcome(call: TrackedCall): CallOutcome {
    const result = resultOf(call, undefined, this.repair);
    if (result.success) {
      const value = call.kind === 'custom' && this.encoder.customCalls !== true ? { input: result.data.arguments } : result.data.arguments;
      const repaired = result.data.repaired;
      return repaired === undefined ? { status: 'complete', value } : { status: 'complete', value, repaired };
    }
    return result.error.code === 'incomplete' || result.error.code === 'arguments-too-large' ? { status: 'incomplete' } : { status: 'failed', message: result.error.message };
  }
}

/**
 * Run an encoder as an operator: one encoder per subscription, its SSE text emitted after each
 * source event that produced some. A provider error becomes the format's error and the output
 * completes; any other error is passed on (the terminator is never written).
 *
 * @param fn The encoder's name, for an `invalid-option` error (`'encodeGemini'`).
 * @param own The checks of the keys only this encoder takes (`choice`, `created`, …).
 * @param create Builds the format's writer (once per subscription).
 * @param options Tracker options, `reasoning`, `model`, `id` and the encoder's own, checked here.
 * @return An operator from {@link StreamEvent}s to SSE text.
 * @throws {ToolStreamError} `invalid-option`, at once, for a key the encoder does not take or a value it cannot use.
 */
export function encodeWith(fn: string, own: OptionChecks, create: () => WireEncoder, options: EncodeOptions = {}): OperatorFunction<StreamEvent, string> {
  checkOptions(fn, options, CALLS_OPTION_CHECKS, ENCODE_OPTION_CHECKS, own);
  const config: EncodeConfig = { calls: callsConfig(options), dropReasoning: options.reasoning === 'drop' };
  return operate<StreamEvent, string>((out) => new EncodeRun(out, create(), config));
}
