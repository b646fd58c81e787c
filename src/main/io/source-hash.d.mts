// Types of source-hash.mjs (plain JavaScript: the launcher runs it before any TypeScript loader).
/** Hash of the sources (paths and contents) a bundle is built from, 16 hex digits. */
export function sourceHash(root: string): string;
/** The index of a checkout's sources' stats and content hashes (a cache; see source-hash.mjs). */
export function sourceIndexPath(root: string): string;
