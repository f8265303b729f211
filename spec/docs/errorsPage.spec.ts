// The errors page (docs/errors.md) lists every code of the one error table (`ERROR_CODES`), once each, and no other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES } from 'rxjs-tool-calls';

const page = readFileSync(path.join(__dirname, '../../docs/errors.md'), 'utf8');

/** The codes in the first column of the page's table, in order. */
function tableCodes(): string[] {
  const start = page.indexOf('\n| code | where | context on the error |\n');
  expect(start).toBeGreaterThan(-1);
  return page
    .slice(start)
    .split('\n')
    .map((line) => /^\| `([a-z-]+)` \|/.exec(line)?.[1])
    .filter((code): code is string => code !== undefined);
}

it('the errors page has one row per error code', () => {
  const codes = tableCodes();
  expect(new Set(codes).size).toBe(codes.length);
  expect([...codes].sort()).toEqual([...ERROR_CODES].sort());
});
