/**
 * OpenAI Realtime server events, written by hand after the API reference (GA names; the beta's are
 * named where a spec needs them): a session, responses with function calls streamed in fragments,
 * text and audio transcripts. Each event gets an `event_id`, as the server's do.
 */
import type { FramedRecord } from 'rxjs-tool-calls';

export type RealtimeEvent = Record<string, unknown> & { readonly type: string };

/** One call of a response: its name, its arguments and how they are cut into deltas. */
export interface RealtimeCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
  /** The size of each argument delta (default 4). */
  readonly piece?: number;
}

/** Builds the events of one session, numbering their ids. */
export class RealtimeSession {
  private n = 0;
  private responses = 0;

  constructor(private readonly model = 'gpt-realtime') {}

  private event(type: string, fields: Record<string, unknown> = {}): RealtimeEvent {
    return { type, event_id: `event_${++this.n}`, ...fields };
  }

  created(): RealtimeEvent[] {
    return [this.event('session.created', { session: { type: 'realtime', object: 'realtime.session', id: 'sess_1', model: this.model, output_modalities: ['audio'] } })];
  }

  /**
   * A whole response: `response.created`, then for each call its item added, its deltas, `.done`,
   * the item done; the text (or transcript) before the calls; `response.done` with the final output,
   * `status` and usage. `cut`: stop after this many events of the response (no `response.done`).
   */
  response(options: { readonly calls?: ReadonlyArray<RealtimeCall>; readonly text?: string; readonly transcript?: string; readonly status?: string; readonly reason?: string } = {}): RealtimeEvent[] {
    const id = `resp_${++this.responses}`;
    const calls = options.calls ?? [];
    const events: RealtimeEvent[] = [this.event('response.created', { response: { object: 'realtime.response', id, status: 'in_progress', output: [] } })];
    const base = options.text !== undefined || options.transcript !== undefined ? 1 : 0;
    if (options.text !== undefined) {
      for (const piece of chunks(options.text, 5))
        events.push(this.event('response.output_text.delta', { response_id: id, item_id: `item_${id}_msg`, output_index: 0, content_index: 0, delta: piece }));
    }
    if (options.transcript !== undefined) {
      events.push(this.event('response.output_audio.delta', { response_id: id, item_id: `item_${id}_msg`, output_index: 0, content_index: 0, delta: 'AAAA' }));
      for (const piece of chunks(options.transcript, 5))
        events.push(this.event('response.output_audio_transcript.delta', { response_id: id, item_id: `item_${id}_msg`, output_index: 0, content_index: 0, delta: piece }));
    }
    const items: Record<string, unknown>[] = [];
    calls.forEach((call, i) => {
      const outputIndex = base + i;
      const itemId = `item_${call.callId}`;
      const item = { id: itemId, object: 'realtime.item', type: 'function_call', status: 'in_progress', name: call.name, call_id: call.callId, arguments: '' };
      events.push(this.event('response.output_item.added', { response_id: id, output_index: outputIndex, item }));
      for (const piece of chunks(call.arguments, call.piece ?? 4))
        events.push(this.event('response.function_call_arguments.delta', { response_id: id, item_id: itemId, output_index: outputIndex, call_id: call.callId, delta: piece }));
      events.push(
        this.event('response.function_call_arguments.done', { response_id: id, item_id: itemId, output_index: outputIndex, call_id: call.callId, name: call.name, arguments: call.arguments }),
      );
      const done = { ...item, status: 'completed', arguments: call.arguments };
      events.push(this.event('response.output_item.done', { response_id: id, output_index: outputIndex, item: done }));
      items.push(done);
    });
    const status = options.status ?? 'completed';
    const usage = { total_tokens: 30, input_tokens: 20, output_tokens: 10, input_token_details: { cached_tokens: 4 } };
    const details = status === 'completed' ? null : { type: status, ...(options.reason === undefined ? {} : { reason: options.reason }) };
    events.push(this.event('response.done', { response: { object: 'realtime.response', id, status, status_details: details, output: items, usage } }));
    return events;
  }

  /** An `error` event. */
  error(code: string | null, message: string, type = 'invalid_request_error'): RealtimeEvent {
    return this.event('error', { error: { type, code, message, param: null, event_id: null } });
  }
}

/** `text` cut into pieces of `size` characters. */
export function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Events as the records a WebSocket's messages are. */
export function records(events: ReadonlyArray<RealtimeEvent>): FramedRecord[] {
  return events.map((event) => ({ event: 'message', data: JSON.stringify(event), id: undefined, retry: undefined }));
}
