// Types for bench/scenarios.mjs (plain-Node ESM, imported by spec/bench/scenarios.spec.ts).
export type WireFormat = 'openai-chat' | 'anthropic' | 'openai-responses';
export interface ExpectedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}
export interface Scenario {
  readonly name: string;
  readonly format: WireFormat;
  readonly description: string;
  readonly bytes: Uint8Array;
  readonly chunks: Uint8Array[];
  readonly sseText: string;
  readonly expected: ExpectedCall[];
}
export interface Rng {
  next(): number;
  float(): number;
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}
export function createRng(seed: number): Rng;
export function seedFromName(name: string, salt?: number): number;
export function makeArguments(rng: Rng, targetChars: number, options?: { exotic?: boolean }): { text: string; value: object };
export function splitFragments(text: string, rng: Rng, min: number, max: number): string[];
export function rechunk(bytes: Uint8Array, rng: Rng, min?: number, max?: number): Uint8Array[];
export const SCENARIO_NAMES: string[];
export const SCALING: Array<{ name: string; factor: number }>;
export function buildScenario(name: string, options?: { seed?: number }): Scenario;
