/**
 * AG-UI: the events of an agent run, what CopilotKit, TanStack AI and other AG-UI clients read.
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { wireFormat, type WireFormat } from '../format';
import { AgUiDecoder, agUiFinishReason, agUiUsage } from './decoder';

/** AG-UI's event types (protocol 1.0). */
const TYPES = /* @__PURE__ */ new Set([
  'RUN_STARTED',
  'RUN_FINISHED',
  'RUN_ERROR',
  'STEP_STARTED',
  'STEP_FINISHED',
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_END',
  'TEXT_MESSAGE_CHUNK',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_CHUNK',
  'TOOL_CALL_RESULT',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_MESSAGE_CHUNK',
  'REASONING_END',
  'REASONING_ENCRYPTED_VALUE',
  'STATE_SNAPSHOT',
  'STATE_DELTA',
  'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'RAW',
  'CUSTOM',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
]);

/** An AG-UI stream: an event whose `type` is one of the protocol's. */
function detect(_event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  const type = payload?.['type'];
  return typeof type === 'string' && TYPES.has(type);
}

/**
 * Read AG-UI events (what an AG-UI agent streams to `HttpAgent`, CopilotKit or TanStack AI) as
 * {@link StreamEvent}s.
 *
 * <span class="informal">SSE events in; one normalised event per text piece, reasoning piece,
 * tool-call fragment, call end, tool result and approval out, every `TOOL_CALL_ARGS` the moment it
 * arrives.</span>
 *
 * ```text
 * --s--c--a--x--x--e--r--F|      s: RUN_STARTED, c: TEXT_MESSAGE_CONTENT, a: TOOL_CALL_START,
 *                                x: TOOL_CALL_ARGS, e: TOOL_CALL_END, r: TOOL_CALL_RESULT, F: RUN_FINISHED
 *   agUi()
 * --m--t--x--x--x--e--r--(fd)|   m: metadata, t: text-delta, x: tool-call-delta, e: tool-call-end,
 *                                r: tool-result, f: finish, d: done
 * ```
 *
 * 1. Emits `metadata` (`RUN_STARTED`'s `runId`), `text-delta` (the assistant's text messages: a
 *    message of another role is not the answer), `reasoning-delta` and `reasoning-end` (each
 *    reasoning message, with its `REASONING_ENCRYPTED_VALUE`), `tool-call-delta` (`TOOL_CALL_START`
 *    with the call's id and name, then each `TOOL_CALL_ARGS`), `tool-call-end`, `tool-result`
 *    (`TOOL_CALL_RESULT`'s `content`), `tool-approval-request` (each interrupt of an interrupt
 *    outcome that names a call), `usage` (the entries of `RUN_FINISHED`'s `usage`, summed),
 *    `finish` and `done` (`RUN_FINISHED`).
 * 2. Identity: a call is its `toolCallId`, its `index` its position (rule `ui-call-ids`);
 *    `TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` are expanded as
 *    `@ag-ui/client` expands them (rule `ui-chunks`). A call still open when the run finishes is
 *    `incomplete`.
 * 3. Finish: AG-UI has no finish reason; a run's outcome gives one: `tool-calls` when it left calls
 *    unanswered or asks to approve one, `other` when cancelled, else `stop` (`rawReason`: the
 *    outcome's type).
 * 4. `RUN_ERROR` ends the stream with a `provider-error` (its `message` and `code`); an event of a
 *    known type without the fields it needs ends it with `invalid-event`; events of unknown types
 *    are skipped; a stream that ends before `RUN_FINISHED` ends with `truncated`.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, agUi } from 'rxjs-tool-calls';
 *
 * declare const init: RequestInit; // POST, a RunAgentInput
 *
 * fromResponse(await fetch('/api/agent', init)).pipe(decodeSse(), agUi()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '' }, …
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: agUi })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const agUi: WireFormat<'ag-ui'> = /* @__PURE__ */ wireFormat({
  format: 'ag-ui',
  detect,
  decoder: () => new AgUiDecoder(),
  finishReason: agUiFinishReason,
  usage: agUiUsage,
});
