/** One ```ts block of an `@example`: its code, and the 1-based line of its first code line in the source. */
export interface ExampleBlock {
  readonly code: string;
  readonly start: number;
}
export function exampleBlocks(text: string, fileName?: string): ExampleBlock[];
