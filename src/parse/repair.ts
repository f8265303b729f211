/**
 * The two unambiguous repairs of argument text that broken servers resend: `repeated` (the text is
 * k ≥ 2 exact copies of one JSON document: the arguments were streamed, then sent whole once more)
 * and `cumulative` (each fragment repeats all earlier text and the last one parses). Nothing else is
 * guessed.
 *
 * @module
 */

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
 * Repair argument text that did not parse, when it is one of the two unambiguous resend shapes.
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
  return undefined;
}
