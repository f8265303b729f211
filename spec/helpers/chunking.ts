import { seededRandom, splitEveryByte, splitRandom } from 'rxjs-tool-calls/marbles';

/** The named chunkings every conformance case runs under. */
export function chunkings(bytes: Uint8Array): Array<[string, Uint8Array[]]> {
  return [['whole', [bytes]], ['every byte', splitEveryByte(bytes)], ...[1, 2, 3, 4, 5].map((seed): [string, Uint8Array[]] => [`random seed ${seed}`, splitRandom(bytes, seed, seed * 37)])];
}

/** Cut `text` into pieces of 1–`max` characters drawn from the shared seeded generator (for argument fragments). */
export function textPieces(text: string, seed: number, max = 8): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(random() * max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** Cut `text` into pieces at the given relative points (each in [0, 1), as fast-check generates them). */
export function cutAt(text: string, points: number[]): string[] {
  const offsets = [...new Set(points.map((p) => Math.floor(p * text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const at of [...offsets, text.length]) {
    if (at > from) out.push(text.slice(from, at));
    from = Math.max(from, at);
  }
  return out;
}
