/**
 * `loopEvents()`: a tool loop's items as stream events, for the encoders (a UI backend that runs the
 * loop and answers `useChat` or an AG-UI client).
 *
 * @module
 */
import { mergeMap, type OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import type { ToolLoopItem } from './loopItems';

/**
 * The events of a tool loop's items: each step's stream events as they are, a `tool-approval` as
 * a `tool-approval-request` (its `approvalId` is the call's id), a `tool-result` as a `tool-result`
 * event (the output; a failure's message as `error`; a `tool-denied` one as `denied: true`). The
 * other items carry no event. Piped into `encodeAiSdkUi()` they become `tool-approval-request`,
 * `tool-output-available`, `tool-output-error` and `tool-output-denied` chunks; into `encodeAgUi()`,
 * `TOOL_CALL_RESULT` events and the run's interrupt outcome.
 *
 * ```text
 * --e--A--r--|      e: event item, A: tool-approval, r: tool-result
 *   loopEvents()
 * --e--a--t--|      e: its event, a: tool-approval-request, t: tool-result
 * ```
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { encodeAiSdkUi } from 'rxjs-tool-calls/gateway';
 * import { loopEvents, type ToolLoopItem } from 'rxjs-tool-calls/tools';
 *
 * declare const loop$: Observable<ToolLoopItem>;
 * loop$.pipe(loopEvents(), encodeAiSdkUi()).subscribe((sse) => process.stdout.write(sse));
 * ```
 *
 * @return An operator from {@link ToolLoopItem}s to `StreamEvent`s.
 */
export function loopEvents(): OperatorFunction<ToolLoopItem<unknown>, StreamEvent> {
  return mergeMap((item): StreamEvent[] => {
    switch (item.type) {
      case 'event':
        return [item.event];
      case 'tool-approval':
        return [{ type: 'tool-approval-request', choice: 0, id: item.request.call.id, approvalId: item.request.call.id }];
      case 'tool-result': {
        const result = item.result;
        if (result.success)
          return [{ type: 'tool-result', choice: 0, id: (result.data as { readonly call: { readonly id: string } }).call.id, output: (result.data as { readonly output?: unknown }).output ?? null }];
        const id = result.error.toolCall.id;
        return [result.error.code === 'tool-denied' ? { type: 'tool-result', choice: 0, id, denied: true } : { type: 'tool-result', choice: 0, id, error: result.error.message }];
      }
      default:
        return [];
    }
  });
}
