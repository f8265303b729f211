// The README's errors table lists every code of the one error table (`ERROR_CODES`), once each, and no other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES } from 'rxjs-tool-calls';

const readme = readFileSync(path.join(__dirname, '../../README.md'), 'utf8');

/** The codes in the first column of the table under "## Errors", in order. */
function tableCodes(): string[] {
  const start = readme.indexOf('\n## Errors\n');
  const end = readme.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(-1);
  return readme
    .slice(start, end)
    .split('\n')
    .map((line) => /^\| `([a-z-]+)` \|/.exec(line)?.[1])
    .filter((code): code is string => code !== undefined);
}

it('the README errors table has one row per error code', () => {
  const codes = tableCodes();
  expect(new Set(codes).size).toBe(codes.length);
  expect([...codes].sort()).toEqual([...ERROR_CODES].sort());
});
