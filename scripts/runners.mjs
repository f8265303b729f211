// Every public entry under every common runner, from the packed tarball (`npm pack` runs prepack, which builds dist/ when it is missing or stale).
//
// `npm pack`s the package into a temporary directory, then makes small projects outside the
// repository (in os.tmpdir()), each installing the tarball and its peers (rxjs, zod, rxjs-for-await;
// Angular where an entry needs it) with `npm install` (shared npm cache, pinned versions):
//
//   jest-cjs   jest, CommonJS, default config, no flags       node-esm   plain Node, ES modules
//   jest-esm   jest, ES modules (--experimental-vm-modules)   node-cjs   plain Node, CommonJS
//   vitest     vitest run, ES modules                         esbuild    an esbuild bundle, run by node
//   tsc        TypeScript, strict, declarations checked: node16 (a .cts and a .mts file) and bundler
//              resolution (a .cts file of an Angular entry under nodenext: under node16 a CommonJS
//              file may not import Angular's ES-module-only types)
//
// The entries are read from package.json `exports`, so a new entry is covered without editing this
// file. For each entry, each runner project runs two tests: every value export the entry's
// declarations name exists at run time (the names are read from its .d.cts with the TypeScript
// compiler), and one documented function of the entry runs (the first of CHECKS below whose
// function the entry exports). The tsc project imports every value export by name and checks that
// it is typed (not `any`). An entry whose declarations import Angular runs only in the projects
// that install Angular; jest-cjs does not: Angular is published as ES modules only, which jest
// loads only in its ESM mode. Prints one line per test and "runners: N passed, M failed"; exits 1
// on failure. `--keep` leaves the temporary directory in place.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const ts = require('typescript');
const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const SSE = readFileSync(path.join(root, 'examples/weather.sse'), 'utf8');
const started = performance.now();

/** The version installed here (so installs come from the npm cache the repository filled). */
const version = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const VITEST = '4.1.12'; // the newest vitest that supports Node 20
const peers = ['rxjs', 'zod', 'rxjs-for-await'].map((name) => `${name}@${version(name)}`);
const angularPeers = ['@angular/core', '@angular/common', '@angular/compiler'].map((name) => `${name}@${version(name)}`);

// ---- The entries and what their declarations say they export --------------------------------

