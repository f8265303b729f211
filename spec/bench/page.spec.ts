/**
 * docs/benchmarks.md is generated: the committed page must be exactly what bench/page.mjs makes of
 * the committed bench/results/*.md, every result file must belong to a section, and writing a
 * section rewrites that section's file and the page and nothing else.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as PageNs from '../../bench/page.mjs';

const root = path.join(__dirname, '../..');
let page: typeof PageNs;

beforeAll(async () => {
  page = await import('../../bench/page.mjs');
});

describe('docs/benchmarks.md', () => {
  it('is what bench/page.mjs makes of bench/results/ (re-run `node bench/page.mjs`)', () => {
    const committed = readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8');
    expect(committed).toBe(page.pageText(page.readResults(path.join(root, 'bench/results'))));
  });

  it('has a section for every result file, and every result file says the commit it was measured on', () => {
    const names = readdirSync(path.join(root, 'bench/results')).map((f) => f.replace(/\.md$/, ''));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(page.SECTIONS.map((s) => s.name)).toContain(name);
      const { commit, body } = page.parseResult(readFileSync(path.join(root, 'bench/results', `${name}.md`), 'utf8'));
      expect(commit).toMatch(/^[0-9a-f]{7,40}(\+local-changes)?$/);
      // A result's headings start at ### (the page gives each section its ## title).
      expect(body).not.toMatch(/^#{1,2} /m);
    }
  });

  it('links to each section by the anchor GitHub gives its heading', () => {
    const text = page.pageText({});
    for (const section of page.SECTIONS) {
      expect(text).toContain(`\n## ${section.title}\n`);
      expect(text).toContain(`](#${page.slug(section.title)})`);
      expect(text).toContain(`Not measured yet: run \`${section.command}\`.`);
    }
    expect(page.slug('Re-encoding for gateways')).toBe('re-encoding-for-gateways');
    expect(page.slug('Partial JSON: the parser alone')).toBe('partial-json-the-parser-alone');
    expect(() => page.pageText({ nosuch: 'x' })).toThrow(/nosuch/);
  });

  it('shows the headline table read from the pipeline section', () => {
    const results = page.readResults(path.join(root, 'bench/results'));
    const headline = page.headlineTable(results);
    expect(headline).toBeDefined();
    const rows = headline!.split('\n').filter((l) => /^\| [a-z]/.test(l) && !l.startsWith('| scenario'));
    expect(rows).toHaveLength(page.HEADLINE_SCENARIOS.length);
    // The chatty row's first cell is readToolCalls' steady ratio of the chatty table, as measured.
    const chatty = page.parseResult(results.pipeline!).body.split('\n#### chatty\n')[1]!;
    const library = chatty.split('\n').find((l) => l.startsWith('| rxjs-tool-calls readToolCalls |'))!;
    expect(rows[0]).toContain(`| ${library.split('|')[8]!.trim()} / ${library.split('|')[6]!.trim()} |`);
    expect(page.pageText(results)).toContain(headline);
    expect(page.headlineTable({})).toBeUndefined();
  });

  it('writeSection writes the result with its measured-on line and re-assembles the page', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-page-'));
    try {
      mkdirSync(path.join(dir, 'docs'));
      const written = page.writeSection('sse', '| a | b |\n|---|---|\n| 1 | 2 |', { root: dir, commit: 'abc1234', date: '2026-01-02' });
      expect(written).toEqual(['bench/results/sse.md', 'docs/benchmarks.md']);
      expect(readFileSync(path.join(dir, 'bench/results/sse.md'), 'utf8')).toBe('<!-- measured: abc1234 2026-01-02 -->\n| a | b |\n|---|---|\n| 1 | 2 |\n');
      const text = readFileSync(path.join(dir, 'docs/benchmarks.md'), 'utf8');
      expect(text).toContain('Measured on commit `abc1234` (2026-01-02) with `node --expose-gc bench/sse-parser.mjs`.\n\n| a | b |');
      expect(readdirSync(path.join(dir, 'bench/results'))).toEqual(['sse.md']);
      expect(() => page.writeSection('nosuch', 'x', { root: dir, commit: 'c', date: 'd' })).toThrow(/nosuch/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("README.md's headline table (between the BENCH-HEADLINE markers) is the page's (re-run `node bench/page.mjs --headline`)", () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const headline = /<!-- BENCH-HEADLINE -->\n([\s\S]*?)\n<!-- \/BENCH-HEADLINE -->/.exec(readme);
    expect(headline?.[1]).toBe(page.headlineTable(page.readResults(path.join(root, 'bench/results')))?.trim());
  });
});
