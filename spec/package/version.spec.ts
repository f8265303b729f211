/**
 * One version story: package.json's `version` is the version of CHANGELOG.md's top section, which
 * is either released (dated) or says it is not yet. The CLI's `--version` reads package.json; the
 * README's install commands name this version's tarball (spec/docs/readmeFront.spec.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string };

/** The `## [x.y.z] — …` headings of the CHANGELOG, top first. */
const sections = [...read('CHANGELOG.md').matchAll(/^## \[([^\]]+)\](.*)$/gm)].map((m) => ({ version: m[1]!, rest: m[2]!.trim() }));

describe('the version', () => {
  it("package.json's version is the CHANGELOG's top section", () => {
    expect(sections.length).toBeGreaterThan(0);
    expect(sections[0]!.version).toBe(pkg.version);
  });

  it('the top section is dated or says Unreleased; the others are released versions', () => {
    expect(sections[0]!.rest).toMatch(/^(— Unreleased|— \d{4}-\d{2}-\d{2})?$/);
    for (const { version, rest } of sections) {
      expect(version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
      if (version !== sections[0]!.version) expect(rest).not.toMatch(/unreleased/i);
    }
  });

  it('each version has one section', () => {
    const versions = sections.map((s) => s.version);
    expect(versions).toEqual([...new Set(versions)]);
  });

  it("package-lock.json's root is the same version", () => {
    const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version?: string }> };
    expect(lock.version).toBe(pkg.version);
    expect(lock.packages['']?.version).toBe(pkg.version);
  });

  it('the CLI prints the version package.json holds (bin/ reads it; the source keeps no copy)', () => {
    expect(read('bin/rxjs-tool-calls.cjs')).toMatch(/require\('\.\.\/package\.json'\)/);
    expect(read('src/cli.ts')).not.toContain(pkg.version);
  });
});
