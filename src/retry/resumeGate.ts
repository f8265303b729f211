/**
 * The decoding stage of one `retryStream()` attempt, after `decodeSse()`: the response's decoder
 * (kept across the attempts that resume it), behind a gate that records where the stream can be
 * resumed (the SSE id and, for OpenAI Responses, the `sequence_number` of the last event handed to
 * the decoder) and, on an attempt that resumes, drops the events the decoder already had.
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
  /** The last SSE id an event handed to the decoder carried itself (its `id:` field). */
  lastEventId: string | undefined;
  /** How many events were handed on after the one that carried `lastEventId` (they carried no id). */
  sinceId = 0;
  /** The `sequence_number` of the last Responses event handed on. */
  lastSequenceNumber: number | undefined;
  /** The Responses response id the sequence numbers belong to. */
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

/** A Responses event's `sequence_number`, and the response id when it carries the response. */
interface Sequence {
  readonly number: number;
  readonly responseId: string | undefined;
}

/** The top-level `sequence_number` of an event's data, read only when the data mentions one. */
function sequenceOf(data: string): Sequence | undefined {
  if (!data.includes('"sequence_number"')) return undefined;
  let payload: Record<string, unknown> | undefined;
  try {
    payload = asRecord(JSON.parse(data));
  } catch {
    return undefined; // the decoder reports it
  }
  const number = asNumber(payload?.['sequence_number']);
  return number === undefined ? undefined : { number, responseId: asString(asRecord(payload?.['response'])?.['id']) };
}

/**
 * Decode one attempt's SSE events with the response's decoder, through the gate:
 *
 * 1. Each event is handed on, then recorded: its own SSE id (an `id:` field that changed the last
 *    event id) and its Responses `sequence_number`.
 * 2. On a resumed attempt, an event whose `sequence_number` is not past the last one handed on is
 *    dropped; without sequence numbers, the events up to the first new SSE id are matched against
 *    what followed `lastEventId` (the event with that id itself, when the server repeats it, and the
 *    `sinceId` events without ids after it) and dropped.
 * 3. A resumed attempt that is recognisably another stream (a Responses event of another response,
 *    or an SSE id handed on before, other than `lastEventId`) is reported to the host, not decoded.
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
    const own = event.id !== this.previousId ? event.id : undefined;
    this.previousId = event.id;
    const sequence = sequenceOf(event.data);
    if (sequence !== undefined) {
      if (sequence.responseId !== undefined && position.responseId !== undefined && sequence.responseId !== position.responseId) return this.notResumed();
      if (position.lastSequenceNumber !== undefined && sequence.number <= position.lastSequenceNumber) return;
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
    if (sequence !== undefined) {
      position.lastSequenceNumber = sequence.number;
      position.responseId ??= sequence.responseId;
    }
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
