/**
 * What `retryStream()` has emitted so far, kept so that a failure after output can say what the
 * subscriber already holds (`error.delivered`).
 *
 * @module
 */
import { callContext } from '../calls/call';
import { createToolCallsState, reduceToolCalls, resolveLimits } from '../calls/reducer';
import type { DeliveredOutput } from '../errors';
import type { StreamEvent } from '../events';

/** Text appended to the entry of one choice, earlier choices filled with `''`. */
function append(byChoice: string[], choice: number, text: string): void {
  while (byChoice.length <= choice) byChoice.push('');
  byChoice[choice] += text;
}

/** Records the text and the calls of the events emitted (since the last restart). */
export class DeliveredRecorder {
  private readonly text: string[] = [];
  private readonly reasoning: string[] = [];
  /** The same identity rules as `toolCalls()`, without its limits (what was delivered is recorded whole). */
  private readonly calls = createToolCallsState(resolveLimits({ maxToolCalls: Infinity, maxArgumentsSize: Infinity }));

  /** One event the subscriber received. */
  record(event: StreamEvent): void {
    switch (event.type) {
      case 'text-delta':
        append(this.text, event.choice, event.text);
        return;
      case 'reasoning-delta':
        append(this.reasoning, event.choice, event.text);
        return;
      case 'tool-call-delta':
      case 'tool-call-end':
      case 'finish':
      case 'done':
        reduceToolCalls(this.calls, event);
        return;
      default:
        return;
    }
  }

  /** What was delivered, as `error.delivered` carries it. */
  output(): DeliveredOutput {
    // A choice's `missing` call (a `tool-calls` finish without calls) was never delivered: it is no call.
    const calls = this.calls.calls.filter((call) => call.ending?.kind !== 'missing');
    const choices = calls.reduce((most, call) => Math.max(most, call.choice + 1), Math.max(this.text.length, this.reasoning.length));
    const pad = (byChoice: readonly string[]): string[] => Array.from({ length: choices }, (_, choice) => byChoice[choice] ?? '');
    return {
      text: pad(this.text),
      reasoning: pad(this.reasoning),
      toolCalls: calls.map((call) => ({ ...callContext(call), complete: call.ending?.kind === 'complete' })),
    };
  }
}