/** The value exports (functions, classes, constants) a declaration file's module has. */
function valueExports(file) {
  const program = ts.createProgram([file], { noEmit: true, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file));
  if (moduleSymbol === undefined) throw new Error(`${file}: not a module`);
  return checker
    .getExportsOfModule(moduleSymbol)
    .filter((symbol) => ((symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags & ts.SymbolFlags.Value) !== 0)
    .map((symbol) => symbol.name)
    .sort();
}

const entries = Object.entries(pkg.exports)
  .filter(([subpath, target]) => subpath !== './package.json' && typeof target === 'object')
  .map(([subpath, target]) => {
    const types = path.join(root, target.require?.types ?? target.import?.types ?? target.types);
    const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    return { specifier, names: valueExports(types), angular: /from ['"]@angular\//.test(readFileSync(types, 'utf8')) };
  });

// ---- One documented function per entry --------------------------------------------------------

const WEATHER_CALLS = `[['get_weather', { city: 'Zürich', units: 'celsius' }], ['get_time', { tz: 'Asia/Tokyo', label: '東京 🗼' }]]`;
const callsOf = (results) => `${results}.map((r) => (r.success ? [r.data.name, r.data.arguments] : r.error.code))`;

/**
 * The first check whose function an entry exports runs for it. `body` is the test's code; it can
 * use `entry` (the entry's module), `main` (the main entry), `rx` (rxjs), `assert`, `SSE` (the text
 * of examples/weather.sse) and, for `angular` checks, `http` (@angular/common/http).
 */
const CHECKS = [
  {
    export: 'readToolCalls',
    title: 'readToolCalls() reads the two calls of examples/weather.sse',
    body: `const results = await rx.lastValueFrom(rx.from([new TextEncoder().encode(SSE)]).pipe(entry.readToolCalls(), rx.toArray()));
    assert.deepStrictEqual(${callsOf('results')}, ${WEATHER_CALLS});`,
  },
  {
    export: 'eachToolCall',
    title: 'for await over eachToolCall() gives the two calls of examples/weather.sse',
    body: `const results = [];
    for await (const result of entry.eachToolCall(rx.of(SSE))) results.push(result);
    assert.deepStrictEqual(${callsOf('results')}, ${WEATHER_CALLS});`,
  },
  {
    export: 'openaiChunk',
    title: 'openaiChunk() and openaiDone() write a stream that readToolCalls() reads',
    body: `const wire = entry.openaiChunk({ toolCalls: [{ id: 'c1', name: 'f', arguments: '{"a":1}' }] }) + entry.openaiChunk({ finishReason: 'tool_calls' }) + entry.openaiDone();
    const results = await rx.lastValueFrom(rx.of(wire).pipe(main.readToolCalls(), rx.toArray()));
    assert.deepStrictEqual(${callsOf('results')}, [['f', { a: 1 }]]);`,
  },
  {
    export: 'streamFrom',
    angular: true,
    title: "streamFrom() through Angular's HttpClient (a handler of ours for the network) gives readToolCalls() the text",
    body: `const half = SSE.slice(0, 2000);
    const requests = [];
    const client = new http.HttpClient({
      handle: (request) => {
        requests.push([request.method, request.url, request.body]);
        return rx.of(
          { type: http.HttpEventType.Sent },
          { type: http.HttpEventType.DownloadProgress, loaded: half.length, partialText: half },
          { type: http.HttpEventType.DownloadProgress, loaded: SSE.length, partialText: SSE },
          new http.HttpResponse({ status: 200, body: SSE, url: request.url }),
        );
      },
    });
    const results = await rx.lastValueFrom(entry.streamFrom(client, '/api/chat', { q: 'weather' }).pipe(main.readToolCalls(), rx.toArray()));
    assert.deepStrictEqual(requests, [['POST', '/api/chat', { q: 'weather' }]]);
    assert.deepStrictEqual(${callsOf('results')}, ${WEATHER_CALLS});`,
  },
  {
    export: 'SseParser',
    title: 'SseParser splits examples/weather.sse into its events, [DONE] last',
    body: `const parser = new entry.SseParser();
    const events = [];
    parser.push(SSE, (event) => events.push(event));
    parser.end((event) => events.push(event));
    assert.strictEqual(events.length, SSE.split('\\n').filter((line) => line.startsWith('data: ')).length);
    assert.strictEqual(events.at(-1).data, '[DONE]');`,
  },
  {
    export: 'readStreamEvents',
    title: 'readStreamEvents() gives the events of examples/weather.sse, a finish among them',
    body: `const events = await rx.lastValueFrom(rx.of(SSE).pipe(entry.readStreamEvents(), rx.toArray()));
    assert.ok(events.some((event) => event.type === 'finish' && event.reason === 'tool-calls'), JSON.stringify(events.map((event) => event.type)));`,
  },
  {
    export: 'encodeAnthropicMessages',
    title: 'encodeAnthropicMessages() re-encodes the events of examples/weather.sse into a stream readToolCalls() reads back',
    body: `const wire = await rx.lastValueFrom(rx.of(SSE).pipe(main.readStreamEvents(), entry.encodeAnthropicMessages(), rx.toArray()));
    assert.ok(wire.join('').includes('event: message_stop'), wire.join(''));
    const results = await rx.lastValueFrom(rx.of(wire.join('')).pipe(main.readToolCalls(), rx.toArray()));
    assert.deepStrictEqual(${callsOf('results')}, ${WEATHER_CALLS});`,
  },
  {
    export: 'runTools',
    title: 'runTools() runs the two calls of examples/weather.sse with tool() definitions',
    body: `const tools = {
      get_weather: entry.tool({ execute: (args) => 'weather in ' + args.city }),
      get_time: entry.tool({ execute: (args) => 'time in ' + args.tz }),
    };
    const runs = await rx.lastValueFrom(rx.of(SSE).pipe(main.readToolCalls(), entry.runTools(tools), rx.toArray()));
    assert.deepStrictEqual(runs.map((run) => (run.success ? [run.data.name, run.data.output] : run.error.code)), [['get_weather', 'weather in Zürich'], ['get_time', 'time in Asia/Tokyo']]);`,
  },
  {
    export: 'textToolCalls',
    title: 'textToolCalls() turns a tool call written as text into a tool call',
    body: `const text = '<tool_call>{"name": "get_weather", "arguments": {"city": "Zürich"}}</tool_call>';
    const wire = main.readStreamEvents;
    const chunk = (delta, finish = null) => 'data: ' + JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] }) + '\\n\\n';
    const sse = chunk({ role: 'assistant', content: text.slice(0, 17) }) + chunk({ content: text.slice(17) }) + chunk({}, 'stop') + 'data: [DONE]\\n\\n';
    const results = await rx.lastValueFrom(rx.of(sse).pipe(wire(), entry.textToolCalls(), main.toolCalls(), rx.toArray()));
    assert.deepStrictEqual(${callsOf('results')}, [['get_weather', { city: 'Zürich' }]]);`,
  },
  {
    export: 'fromOpenAIChatChunks',
    title: "fromOpenAIChatChunks() reads an SDK's chunk objects (an async iterable) into events toolCalls() completes",
    body: `async function* chunks() {
      yield { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }, finish_reason: null }] };
      yield { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Zürich"}' } }] }, finish_reason: 'tool_calls' }] };
    }
    const results = await rx.lastValueFrom(entry.fromOpenAIChatChunks(chunks()).pipe(main.toolCalls(), rx.toArray()));
    assert.deepStrictEqual(${callsOf('results')}, [['get_weather', { city: 'Zürich' }]]);`,
  },
  {
    export: 'fromWebSocket',
    title: "fromWebSocket() on rxjs's webSocket subject (a stand-in socket constructor sending examples/weather.sse's events as messages) gives readToolCalls() the records",
    body: `const messages = (await rx.lastValueFrom(rx.of(SSE).pipe(main.decodeSse(), rx.toArray()))).map((record) => record.data);
    class StandIn {
      constructor() {
        this.readyState = 0;
        setTimeout(() => {
          this.readyState = 1;
          this.onopen?.({});
          for (const data of messages) this.onmessage?.({ data });
          this.readyState = 3;
          this.onclose?.({ code: 1000, reason: '', wasClean: true });
        }, 0);
      }
      send() {}
      close() {
        this.readyState = 3;
      }
    }
    const results = await rx.lastValueFrom(entry.fromWebSocket('ws://127.0.0.1:1', { WebSocketCtor: StandIn }).pipe(main.readToolCalls(), rx.toArray()));
    assert.deepStrictEqual(${callsOf('results')}, ${WEATHER_CALLS});`,
  },
  {
    export: 'decodeSse',
    title: 'decodeSse() frames examples/weather.sse, [DONE] last',
    body: `const events = await rx.lastValueFrom(rx.of(SSE).pipe(entry.decodeSse(), rx.toArray()));
    assert.strictEqual(events.at(-1).data, '[DONE]');`,
  },
];

const checkFor = (entry) => CHECKS.find((check) => entry.names.includes(check.export));

// ---- Test files ---------------------------------------------------------------------------------

const slug = (specifier) => (specifier === pkg.name ? 'main' : specifier.slice(pkg.name.length + 1).replace(/\W/g, '-'));

/** The test file of one entry, as ES module or CommonJS code; `harness` is how `test` is defined. */
function testFile(entry, { syntax, harness }) {
  const check = checkFor(entry);
  const imports = [
    ['assert', 'node:assert/strict', 'default'],
    ...(entry.angular ? [[undefined, '@angular/compiler']] : []), // plain Node runs Angular's partially compiled classes with the JIT compiler
    ['rx', 'rxjs'],
    ['main', pkg.name],
    ['entry', entry.specifier],
    ...(check?.angular ? [['http', '@angular/common/http']] : []),
    ...(harness === 'vitest' ? [['{ test }', 'vitest', 'named']] : []),
  ];
  const load = imports.map(([name, from, kind]) => {
    if (syntax === 'esm')
      return name === undefined
        ? `import '${from}';`
        : kind === 'named'
          ? `import ${name} from '${from}';`
          : kind === 'default'
            ? `import ${name} from '${from}';`
            : `import * as ${name} from '${from}';`;
    return name === undefined ? `require('${from}');` : `const ${name} = require('${from}');`;
  });
  const tests = [
    `test(${JSON.stringify(`${entry.specifier}: every value export of its declarations is defined`)}, () => {
  const names = ${JSON.stringify(entry.names)};
  assert.deepStrictEqual(names.filter((name) => entry[name] === undefined), []);
});`,
    `test(${JSON.stringify(`${entry.specifier}: ${check ? check.title : 'a documented function runs'}`)}, async () => {
  ${check ? check.body : `throw new Error('no check in scripts/runners.mjs CHECKS for any export of ${entry.specifier}: add one');`}
});`,
  ];
  // Plain Node and the bundle: a small harness printing one RESULT line per test.
  const plain = `const tests = [];
const test = (name, fn) => tests.push([name, fn]);
${tests.join('\n')}
(async () => {
  for (const [name, fn] of tests) {
    try {
      await fn();
      console.log('RESULT ' + JSON.stringify({ name, ok: true }));
    } catch (error) {
      console.log('RESULT ' + JSON.stringify({ name, ok: false, error: String((error && error.stack) || error) }));
    }
  }
})();`;
  return `${load.join('\n')}\nconst SSE = ${JSON.stringify(SSE)};\n\n${harness === 'plain' ? plain : tests.join('\n\n')}\n`;
}

const testNames = (entry) => [`${entry.specifier}: every value export of its declarations is defined`, `${entry.specifier}: ${checkFor(entry)?.title ?? 'a documented function runs'}`];

/** The tsc project's file for one entry: every value export imported by name, and typed. */
function typesFile(entry) {
  const [first] = entry.names;
  return `import { ${entry.names.join(', ')} } from '${entry.specifier}';
export const all = [${entry.names.join(', ')}];
// @ts-expect-error a value export of the package is typed (were it \`any\`, this would not be an error)
export const typed: symbol = ${first};
`;
}

// ---- The projects -------------------------------------------------------------------------------

const jestResults = (json) =>
  json.testResults.flatMap((file) => [
    ...file.assertionResults.map((test) => ({ name: test.title, ok: test.status === 'passed', error: test.failureMessages?.join('\n') })),
    ...(file.assertionResults.length === 0 ? [{ file: path.basename(file.name), ok: false, error: file.message }] : []),
  ]);

const PROJECTS = [
  {
    name: 'jest-cjs',
    type: 'commonjs',
    angular: false,
    why: 'Angular is published as ES modules only, which jest loads only in its ESM mode',
    deps: [`jest@${version('jest')}`],
    files: (entry) => [[`${slug(entry.specifier)}.test.js`, testFile(entry, { syntax: 'cjs', harness: 'jest' })]],
    // Default config, no flags but the JSON report this script reads.
    test: async (dir) => jestResults(await jsonOf(dir, [path.join(dir, 'node_modules/jest/bin/jest.js'), '--json', '--outputFile=results.json'], {})),
  },
  {
    name: 'jest-esm',
    type: 'module',
    angular: true,
    deps: [`jest@${version('jest')}`],
    files: (entry) => [[`${slug(entry.specifier)}.test.js`, testFile(entry, { syntax: 'esm', harness: 'jest' })]],
    test: async (dir) =>
      jestResults(await jsonOf(dir, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', path.join(dir, 'node_modules/jest/bin/jest.js'), '--json', '--outputFile=results.json'], {})),
  },
  {
    name: 'vitest',
    type: 'module',
    angular: true,
    deps: [`vitest@${VITEST}`],
    files: (entry) => [[`${slug(entry.specifier)}.test.js`, testFile(entry, { syntax: 'esm', harness: 'vitest' })]],
    test: async (dir) => jestResults(await jsonOf(dir, [path.join(dir, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=json', '--outputFile=results.json'], {})),
  },
  {
    name: 'node-esm',
    type: 'module',
    angular: true,
    deps: [],
    files: (entry) => [[`${slug(entry.specifier)}.mjs`, testFile(entry, { syntax: 'esm', harness: 'plain' })]],
    test: (dir, files) => plainResults(dir, files),
  },
  {
    name: 'node-cjs',
    type: 'commonjs',
    angular: true,
    deps: [],
    files: (entry) => [[`${slug(entry.specifier)}.cjs`, testFile(entry, { syntax: 'cjs', harness: 'plain' })]],
    test: (dir, files) => plainResults(dir, files),
  },
  {
    name: 'esbuild',
    type: 'module',
    angular: true,
    deps: [`esbuild@${version('esbuild')}`],
    files: (entry) => [[`src/${slug(entry.specifier)}.mjs`, testFile(entry, { syntax: 'esm', harness: 'plain' })]],
    test: async (dir, files) => {
      // A bundle with every dependency inside, for Node: what an app built with a bundler runs.
      const bundles = files.map((file) => `out/${path.basename(file)}`);
      const script = `const { build } = require('esbuild');
Promise.all(${JSON.stringify(files)}.map((file) => build({ entryPoints: [file], outfile: 'out/' + require('node:path').basename(file), bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } }))).catch(() => process.exit(1));`;
      writeFileSync(path.join(dir, 'bundle.cjs'), script);
      try {
        await run(process.execPath, ['bundle.cjs'], { cwd: dir, timeout: 120_000 });
      } catch (error) {
        return files.map((file) => ({ file, ok: false, error: `esbuild: ${error.stderr || error.message}` }));
      }
      return plainResults(dir, bundles);
    },
  },
  {
    name: 'tsc',
    type: 'commonjs',
    angular: true,
    deps: [],
    types: true,
    files: (entry) => [
      [`${slug(entry.specifier)}.cts`, typesFile(entry)],
      [`${slug(entry.specifier)}.mts`, typesFile(entry)],
      [`bundler/${slug(entry.specifier)}.ts`, typesFile(entry)],
    ],
    test: async (dir, files) => files.map((file) => typeCheck(dir, file)),
  },
];

/** The compiler options of each way a TypeScript project resolves the package. */
const TS_MODES = {
  node16: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
  nodenext: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  bundler: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
};
/** The mode a tsc project file is checked in: by its extension; a .cts file of an Angular entry under nodenext (see tsModes). */
const tsModeOf = (file, entry) => (file.endsWith('.mts') ? 'node16' : file.endsWith('.cts') ? (entry.angular ? 'nodenext' : 'node16') : 'bundler');
const hosts = new Map();

/** Type-check one file on its own (strict; the declarations it reaches are checked too, but for TypeScript's own lib files): its diagnostics. */
function typeCheck(dir, file) {
  const entry = entries.find((e) => path.basename(file).startsWith(`${slug(e.specifier)}.`));
  const mode = tsModeOf(file, entry);
  const options = { ...TS_MODES[mode], strict: true, noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true, target: ts.ScriptTarget.ES2022, types: [] };
  // One host per mode, keeping parsed files between programs (the same file parses alike in one mode).
  if (!hosts.has(mode)) {
    const host = ts.createCompilerHost(options);
    const cache = new Map();
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, ...rest) => {
      if (!cache.has(name)) cache.set(name, getSourceFile(name, ...rest));
      return cache.get(name);
    };
    hosts.set(mode, host);
  }
  const host = hosts.get(mode);
  const program = ts.createProgram([path.join(dir, file)], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const text = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => dir, getNewLine: () => '\n' });
  return { file, mode, ok: diagnostics.length === 0, error: text };
}

/** Run node with `args` in `dir` and read the JSON report it writes to results.json. */
async function jsonOf(dir, args, env) {
  try {
    await run(process.execPath, args, { cwd: dir, timeout: 180_000, env: { ...process.env, ...env, CI: 'true', NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    // A failing test exits non-zero; the report says which. No report: the runner itself failed.
    try {
      return JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
    } catch {
      throw new Error(`${path.basename(dir)}: ${error.stderr || error.message}`.slice(0, 2000));
    }
  }
  return JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
}

/** Run each file with node; each prints one RESULT line per test. */
async function plainResults(dir, files) {
  const results = [];
  for (const file of files) {
    let stdout;
    let failure;
    try {
      ({ stdout } = await run(process.execPath, [file], { cwd: dir, timeout: 60_000 }));
    } catch (error) {
      stdout = error.stdout ?? '';
      failure = error.stderr || error.message;
    }
    const lines = stdout.split('\n').filter((line) => line.startsWith('RESULT '));
    results.push(...lines.map((line) => JSON.parse(line.slice('RESULT '.length))));
    if (lines.length === 0 || failure) results.push({ file, ok: false, error: failure ?? 'no result printed' });
  }
  return results;
}

// ---- Run ----------------------------------------------------------------------------------------

const work = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-runners-'));
let passed = 0;
let failed = 0;
const report = (ok, line, error) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'FAIL'} ${line}`);
  if (!ok && error) console.log(`  ${String(error).trim().split('\n').slice(0, 12).join('\n  ')}`);
};
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

try {
  const { stdout } = await run('npm', ['pack', '--pack-destination', work, '--loglevel=error'], { cwd: root });
  const tarball = path.join(work, stdout.trim().split('\n').at(-1));
  console.log(`packed ${path.basename(tarball)}; entries from package.json exports: ${entries.map((e) => `${e.specifier} (${e.names.length} value exports)`).join(', ')}`);

  // Installs, three at a time (they share the npm cache), then the runners one after another.
  const prepared = [];
  const queue = [...PROJECTS];
  await Promise.all(
    [1, 2, 3].map(async () => {
      for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
        const dir = path.join(work, project.name);
        const included = entries.filter((entry) => !entry.angular || project.angular);
        const files = included.flatMap((entry) => project.files(entry));
        for (const [file, text] of files) {
          mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
          writeFileSync(path.join(dir, file), text);
        }
        writeFileSync(
          path.join(dir, 'package.json'),
          JSON.stringify({ name: `runner-${project.name}`, private: true, type: project.type, allowScripts: { esbuild: false, '@swc/core': false } }, null, 2),
        );
        const deps = [tarball, ...peers, ...(included.some((entry) => entry.angular) ? angularPeers : []), ...project.deps];
        const start = performance.now();
        try {
          await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...deps], { cwd: dir, timeout: 240_000 });
          prepared.push({ project, dir, included, files: files.map(([file]) => file), installed: seconds(start) });
        } catch (error) {
          prepared.push({ project, dir, included, files: [], error: `npm install: ${error.stderr || error.message}` });
        }
      }
    }),
  );
  for (const project of PROJECTS) {
    const { dir, included, files, installed, error } = prepared.find((p) => p.project === project);
    const excluded = entries.filter((entry) => !included.includes(entry));
    const note = excluded.length ? `; not run: ${excluded.map((e) => e.specifier).join(', ')} (${project.why})` : '';
    if (error) {
      report(false, `${project.name}: install`, error);
      continue;
    }
    const start = performance.now();
    let results;
    try {
      results = await project.test(dir, files);
    } catch (failure) {
      results = [{ ok: false, file: project.name, error: failure.message }];
    }
    console.log(`-- ${project.name} (install ${installed}, run ${seconds(start)}${note})`);
    if (project.types) {
      for (const result of results) {
        const entry = entries.find((e) => path.basename(result.file ?? '').startsWith(`${slug(e.specifier)}.`));
        const kind = result.file?.endsWith('.cts') ? 'CommonJS' : result.file?.endsWith('.mts') ? 'ESM' : '';
        report(result.ok, `${project.name}: ${entry?.specifier ?? result.file}: every value export imports by name and is typed (${result.mode ?? '?'}${kind ? ` ${kind}` : ''})`, result.error);
      }
      continue;
    }
    // Every expected test must have passed; a file that failed to load fails the tests it holds.
    for (const entry of included) {
      for (const name of testNames(entry)) {
        const result = results.find((r) => r.name === name);
        const fileFailure = results.find((r) => r.name === undefined && r.file?.includes(slug(entry.specifier)));
        report(result?.ok === true, `${project.name}: ${name}`, result?.error ?? fileFailure?.error ?? 'did not run');
      }
    }
    for (const stray of results.filter((r) => r.name === undefined && !entries.some((entry) => r.file?.includes(slug(entry.specifier))))) report(false, `${project.name}: ${stray.file}`, stray.error);
  }
} catch (error) {
  report(false, 'runners setup', error.stack ?? error);
} finally {
  if (process.argv.includes('--keep')) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(`runners took ${seconds(started)}`);
console.log(`runners: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
