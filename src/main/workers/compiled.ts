// The worker thread's entry compiled once to JavaScript (issue 29 item 9, docs/ARCHITECTURE.md
// "The worker pool"): from source (tests, `splatlab serve`) every thread used to load the whole
// handler tree through tsx's transpiler, seconds of CPU per thread. Instead the first thread
// bundles pool-worker.ts with esbuild (the transpiler tsx runs on) into
// node_modules/.cache/splatlab/pool-worker-<hash>.mjs, where <hash> covers every source file of
// src/main and src/shared (src/main/io/source-hash.mjs, the CLI bundle's hash too), so an edit
// makes a new bundle and an unchanged tree reuses the cached one, across processes. Packages stay external and resolve from the repository's node_modules.
// Output: the bundle's path, or null when it cannot be built (the caller falls back to tsx).
// Invariant: a bundle is written whole (temp file, then rename) and named by its sources' hash;
// the newest KEEP_BUNDLES of an entry stay, so an edit never removes a running lab's bundle.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../io/data-dir';
import { sourceHash } from '../io/source-hash.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** Bundles kept per entry, the current one included: a lab process started from older sources
 * (before an edit) keeps starting threads from its own bundle. */
export const KEEP_BUNDLES = 4;

interface EsbuildApi {
  buildSync(options: Record<string, unknown>): unknown;
}

/** Builds (or finds) the bundle of `entry` under the cache folder; null when esbuild fails. */
export function compiledEntry(entry = join(repoRoot(here), 'src', 'main', 'threads', 'pool-worker.ts'), root = repoRoot(here)): string | null {
  const name = `${entry.split(/[\\/]/).pop()?.replace(/\.ts$/, '') ?? 'entry'}-${sourceHash(root)}.mjs`;
  const dir = join(root, 'node_modules', '.cache', 'splatlab');
  const out = join(dir, name);
  if (existsSync(out)) return out;
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    const esbuild = createRequire(import.meta.url)('esbuild') as EsbuildApi;
    esbuild.buildSync({ entryPoints: [entry], outfile: tmp, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });
    renameSync(tmp, out);
    // Bundles of older sources: a lab started before the edit still starts threads from its own,
    // so the newest few stay (as the CLI's bundles do, src/main/cli/compiled-cli.mjs) and older go.
    const prefix = name.slice(0, name.lastIndexOf('-') + 1);
    const older = readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith('.mjs') && f !== name);
    older.sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs);
    for (const old of older.slice(KEEP_BUNDLES - 1)) rmSync(join(dir, old), { force: true });
    return out;
  } catch {
    rmSync(tmp, { force: true });
    return null;
  }
}

const cached = new Map<string, string | null>();

/** The bundle of a worker entry of src/main/threads for this process (built on first use, then remembered). */
export function compiledPoolWorker(source = 'pool-worker.ts'): string | null {
  if (process.env.SPLATLAB_NO_COMPILED_WORKERS === '1') return null;
  if (!cached.has(source)) cached.set(source, compiledEntry(join(repoRoot(here), 'src', 'main', 'threads', source)));
  return cached.get(source) ?? null;
}
