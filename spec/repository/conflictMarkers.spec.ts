/**
 * No tracked text file holds a merge's conflict markers: a `<<<<<<< ` or `>>>>>>> ` line, or a
 * `=======` line between them. Markdown and JSON are read by no compiler, so a conflict left in the
 * CHANGELOG or a doc page would otherwise ship.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|json|md|yml|yaml|sse|html|css)$/;

/** The lines of `text` that open or close a conflict, as `line: text`. */
function conflictLines(text: string): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  let open = false;
  lines.forEach((line, i) => {
    if (line.startsWith('<<<<<<< ')) open = true;
    if (line.startsWith('<<<<<<< ') || line.startsWith('>>>>>>> ') || (open && line === '=======')) found.push(`${i + 1}: ${line}`);
    if (line.startsWith('>>>>>>> ')) open = false;
  });
  return found;
}

describe('conflict markers', () => {
  it('are found: an opened, split and closed conflict, and nothing in text that only looks alike', () => {
    expect(conflictLines('a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> branch\nd')).toEqual(['2: <<<<<<< HEAD', '4: =======', '6: >>>>>>> branch']);
    expect(conflictLines('# Title\n=======\n\n<<<<<<<no space')).toEqual([]);
  });

  it('are in no tracked text file', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => TEXT.test(file) && existsSync(path.join(ROOT, file)));
    expect(files.length).toBeGreaterThan(100);
    const marked = files.flatMap((file) => conflictLines(readFileSync(path.join(ROOT, file), 'utf8')).map((line) => `${file}:${line}`));
    expect(marked).toEqual([]);
  });
});
