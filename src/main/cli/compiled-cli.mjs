// The CLI compiled once to JavaScript (issue 29 item 9, docs/ARCHITECTURE.md "The worker pool"):
// `splatlab` used to load its whole module graph through tsx's transpiler on every start. On the
// first start after a source change it bundles src/main/splatlab.ts with esbuild (the transpiler
// tsx runs on) into node_modules/.cache/splatlab/cli-<hash>/splatlab.mjs, split into chunks so each
// command loads only its own modules (as the sources' lazy imports did), where <hash> is the hash
// of every .ts and .mjs file of src/main and src/shared (paths and contents, from a stat index:
// src/main/io/source-hash.mjs, which names the pool worker's bundle too,
// src/main/workers/compiled.ts), so later starts import plain JavaScript. Plain JavaScript
// itself, because it runs before any TypeScript loader exists.
// Input: the repository root. Output: the bundle's path, or null when it cannot be built (the
// caller then runs the sources through tsx). Invariant: a bundle is written whole (temp folder,
// then rename) and named by its sources' hash; packages stay external (the repo's node_modules);
// the KEEP newest bundles stay, since a running process may still load chunks of its own.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { sourceHash } from '../io/source-hash.mjs';

/** Bundles of older sources kept (the newest first); older ones are removed. */
const KEEP = 4;

/** Builds (or finds) the CLI's bundle; returns its entry, or null when esbuild is missing or fails. */
export function compiledCli(root) {
  const dir = join(root, 'node_modules', '.cache', 'splatlab');
  const name = `cli-${sourceHash(root)}`;
  const out = join(dir, name);
  const entry = join(out, 'splatlab.mjs');
  if (existsSync(entry)) return entry;
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    const esbuild = createRequire(import.meta.url)('esbuild');
    esbuild.buildSync({
      entryPoints: [join(root, 'src', 'main', 'splatlab.ts')], outdir: tmp, outExtension: { '.js': '.mjs' },
      bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent',
    });
    try {
      renameSync(tmp, out);
    } catch (err) {
      // Another process finished the same bundle first: use theirs.
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(entry)) throw err;
    }
    const old = readdirSync(dir).filter((d) => d.startsWith('cli-') && !d.endsWith('.tmp') && d !== name);
    old.sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs);
    for (const d of old.slice(KEEP - 1)) rmSync(join(dir, d), { recursive: true, force: true });
    return entry;
  } catch {
    rmSync(tmp, { recursive: true, force: true });
    return null;
  }
}
