/**
 * Every link of README.md and docs/*.md that points into docs/ (relative, or the repository's
 * GitHub URL, as README's must be to work on the npm page) names a page that exists, and its
 * #anchor, when it has one, a heading of that page; every relative link of a docs page names a
 * file of the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');
const repository = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { repository: { url: string } }).repository.url
  .replace(/^git\+/, '')
  .replace(/\.git$/, '');
const pages = ['README.md', ...readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The links of a markdown text, outside code fences and code spans. */
function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

/** The repository file a link names (relative to `page`, or a GitHub URL of this repository), else undefined. */
function target(page: string, link: string): { file: string; anchor: string | undefined } | undefined {
  const [where, anchor] = link.split('#') as [string, string | undefined];
  if (where === '') return { file: path.join(root, page), anchor };
  for (const prefix of [`${repository}/blob/main/`, `${repository}/tree/main/`]) {
    if (where.startsWith(prefix)) return { file: path.join(root, where.slice(prefix.length)), anchor };
  }
  if (/^[a-z]+:/.test(where)) return undefined;
  return { file: path.resolve(path.dirname(path.join(root, page)), where), anchor };
}

describe.each(pages)('%s', (page) => {
  const text = readFileSync(path.join(root, page), 'utf8');
  const named = links(text)
    .map((link) => ({ link, to: target(page, link) }))
    .filter((l): l is { link: string; to: NonNullable<ReturnType<typeof target>> } => l.to !== undefined);

  it('links only to docs pages that exist, at headings they have', () => {
    const broken = named
      .filter(({ to }) => path.relative(root, to.file).startsWith('docs/') || page.startsWith('docs/'))
      .filter(({ to }) => !existsSync(to.file) || (to.anchor !== undefined && to.file.endsWith('.md') && !anchors(to.file).has(to.anchor)))
      .map(({ link }) => link);
    expect(broken).toEqual([]);
  });

  it('names only files of the repository when it names one in code (`spec/…`, `src/…`, `bench/…`, `examples/…`, `scripts/…`)', () => {
    const named = [...text.matchAll(/`((?:spec|src|bench|examples|scripts)\/[^`*\s<>]+)`/g)].map((m) => m[1]!);
    expect(named.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });
});

it('finds links at all', () => {
  expect(links('see [a](docs/a.md#b) and `[c](d)`')).toEqual(['docs/a.md#b']);
  expect(slug('`chatState(options?)`')).toBe('chatstateoptions');
});
