/** Bundle `contents` (export statements relative to the project root) with esbuild and import it. */
export function loadSource(name: string, contents: string): Promise<Record<string, unknown>>;
/** Every public entry of the package mapped to its source, for esbuild's `alias`. */
export function entryAliases(): Record<string, string>;
