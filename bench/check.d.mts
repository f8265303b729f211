import type { ExpectedCall } from './scenarios.mjs';
export function checkCalls(actual: unknown, expected: readonly ExpectedCall[]): string | null;
