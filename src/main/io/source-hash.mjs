// The hash that names the compiled bundles (issue 29 item 9; docs/ARCHITECTURE.md "The worker
// pool"): the CLI's (src/main/cli/compiled-cli.mjs) and the worker entries'
// (src/main/workers/compiled.ts) come from this one function, so an edit anywhere in src/main or
// src/shared names new bundles. Plain JavaScript: the launcher runs it before any TypeScript loader.
// Every start used to read and hash each .ts file (about 600 files, 4 MB: 30-45 ms of a cold
// `splatlab grade`, issue 40 item 3); now a per-checkout index (node_modules/.cache/
// splatlab-sources/<checkout>.json) keeps each file's SHA-256 beside its stat (size, mtime,
// ctime, inode), as git's index does, and only a file whose stat differs, or which changed
// within RACY_NS of the index being written (a write in the same timestamp tick as the read
// would not show in its stat), is read again.
// Input: the repository root. Output: 16 hex digits, the SHA-256 of the path and content hash
// of every .ts and .mjs file there, in path order. Invariant: the same sources give the same hash with or without the
// index (it is only a cache: a missing, torn or foreign index costs reading the files); the
// index is written whole (a temporary file, then a rename) and only when a file was read.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';

const INDEX_VERSION = 1;
/** A file whose ctime or mtime is this close to the index's writing is read again (coarse timestamps). */
const RACY_NS = 3_000_000_000n;

/**
 * Every .ts and .mjs file below `dir` (the bundles hold this file and others the .ts import),
 * sorted: the hash must not depend on the listing order.
 */
function sources(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && /\.(ts|mjs)$/.test(e.name)) out.push(join(e.parentPath, e.name));
  return out.sort();
}

/** The index file of this checkout (the cache folder may be shared by checkouts through a link). */
export function sourceIndexPath(root) {
  const top = join(root, '.');
  return join(top, 'node_modules', '.cache', 'splatlab-sources', `${createHash('sha256').update(top).digest('hex').slice(0, 16)}.json`);
}

/** The index's entries (path -> [stat key, content hash]) and when it was written, or an empty one. */
function readIndex(path) {
  try {
    const json = JSON.parse(readFileSync(path, 'utf8'));
    if (json.version === INDEX_VERSION && typeof json.written === 'string' && json.files && typeof json.files === 'object') return { written: BigInt(json.written), files: json.files };
  } catch {
    // Missing, torn or from another version: every file is read.
  }
  return { written: 0n, files: {} };
}

function writeIndex(path, files, written) {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(tmp, JSON.stringify({ version: INDEX_VERSION, written: written.toString(), files }));
    renameSync(tmp, path);
  } catch {
    // A cache that cannot be written costs the next start the reads, nothing else.
    rmSync(tmp, { force: true });
  }
}

/** Hash of the sources (paths and contents) a bundle is built from, 16 hex digits. */
export function sourceHash(root) {
  const path = sourceIndexPath(root);
  const index = readIndex(path);
  const now = BigInt(Date.now()) * 1_000_000n;
  const files = {};
  let read = 0;
  let count = 0;
  const total = createHash('sha256');
  // Paths relative to the root by slicing (path.relative resolves both paths on every call).
  const top = join(root, '.');
  const cut = top.endsWith(sep) ? top.length : top.length + 1;
  for (const dir of ['src/main', 'src/shared']) {
    for (const file of sources(join(top, dir))) {
      const rel = file.slice(cut);
      const st = statSync(file, { bigint: true });
      const key = `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
      const old = index.files[rel];
      const settled = st.ctimeNs + RACY_NS < index.written && st.mtimeNs + RACY_NS < index.written;
      let digest;
      if (Array.isArray(old) && old[0] === key && typeof old[1] === 'string' && settled) {
        digest = old[1];
      } else {
        digest = createHash('sha256').update(readFileSync(file)).digest('hex');
        read++;
      }
      files[rel] = [key, digest];
      count++;
      total.update(rel).update('\0').update(digest).update('\0');
    }
  }
  if (read > 0 || count !== Object.keys(index.files).length) writeIndex(path, files, now);
  return total.digest('hex').slice(0, 16);
}
