/** A small seeded PRNG (mulberry32): the same seed gives the same splits on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Split bytes into chunks of 1..maxChunk bytes at seeded random points. */
export function splitRandom(bytes: Uint8Array, seed: number, maxChunk = 64): Uint8Array[] {
  const random = prng(seed);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = 1 + Math.floor(random() * maxChunk);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

/** One chunk per byte. */
export function splitEveryByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}

/** The named chunkings every conformance case runs under. */
export function chunkings(bytes: Uint8Array): Array<[string, Uint8Array[]]> {
  return [
    ['whole', [bytes]],
    ['every byte', splitEveryByte(bytes)],
    ...[1, 2, 3, 4, 5].map((seed): [string, Uint8Array[]] => [`random seed ${seed}`, splitRandom(bytes, seed, seed * 37)]),
  ];
}
