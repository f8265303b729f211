/**
 * The unambiguous repairs of argument text that broken servers resend: `repeated` (the text is
 * k ≥ 2 copies of one JSON document, exact or differing only in whitespace: the arguments were
 * streamed, then sent whole once more) and `cumulative` (each fragment repeats all earlier text and
 * the last one parses; or the text is whole JSON objects back to back, each an earlier snapshot of
 * the next: the call resent whole as it grew). Nothing else is guessed.
 *
 * @module
 */
import { growsInto, isSnapshotChain, splitJsonDocuments } from '../internal/jsonDocuments';

/** A repaired value and the shape that was repaired. */
export interface RepairedArguments {
  /** The parsed arguments of the one document. */
  readonly value: unknown;
  /** Which resend shape the text had. */
  readonly repaired: 'repeated' | 'cumulative';
}

function tryParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The one JSON document `text` repeats k ≥ 2 times exactly, parsed; `undefined` when the text is not
 * such a repetition. Tries the periods of the text that divide its length, shortest first: O(n) per
 * divisor, and a length has few divisors.
 */
function repeatedDocument(text: string): { value: unknown } | undefined {
  const n = text.length;
  const first = text.charCodeAt(0);
  let period = 0;
  for (let d = 1; d * 2 <= n; d++) {
    if (n % d !== 0 || text.charCodeAt(d) !== first || text.charCodeAt(d - 1) !== text.charCodeAt(n - 1)) continue;
    if (period !== 0 && d % period !== 0) continue; // a period that is not a multiple of the smallest cannot hold
    if (period === 0) {
      if (text.slice(d) !== text.slice(0, n - d)) continue;
      period = d;
    }
    const parsed = tryParse(text.slice(0, d));
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

/**
 * The last value of `text` when it is k ≥ 2 JSON documents back to back, each an earlier snapshot
 * of the next: the same value resent with other whitespace (`{"a": 1}{"a":1}`: `repeated`), or a
 * call resent whole as it grew (`{"q":"A"}{"q":"AB"}`: `cumulative`).
 */
function snapshotDocuments(text: string): RepairedArguments | undefined {
  const pieces = splitJsonDocuments(text);
  if (pieces === undefined) return undefined;
  const values: unknown[] = [];
  for (const piece of pieces) {
    const parsed = tryParse(piece);
    if (parsed === undefined) return undefined;
    values.push(parsed.value);
  }
  if (!isSnapshotChain(values)) return undefined;
  const last = values[values.length - 1];
  const same = values.every((value) => growsInto(last, value));
  return { value: last, repaired: same ? 'repeated' : 'cumulative' };
}

/**
 * Repair argument text that did not parse, when it is one of the unambiguous resend shapes.
 *
 * @param text The concatenated argument text (which did not parse).
 * @param cumulativeLast The last fragment when every fragment began with the one before it (at least two fragments).
 * @return The repaired value and shape, or `undefined` when the text is neither shape.
 */
export function repairArguments(text: string, cumulativeLast: string | undefined): RepairedArguments | undefined {
  if (text.length >= 2) {
    const repeated = repeatedDocument(text);
    if (repeated !== undefined) return { value: repeated.value, repaired: 'repeated' };
  }
  if (cumulativeLast !== undefined) {
    const parsed = tryParse(cumulativeLast);
    if (parsed !== undefined) return { value: parsed.value, repaired: 'cumulative' };
  }
  return snapshotDocuments(text);
}
