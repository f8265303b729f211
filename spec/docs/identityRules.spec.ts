/**
 * The tool-call identity rules are defined in one place, by name: docs/providers.md, section
 * "Tool-call identity rules", one list item per rule that starts with the rule's name in backticks.
 * The code, the specs and the docs cite a rule by its name, as in rule `glued-calls`. This spec
 * fails on a cited name that is not defined there, on a rule cited by number, and on a citation of
 * an internal tracker number (a public report, `owner/repo#123` or a URL, is a citation to keep).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');

/** Directories never read: dependencies, build output, generated API pages. */
const SKIPPED = new Set(['node_modules', 'dist', 'api', '.angular', 'coverage']);
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|md|html)$/;

/** Every text file under the given repository paths (a file or a directory), relative to the root. */
function files(...paths: string[]): string[] {
  const walk = (rel: string): string[] => {
    const abs = path.join(root, rel);
    if (!statSync(abs).isDirectory()) return TEXT.test(rel) ? [rel] : [];
    return readdirSync(abs)
      .filter((name) => !SKIPPED.has(name))
      .sort()
      .flatMap((name) => walk(path.posix.join(rel, name)));
  };
  return paths.flatMap(walk);
}

/** Each match of `pattern` in the files, as `file:line: the line`, unless `keep` says the match is fine. */
function occurrences(paths: readonly string[], pattern: RegExp, keep: (match: RegExpExecArray, line: string) => boolean = () => false): string[] {
  const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
  const found: string[] = [];
  for (const file of paths) {
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const match of line.matchAll(global)) {
          if (!keep(match, line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
        }
      });
  }
  return found;
}

/** The rule names docs/providers.md defines: the list items (or headings) of its identity rules section that start with a name in backticks. */
function definedRules(): string[] {
  const page = readFileSync(path.join(root, 'docs/providers.md'), 'utf8');
  const start = page.indexOf('\n## Tool-call identity rules\n');
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^(?:- |#{3,6} )`([^`]+)`/gm)].map((m) => m[1]!);
}

/** Where rules are cited. */
const CITING = files('src', 'spec', 'marbles', 'docs', 'README.md');
/** Where no internal tracker number may stand. */
const NO_TRACKER = files('spec', 'src', 'docs', 'bench', 'scripts', 'marbles', 'examples');

describe('the identity rules, by name', () => {
  const defined = definedRules();

  it('docs/providers.md defines each rule once, by a kebab-case name', () => {
    expect(defined.length).toBeGreaterThan(0);
    expect(defined.filter((name) => !/^[a-z]+(?:-[a-z]+)*$/.test(name))).toEqual([]);
    expect(defined.filter((name, i) => defined.indexOf(name) !== i)).toEqual([]);
  });

  it('every rule cited by name in src, spec, marbles, docs and README.md (one name, or a list: "and", "or", commas) is defined there', () => {
    const known = new Set(defined);
    const citations = /\brules? ((?:`[^`]+`(?:,? and |,? or |, )?)+)/i;
    const unknown = occurrences(CITING, citations, (match) => [...match[1]!.matchAll(/`([^`]+)`/g)].every((m) => known.has(m[1]!)));
    expect(unknown).toEqual([]);
  });

  it('no rule is cited by number', () => {
    expect(occurrences(CITING, /\brules?\s+#?\d+/i)).toEqual([]);
  });
});

describe('no internal tracker numbers', () => {
  it('spec, src, docs, bench, scripts, marbles and examples cite what a case is, not an internal issue number', () => {
    // `owner/repo issue 12` names a public report; `…/issues/12` (a URL) does not match.
    const publicReport = (match: RegExpExecArray, line: string): boolean => /[\w.-]+\/[\w.-]+\s+$/.test(line.slice(0, match.index));
    expect(occurrences(NO_TRACKER, /\bissues? #?\d+\b/i, publicReport)).toEqual([]);
  });

  it('nor a bare #number in parentheses or after a space (`owner/repo#123` is a public report; a colour is no citation)', () => {
    expect(occurrences(NO_TRACKER, /(?<=^|[\s([,])#\d{1,5}\b(?![\w;])/)).toEqual([]);
  });
});
