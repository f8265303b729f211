export interface Section {
  readonly name: string;
  readonly title: string;
  readonly command: string;
  readonly about: string;
}
export const SECTIONS: readonly Section[];
export const HEADLINE_SCENARIOS: ReadonlyArray<readonly [string, string]>;
export function slug(title: string): string;
export function sectionLink(name: string, text?: string): string;
export function currentCommit(root?: string): string;
export function resultText(body: string, commit: string, date: string): string;
export function parseResult(text: string): { commit: string | undefined; date: string | undefined; body: string };
export function pageText(results: Record<string, string>): string;
export function readResults(dir?: string): Record<string, string>;
export function headlineTable(results?: Record<string, string>): string | undefined;
export function assemblePage(root?: string): string;
export function writeSection(name: string, body: string, options?: { root?: string; commit?: string; date?: string }): string[];
