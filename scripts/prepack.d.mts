/** The files under dist/ that package.json points at (main, module, types, typesVersions, exports), as paths relative to `root`. */
export function distFiles(root: string): string[];
/** Why dist/ must be built before packing, or `undefined` when it is complete and newer than every file it is built from. */
export function buildReason(root: string): string | undefined;
