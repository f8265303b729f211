/**
 * CRC-32 (ISO-HDLC, the checksum of gzip, zlib and PNG: reflected polynomial 0xEDB88320), as the
 * AWS event stream uses it for its prelude and message checksums.
 *
 * @module
 */

/** The reflected CRC-32 polynomial. */
const POLYNOMIAL = 0xedb88320;

/**
 * A CRC-32 calculator with its own 1 KiB lookup table, built when it is made (one per parser or
 * writer: nothing is computed or kept before a stream asks for it).
 */
export class Crc32 {
  private readonly table = new Int32Array(256);

  constructor() {
    const table = this.table;
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? POLYNOMIAL ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }

  /**
   * The CRC-32 of `bytes[start, end)`, continuing from `crc` (the CRC-32 of the bytes before them;
   * 0 for none): `of(b, 0, n)` equals `of(b, k, n, of(b, 0, k))`.
   */
  of(bytes: Uint8Array, start: number, end: number, crc = 0): number {
    const table = this.table;
    let c = ~crc;
    for (let i = start; i < end; i++) c = (table[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
    return ~c >>> 0;
  }
}
