// Correctness: an implementation's calls must equal the scenario's expected calls (id, name,
// parsed arguments), compared in id order. Returns null when they match, else a short reason.
import { isDeepStrictEqual } from 'node:util';

export function checkCalls(actual, expected) {
  if (!Array.isArray(actual)) return `expected an array of calls, got ${typeof actual}`;
  if (actual.length !== expected.length) return `expected ${expected.length} calls, got ${actual.length}`;
  const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const got = [...actual].sort(byId);
  const want = [...expected].sort(byId);
  for (let i = 0; i < want.length; i++) {
    if (got[i].id !== want[i].id) return `call ${i}: id ${JSON.stringify(got[i].id)} != ${JSON.stringify(want[i].id)}`;
    if (got[i].name !== want[i].name) return `call ${want[i].id}: name ${JSON.stringify(got[i].name)} != ${JSON.stringify(want[i].name)}`;
    if (!isDeepStrictEqual(got[i].arguments, want[i].arguments)) return `call ${want[i].id}: arguments differ`;
  }
  return null;
}
