/**
 * jest's global setup: when the recorded provider streams (see spec/helpers/fixtures.ts) are
 * missing, the run fails at once with one line saying what is missing and where it was expected,
 * instead of every suite that reads them failing on its own.
 */
import { fixturesProblem } from './fixtures';

export default function checkFixturesDir(): void {
  const problem = fixturesProblem();
  if (problem === undefined) return;
  const error = new Error(`Cannot run the tests: ${problem}`);
  error.stack = error.message; // jest prints the stack: the one line, without this file's frames
  throw error;
}
