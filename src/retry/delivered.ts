/**
 * What `retryStream()` has emitted so far, kept so that a failure after output can say what the
 * subscriber already holds (`error.delivered`).
 *
 * @module
 */
import { callContext } from '../calls/call';
import { CallDriver, callsConfig, type CallSink } from '../calls/driver';
import type { DeliveredOutput } from '../errors';
import type { StreamEvent } from '../events';

/** Text appended to the entry of one choice, earlier choices filled with `''`. */
function append(byChoice: string[], choice: number, text: string): void {
  while (byChoice.length <= choice) byChoice.push('');
  byChoice[choice] += text;
}

/** Nothing bounds what is recorded: what was delivered is recorded whole. */
const UNLIMITED = /* @__PURE__ */ callsConfig({ maxToolCalls: Infinity, maxArgumentsSize: Infinity });

/**
 * Records the text and the calls of the events emitted, for one subscription of `retryStream()`.
 * Its calls are tracked by the same driver as `toolCalls()`'s, fed the same events (every one the
 * subscriber received, `restart` included), so a call the wire sent no id for has the id
 * `toolCalls()` gives it downstream.
 */
export class DeliveredRecorder implements CallSink {
  private text: string[] = [];
  private reasoning: string[] = [];
  private readonly driver = new CallDriver(UNLIMITED, this);
  /** The first call since the last `restart` (what came before belongs to a response given up). */
  private from = 0;

  /** One event the subscriber received. */
  record(event: StreamEvent): void {
    switch (event.type) {
      case 'text-delta':
        append(this.text, event.choice, event.text);
        return;
      case 'reasoning-delta':
        append(this.reasoning, event.choice, event.text);
        return;
      case 'restart':
        this.driver.event(event);
        this.text = [];
        this.reasoning = [];
        this.from = this.driver.tracked.length;
        return;
      default:
        this.driver.event(event);
        return;
    }
  }

  callFragment(): void {}

  callClosed(): void {}

  /** What was delivered since the last `restart`, as `error.delivered` carries it. */
  output(): DeliveredOutput {
    // A choice's `missing` call (a `tool-calls` finish without calls) was never delivered: it is no call.
    const calls = this.driver.tracked.slice(this.from).filter((call) => call.ending?.kind !== 'missing');
    const choices = calls.reduce((most, call) => Math.max(most, call.choice + 1), Math.max(this.text.length, this.reasoning.length));
    const pad = (byChoice: readonly string[]): string[] => Array.from({ length: choices }, (_, choice) => byChoice[choice] ?? '');
    return {
      text: pad(this.text),
      reasoning: pad(this.reasoning),
      toolCalls: calls.map((call) => ({ ...callContext(call), complete: call.ending?.kind === 'complete' })),
    };
  }
}
