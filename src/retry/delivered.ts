/**
 * What `retryStream()` has emitted so far, kept so that a failure after output can say what the
 * subscriber already holds (`error.delivered`).
 *
 * @module
 */
import { ToolCallTracker } from '../accumulate/tracker';
import { callContext } from '../accumulate/trackedCall';
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
  private readonly tracker = new ToolCallTracker({ maxToolCalls: Infinity, maxArgumentsSize: Infinity });

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
        this.tracker.delta(event);
        return;
      case 'tool-call-end':
        this.tracker.end(event);
        return;
      case 'finish':
        this.tracker.finish(event.choice, event.reason);
        return;
      case 'done':
        this.tracker.closeAll({ kind: 'complete', finishReason: undefined });
        return;
      default:
        return;
    }
  }

  /** What was delivered, as `error.delivered` carries it. */
  output(): DeliveredOutput {
    const calls = this.tracker.calls;
    const choices = calls.reduce((most, call) => Math.max(most, call.choice + 1), Math.max(this.text.length, this.reasoning.length));
    const pad = (byChoice: readonly string[]): string[] => Array.from({ length: choices }, (_, choice) => byChoice[choice] ?? '');
    return {
      text: pad(this.text),
      reasoning: pad(this.reasoning),
      toolCalls: calls.map((call) => ({ ...callContext(call), complete: call.ending?.kind === 'complete' })),
    };
  }
}
