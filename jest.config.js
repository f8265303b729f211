/** @type {import('jest').Config} */
const transform = {
  '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  // bench/*.mjs (plain-Node ESM) are compiled to CommonJS too, so specs can import them.
  '^.+\\.mjs$': ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};
// Specs import the package by its public entries, mapped to the sources.
const moduleNameMapper = {
  '^rxjs-tool-calls$': '<rootDir>/src/index.ts',
  '^rxjs-tool-calls/advanced$': '<rootDir>/src/advanced.ts',
  '^rxjs-tool-calls/async$': '<rootDir>/src/async.ts',
  '^rxjs-tool-calls/marbles$': '<rootDir>/marbles/index.ts',
  '^rxjs-tool-calls/gateway$': '<rootDir>/src/gateway/index.ts',
  '^rxjs-tool-calls/tools$': '<rootDir>/src/tools/index.ts',
  '^rxjs-tool-calls/text$': '<rootDir>/src/text/index.ts',
  '^rxjs-tool-calls/sdk$': '<rootDir>/src/sdk/index.ts',
  '^rxjs-tool-calls/angular$': '<rootDir>/src/angular/index.ts',
  '^rxjs-tool-calls/websocket$': '<rootDir>/src/websocket/index.ts',
};
const common = { transform, moduleNameMapper, testEnvironment: 'node', moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'] };

// The fuzz project (minutes, not seconds) is in the list only when asked for, so `jest` / `npm test`
// stay fast: `npm run test:fuzz` = `jest --selectProjects fuzz`.
const argv = process.argv.join(' ');
const fuzzSelected = /--selectProjects(=|\s+)(\S+\s+)*fuzz\b/.test(argv);
const fuzz = { ...common, displayName: 'fuzz', testMatch: ['<rootDir>/spec/fuzz/**/*.spec.ts'] };

export default {
  // Stops the run with one line when the recorded provider streams (../shared/fixtures) are missing.
  globalSetup: '<rootDir>/spec/helpers/fixturesSetup.ts',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/spec/**/*.spec.ts', '<rootDir>/marbles/**/*.spec.ts'], testPathIgnorePatterns: ['/node_modules/', '<rootDir>/spec/conformance/', '<rootDir>/spec/types/', '<rootDir>/spec/fuzz/'] },
    { ...common, displayName: 'conformance', testMatch: ['<rootDir>/spec/conformance/**/*.spec.ts'] },
    ...(fuzzSelected ? [fuzz] : []),
  ],
};
