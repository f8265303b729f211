/**
 * Without the recorded provider streams (../shared/fixtures, outside the repository), `npm test`
 * fails with one line saying what is missing and where it was expected, and runs no suite.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR, fixturesProblem } from '../helpers/fixtures';

const root = path.join(__dirname, '../..');
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-fixtures-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the recorded provider streams', () => {
  it('are where the suites read them (this run has them)', () => {
    expect(fixturesProblem()).toBeUndefined();
    expect(fixturesProblem(FIXTURES_DIR)).toBeUndefined();
  });

  it('a missing directory, a file, or a directory without <provider>/*.sse recordings is a one-line problem naming the path', () => {
    const missing = path.join(scratch, 'missing');
    const file = path.join(scratch, 'file');
    writeFileSync(file, '');
    const empty = path.join(scratch, 'empty');
    mkdirSync(path.join(empty, 'openai'), { recursive: true });
    const problems = [fixturesProblem(missing), fixturesProblem(file), fixturesProblem(empty)];
    expect(problems[0]).toMatch(/^the recorded provider streams are missing: expected at .*missing /);
    expect(problems[1]).toMatch(/^the recorded provider streams are not a directory: expected at .*file /);
    expect(problems[2]).toMatch(/holds no <provider>\/\*\.sse recordings: expected at .*empty /);
    for (const problem of problems) expect(problem).not.toContain('\n');
    writeFileSync(path.join(empty, 'openai', 'one.sse'), 'data: {}\n\n');
    expect(fixturesProblem(empty)).toBeUndefined();
  });

  it('when missing, jest fails with that one line and runs nothing', async () => {
    const missing = path.join(scratch, 'not-there');
    const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [jest, '--maxWorkers=1', '--ci', 'spec/package/version.spec.ts'],
        { cwd: root, env: { ...process.env, RXJS_TOOL_CALLS_FIXTURES: missing }, timeout: 60_000 },
        (_error, out, err) => resolve({ code: child.exitCode, stdout: out, stderr: err }),
      );
    });
    expect(code).toBe(1);
    expect(stdout.trim()).toBe('');
    expect(stderr.trim()).toBe(
      `Cannot run the tests: the recorded provider streams are missing: expected at ${missing} (../shared/fixtures beside the repository, or set RXJS_TOOL_CALLS_FIXTURES to their directory)`,
    );
  }, 60_000);
});
