/**
 * What a user meets first in README.md: it starts with the two commands; its first TypeScript
 * block is the basic job whole (zod tools, `toolSpecs()` in the request, `readToolCalls({ tools })`,
 * both kinds of error handled) and prints what it says on the bundled stream; `tools` names one
 * thing; the `provider` names it lists are the code's; it says how to install from a clone; it
 * stays short. (scripts/check-readme.mjs type-checks every block against the built package.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import ts from 'typescript';
import { FRAMED_FORMATS, WIRE_FORMATS } from '../../src/providers/list';

const root = path.join(__dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** The fenced blocks, in order: their language and code. */
const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
const first = blocks.find((block) => block.lang === 'ts')!;

describe('README.md, first things first', () => {
  it('starts with the two commands, before any section', () => {
    expect(blocks[0]!.lang).toBe('sh');
    expect(blocks[0]!.code).toMatch(/^npm ci && npm start\s.*\nnpm test\s/);
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
  });

  it('its first TypeScript block is the basic job whole', () => {
    expect(readme.indexOf('```ts')).toBeLessThan(readme.indexOf('\n## 2.'));
    expect(first.code).toContain("from 'zod'");
    expect(first.code).toMatch(/const tools = \{[\s\S]*tool\(\{/);
    expect(first.code).toContain('fetch(');
    expect(first.code).toMatch(/tools: toolSpecs\(tools, 'openai-chat'\)/);
    expect(first.code).toContain('readToolCalls({ tools })');
    expect(first.code).toMatch(/if \(!result\.success\)/);
    expect(first.code).toMatch(/error: \(error: unknown\) =>/);
  });

  it('its first TypeScript block, run on examples/weather.sse, sends the tools and prints what it says', async () => {
    const expected = first.code
      .trimEnd()
      .split('\n')
      .reverse()
      .filter((line, i, lines) => lines.slice(0, i + 1).every((l) => l.startsWith('// ')))
      .reverse()
      .map((line) => line.slice(3));
    expect(expected.length).toBeGreaterThan(0);
    const js = ts.transpileModule(first.code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
    const printed: string[] = [];
    const requests: { url: string; body: { tools: { type: string; function: { name: string; parameters: { properties: object } } }[] } }[] = [];
    const stream = readFileSync(path.join(root, 'examples/weather.sse'));
    const fetch = (url: string, init: { body: string; signal: AbortSignal }): Promise<Response> => {
      requests.push({ url, body: JSON.parse(init.body) as (typeof requests)[number]['body'] });
      return Promise.resolve(new Response(stream, { headers: { 'content-type': 'text/event-stream' } }));
    };
    const console = { log: (...args: unknown[]) => printed.push(format(...args)), error: (...args: unknown[]) => printed.push(`error: ${format(...args)}`) };
    const run = new Function('require', 'exports', 'fetch', 'console', 'process', js) as (...args: unknown[]) => void;
    run(require, {}, fetch, console, { env: { OPENAI_API_KEY: 'sk-test' } });
    for (let i = 0; i < 200 && printed.length < expected.length; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(printed).toEqual(expected);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body.tools.map((t) => [t.type, t.function.name, Object.keys(t.function.parameters.properties)])).toEqual([
      ['function', 'get_weather', ['city', 'units']],
      ['function', 'get_time', ['tz']],
    ]);
  });

  it('`tools` names one thing: the record of tool() definitions, never the request\'s wire array', () => {
    expect(readme).not.toMatch(/declare const tools\b/);
    const assigned = [...readme.matchAll(/const tools = ([^\n]*)/g)].map((m) => m[1]!);
    expect(assigned.length).toBeGreaterThan(0);
    for (const value of assigned) expect(value).toBe('{');
    for (const block of blocks.filter((b) => b.lang === 'ts' && /\btools\b/.test(b.code))) {
      expect(block.code).toMatch(/const tools = \{|import \{[^}]*\btool\b/);
    }
  });

  it("lists the `provider` names of the code: 'auto' and every wire format of src/providers/list.ts", () => {
    const paragraph = readme.split(/\n\s*\n/).find((p) => p.includes('the `provider` option'));
    expect(paragraph).toBeDefined();
    const listed = [...paragraph!.matchAll(/`'([\w-]+)'`/g)].map((m) => m[1]!);
    const code = ['auto', ...WIRE_FORMATS.map((f) => f.format), ...FRAMED_FORMATS.map((f) => f.format)];
    expect([...listed].sort()).toEqual([...code].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("says how to install from a clone: npm pack, then install this version's tarball", () => {
    const install = blocks.find((block) => block.lang === 'sh' && block.code.includes('npm pack'));
    expect(install).toBeDefined();
    expect(install!.code).toContain('npm ci && npm pack');
    expect(install!.code).toContain(`npm install ../rxjs-tool-calls/rxjs-tool-calls-${version}.tgz rxjs`);
  });

  it('stays short: at most 400 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(400);
  });
});
