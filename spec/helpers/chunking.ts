import { splitEveryByte, splitRandom } from 'rxjs-tool-calls/marbles';

/** The named chunkings every conformance case runs under. */
export function chunkings(bytes: Uint8Array): Array<[string, Uint8Array[]]> {
  return [
    ['whole', [bytes]],
    ['every byte', splitEveryByte(bytes)],
    ...[1, 2, 3, 4, 5].map((seed): [string, Uint8Array[]] => [`random seed ${seed}`, splitRandom(bytes, seed, seed * 37)]),
  ];
}
