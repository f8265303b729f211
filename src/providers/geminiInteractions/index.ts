/**
 * Gemini's Interactions API streaming (`POST /v1beta/interactions` with `stream: true`).
 *
 * @module
 */
import type { FramedRecord } from '../../events';
import { asRecord, asString } from '../../internal/json';
import { wireFormat, type WireFormat } from '../format';
import { GeminiInteractionsDecoder, interactionsFinishReason, interactionsUsage } from './decoder';

/** An Interactions stream: `interaction.*` and `step.*` events (as `event:` or the payload's `event_type`), or its error event. */
function detect(event: FramedRecord, payload: Record<string, unknown> | undefined): boolean {
  const name = event.event;
  if (name.startsWith('interaction.') || name.startsWith('step.')) return true;
  const type = payload === undefined ? undefined : asString(payload['event_type']);
  if (type === undefined) return false;
  return type.startsWith('interaction.') || type.startsWith('step.') || (type === 'error' && asRecord(payload?.['error']) !== undefined);
}

/**
 * A whole `Interaction` (what `POST /v1beta/interactions` answers without `stream: true`) as the
 * events a stream of it carries: its creation, each step started whole and stopped, its completion.
 */
function whole(payload: Record<string, unknown>): FramedRecord[] | undefined {
  if (payload['object'] !== 'interaction' || 'event_type' in payload || !Array.isArray(payload['steps'])) return undefined;
  const record = (event: string, data: Record<string, unknown>): FramedRecord => ({ event, data: JSON.stringify({ event_type: event, ...data }), id: undefined, retry: undefined });
  const { steps, ...interaction } = payload;
  const events = [record('interaction.created', { interaction: { ...interaction, status: 'in_progress' } })];
  (steps as unknown[]).forEach((step, index) => {
    events.push(record('step.start', { index, step }), record('step.stop', { index }));
  });
  events.push(record('interaction.completed', { interaction }));
  return events;
}

/**
 * Read Gemini Interactions API events as {@link StreamEvent}s.
 *
 * <span class="informal">SSE events in; one normalised event per text piece, thought piece,
 * function-call argument piece, call end, server tool step, finish and usage report out.</span>
 *
 * ```text
 * --c----s----a----a----S----r----C--|     c: interaction.created, s: step.start (function_call),
 *                                          a: step.delta (arguments_delta), S: step.stop,
 *                                          r: interaction.status_update (requires_action), C: interaction.completed
 *   geminiInteractions()
 * --m----x----x----x----e----f----(ud)--|  m: metadata, x: tool-call-delta, e: tool-call-end,
 *                                          f: finish (tool-calls), u: usage, d: done
 * ```
 *
 * 1. Emits `metadata` (the interaction's id and model), `text-delta` (`model_output` steps),
 *    `reasoning-delta` (a `thought` step's summary and signature) and a whole `reasoning-end` at its
 *    stop, `tool-call-delta` for `function_call` steps (id, name and signature from the step's start,
 *    then every `arguments_delta` as it arrives) and `tool-call-end` at the step's stop, then
 *    `usage`, `finish` and `done`.
 * 2. Call identity: `index` is the step's `index`, `id` the step's `id`; its `signature` is in
 *    `metadata.thoughtSignature`. Arguments given whole in the step's start are a `replace: true`
 *    delta, replaced by the first streamed piece.
 * 3. The finish comes from the interaction's status, in an `interaction.status_update` or in
 *    `interaction.completed` (the first terminal one): `requires_action` (the calls wait for their
 *    results) ends every open call complete and is `tool-calls`; `completed` is `stop`, or
 *    `tool-calls` when the interaction made function calls; `incomplete`, `budget_exceeded` and
 *    `requires_continuation` are `length` (open calls end `incomplete`); `cancelled` is `other`.
 *    `interaction.completed` is the terminator: its final `steps`, when it carries them, give the
 *    arguments of a call the stream showed without any, and the calls it never showed.
 * 4. Server tool steps (`google_search_call` / `_result`, `code_execution_…`, `url_context_…`,
 *    `file_search_…`, `google_maps_…`, `mcp_server_tool_…`) are `provider-tool` events with the
 *    step as `raw`; never calls to run.
 * 5. An `error` event and a `failed` status end the stream with a `provider-error`; data that is
 *    not a JSON object ends it with `invalid-event`; a stream that ends before any terminal status
 *    ends with `truncated`. Each event's `event_id` is where `retryStream()` resumes it.
 *
 * @example
 * ```ts
 * import { fromResponse, decodeSse, geminiInteractions } from 'rxjs-tool-calls';
 *
 * declare const init: RequestInit; // POST, the API key, { model, input, tools, stream: true }
 *
 * fromResponse(await fetch('https://generativelanguage.googleapis.com/v1beta/interactions', init)).pipe(decodeSse(), geminiInteractions()).subscribe(console.log);
 * // displays: { type: 'metadata', … }, { type: 'tool-call-delta', choice: 0, index: 1, id: 'x7k2', name: 'get_weather', argumentsDelta: '' }, …
 * ```
 *
 * Also a provider value: `readToolCalls({ provider: geminiInteractions })` reads only this format.
 *
 * @return An operator from {@link FramedRecord}s to {@link StreamEvent}s.
 */
export const geminiInteractions: WireFormat<'gemini-interactions'> = /* @__PURE__ */ wireFormat({
  format: 'gemini-interactions',
  detect,
  whole,
  decoder: () => new GeminiInteractionsDecoder(),
  finishReason: interactionsFinishReason,
  usage: interactionsUsage,
});
