/**
 * `EventStreamWriter`: AWS event-stream frames (`application/vnd.amazon.eventstream`), written, the
 * framing Bedrock's `ConverseStream` and `InvokeModelWithResponseStream` answers come in (see
 * `EventStreamParser` of `rxjs-tool-calls/advanced` for the layout of a frame).
 *
 * @module
 */
import { Crc32 } from '../../framing/crc32';
import { OVERHEAD, PRELUDE, type EventStreamHeaders, type EventStreamHeaderValue } from '../../framing/eventStream';

/**
 * Writes AWS event-stream frames (what an AWS SDK client reads). One writer per stream: it keeps its
 * own CRC table and the encoded header names it has seen.
 */
export class EventStreamWriter {
  private readonly crc = new Crc32();
  private readonly utf8 = new TextEncoder();
  /** Header names, encoded with their 1-byte length (a few per stream: `:event-type`, …). */
  private readonly names = new Map<string, Uint8Array>();

  /**
   * One frame: the headers in the order given, then the payload (a string is written as UTF-8).
   * Throws a `TypeError` for a header name outside 1–255 bytes or a string or byte-array value over
   * 32,767 bytes (the specification's limits).
   */
  frame(headers: EventStreamHeaders, payload: Uint8Array | string): Uint8Array {
    const body = typeof payload === 'string' ? this.utf8.encode(payload) : payload;
    const pieces: Uint8Array[] = [];
    let headersLength = 0;
    for (const name of Object.keys(headers)) {
      const piece = this.header(name, headers[name] as EventStreamHeaderValue);
      pieces.push(piece);
      headersLength += piece.length;
    }
    const total = OVERHEAD + headersLength + body.length;
    const out = new Uint8Array(total);
    const view = new DataView(out.buffer);
    view.setUint32(0, total);
    view.setUint32(4, headersLength);
    view.setUint32(8, this.crc.of(out, 0, 8));
    let pos = PRELUDE;
    for (const piece of pieces) {
      out.set(piece, pos);
      pos += piece.length;
    }
    out.set(body, pos);
    view.setUint32(total - 4, this.crc.of(out, 8, total - 4, view.getUint32(8)));
    return out;
  }

  /** One header's bytes: name length, name, type, value. */
  private header(name: string, value: EventStreamHeaderValue): Uint8Array {
    let encodedName = this.names.get(name);
    if (encodedName === undefined) {
      const bytes = this.utf8.encode(name);
      if (bytes.length === 0 || bytes.length > 255) throw new TypeError(`rxjs-tool-calls: an event-stream header name must be 1-255 bytes of UTF-8 (${JSON.stringify(name)})`);
      encodedName = new Uint8Array(bytes.length + 1);
      encodedName[0] = bytes.length;
      encodedName.set(bytes, 1);
      this.names.set(name, encodedName);
    }
    let valueBytes: Uint8Array;
    switch (value.type) {
      case 'boolean':
        valueBytes = new Uint8Array([value.value ? 0 : 1]);
        break;
      case 'byte':
        valueBytes = new Uint8Array([2, value.value & 0xff]);
        break;
      case 'short':
        valueBytes = new Uint8Array([3, (value.value >> 8) & 0xff, value.value & 0xff]);
        break;
      case 'integer':
        valueBytes = new Uint8Array(5);
        valueBytes[0] = 4;
        new DataView(valueBytes.buffer).setInt32(1, value.value);
        break;
      case 'long':
      case 'timestamp':
        valueBytes = new Uint8Array(9);
        valueBytes[0] = value.type === 'long' ? 5 : 8;
        new DataView(valueBytes.buffer).setBigInt64(1, value.type === 'long' ? value.value : BigInt(value.value.getTime()));
        break;
      case 'binary':
      case 'string': {
        const data = value.type === 'string' ? this.utf8.encode(value.value) : value.value;
        if (data.length > 0x7fff) throw new TypeError(`rxjs-tool-calls: the value of event-stream header ${JSON.stringify(name)} is over 32,767 bytes`);
        valueBytes = new Uint8Array(3 + data.length);
        valueBytes[0] = value.type === 'binary' ? 6 : 7;
        valueBytes[1] = data.length >> 8;
        valueBytes[2] = data.length & 0xff;
        valueBytes.set(data, 3);
        break;
      }
      case 'uuid': {
        const hex = value.value.replace(/-/g, '');
        if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new TypeError(`rxjs-tool-calls: the uuid header ${JSON.stringify(name)} is not 32 hex digits`);
        valueBytes = new Uint8Array(17);
        valueBytes[0] = 9;
        for (let i = 0; i < 16; i++) valueBytes[i + 1] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
        break;
      }
    }
    const out = new Uint8Array(encodedName.length + valueBytes.length);
    out.set(encodedName);
    out.set(valueBytes, encodedName.length);
    return out;
  }
}
