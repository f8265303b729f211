/**
 * The decoding stage of one `retryStream()` attempt, after `decodeSse()`: the response's decoder
 * (kept across the attempts that resume it), behind a gate that records where the stream can be
 * resumed (the event id — the SSE `id:` field, or Gemini Interactions' `event_id` in the data —
 * and, for OpenAI Responses, the `sequence_number` of the last event handed to the decoder) and, on
 * an attempt that resumes, drops the events the decoder already had.
 *
 * @module
 */
import type { OperatorFunction, Subscriber } from 'rxjs';
import type { FramedRecord, StreamEvent } from '../events';
import { asNumber, asRecord, asString } from '../internal/json';
import { operate, type InputHandler } from '../internal/operate';
import type { EventSink, WireDecoder } from '../providers/decoder';

/** Where one stream (one decoder) stands, across the attempts that resume it. */
export class ResumePosition {
  /** The last event id an event handed to the decoder carried itself (its `id:` field, or the `event_id` of its data). */
  lastEventId: string | undefined;
  /** How many events were handed on after the one that carried `lastEventId` (they carried no id). */
  sinceId = 0;
  /** The `sequence_number` of the last Responses event handed on. */
  lastSequenceNumber: number | undefined;
  /** The response the stream belongs to: the Responses response id of its sequence numbers, or the Interactions interaction id. */
  responseId: string | undefined;
  /** Every SSE id handed on, to recognise a server that starts over instead of resuming. */
  readonly ids = new Set<string>();
  /** Set when an attempt turned out not to resume the stream: it is not tried again. */
  broken = false;

  /** Whether the stream carried anything to resume from. */
  get resumable(): boolean {
    return !this.broken && (this.lastEventId !== undefined || this.lastSequenceNumber !== undefined);
  }
}

/** What the gate asks of `retryStream()`. */
export interface GateHost {
  /** The source failed before the decoder was told: `true` when the stream will be resumed (nothing is passed on). */
  resumes(error: unknown): boolean;
  /** The attempt that was to resume the stream sent another one (a server that started over). */
  notResumed(): void;
}

/** Where an event's data places it: a Responses `sequence_number`, an Interactions `event_id`, and the response they belong to. */
interface Marks {
  /** The Responses `sequence_number`. */
  readonly sequence: number | undefined;
  /** The Gemini Interactions `event_id` (resumed with `last_event_id`). */
  readonly eventId: string | undefined;
  /** The Responses response id, or the Interactions interaction id, when the event carries it. */
  readonly responseId: string | undefined;
}

/** The top-level `sequence_number` and `event_id` of an event's data, read only when the data mentions one. */
function marksOf(data: string): Marks | undefined {
  const sequenced = data.includes('"sequence_number"');
  if (!sequenced && !data.includes('"event_id"')) return undefined;
  let payload: Record<string, unknown> | undefined;
  try {
    payload = asRecord(JSON.parse(data));
  } catch {
    return undefined; // the decoder reports it
  }
  const eventId = payload?.['event_id'];
  const sequence = sequenced ? asNumber(payload?.['sequence_number']) : undefined;
  const interaction = asRecord(payload?.['interaction']);
  const responseId = sequence !== undefined ? asString(asRecord(payload?.['response'])?.['id']) : (asString(interaction?.['id']) ?? asString(payload?.['interaction_id']));
  return { sequence, eventId: typeof eventId === 'string' && eventId !== '' ? eventId : undefined, responseId: responseId === '' ? undefined : responseId };
}

/**
 * Decode one attempt's SSE events with the response's decoder, through the gate:
 *
 * 1. Each event is handed on, then recorded: its own id (an SSE `id:` field that changed the last
 *    event id, else the `event_id` of its data: Gemini Interactions) and its Responses
 *    `sequence_number`.
 * 2. On a resumed attempt, an event whose `sequence_number` is not past the last one handed on is
 *    dropped; without sequence numbers, the events up to the first new id are matched against
 *    what followed `lastEventId` (the event with that id itself, when the server repeats it, and the
 *    `sinceId` events without ids after it) and dropped.
 * 3. A resumed attempt that is recognisably another stream (an event of another Responses response
 *    or Interactions interaction, or an id handed on before, other than `lastEventId`) is reported
 *    to the host, not decoded.
 * 4. A failure of the source is offered to the host first: when it resumes, the decoder is not told
 *    (the attempt fails with it, and the host resumes); else the decoder's `interrupt` may complete
 *    the attempt instead.
 *
 * @param decoder The response's decoder.
 * @param position The stream's position, shared by its attempts.
 * @param resumed Whether this attempt resumes the stream.
 * @param host `retryStream()`.
 */
export function resumingDecode(decoder: WireDecoder, position: ResumePosition, resumed: boolean, host: GateHost): OperatorFunction<FramedRecord, StreamEvent> {
  return operate<FramedRecord, StreamEvent>((out) => new ResumeGate(out, decoder, position, resumed, host));
}

/** One attempt's gate and decoder. */
class ResumeGate implements InputHandler<FramedRecord> {
  /** The last event id of this attempt's parser before the current event. */
  private previousId: string | undefined;
  /** Events without an id still to drop (a resumed attempt). */
  private skip: number;
  /** A resumed attempt that has not yet reached an event past `lastEventId`. */
  private seeking: boolean;
  /** The host gave up on this attempt: ignore the rest of what is parsed. */
  private dead = false;

  private readonly emit: EventSink;

  constructor(
    private readonly out: Subscriber<StreamEvent>,
    private readonly decoder: WireDecoder,
    private readonly position: ResumePosition,
    resumed: boolean,
    private readonly host: GateHost,
  ) {
    this.skip = resumed ? position.sinceId : 0;
    this.seeking = resumed;
    this.emit = (event) => out.next(event);
  }

  next(event: FramedRecord): void {
    if (this.dead) return;
    const position = this.position;
    const marks = marksOf(event.data);
    const own = event.id !== this.previousId ? event.id : marks?.eventId;
    this.previousId = event.id;
    const sequence = marks?.sequence;
    if (marks?.responseId !== undefined && position.responseId !== undefined && marks.responseId !== position.responseId) return this.notResumed();
    if (sequence !== undefined) {
      if (position.lastSequenceNumber !== undefined && sequence <= position.lastSequenceNumber) return;
    } else if (this.seeking) {
      if (own === undefined) {
        if (this.skip > 0) {
          this.skip--;
          return;
        }
      } else if (own === position.lastEventId) {
        return; // the server repeated the last event; the `sinceId` events after it follow again
      } else if (position.ids.has(own)) {
        return this.notResumed();
      } else {
        this.seeking = false;
      }
    }
    this.decoder.sse(event, this.emit);
    if (own !== undefined) {
      position.lastEventId = own;
      position.sinceId = 0;
      position.ids.add(own);
    } else if (position.lastEventId !== undefined) {
      position.sinceId++;
    }
    if (sequence !== undefined) position.lastSequenceNumber = sequence;
    if (marks !== undefined) position.responseId ??= marks.responseId;
  }

  complete(): void {
    this.decoder.end(this.emit);
  }

  error(error: unknown): void {
    if (this.dead) return;
    if (this.host.resumes(error)) {
      this.dead = true;
      return; // the attempt fails with the error; the decoder is not told
    }
    if (this.decoder.interrupt?.(error, this.emit) === true) this.out.complete();
  }

  private notResumed(): void {
    this.dead = true;
    this.position.broken = true;
    this.host.notResumed();
  }
}
