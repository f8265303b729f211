import { seededRandom, splitEveryByte, splitRandom } from 'rxjs-tool-calls/marbles';

/** The named chunkings every conformance case runs under. */
export function chunkings(bytes: Uint8Array): Array<[string, Uint8Array[]]> {
  return [
    ['whole', [bytes]],
    ['every byte', splitEveryByte(bytes)],
    ...[1, 2, 3, 4, 5].map((seed): [string, Uint8Array[]] => [`random seed ${seed}`, splitRandom(bytes, seed, seed * 37)]),
  ];
}

/** Cut `text` into pieces of 1–`max` characters drawn from the shared seeded generator (for argument fragments). */
export function textPieces(text: string, seed: number, max = 8): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(random() * max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}
