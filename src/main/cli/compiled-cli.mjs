// The CLI compiled once to JavaScript (issue 29 item 9, docs/ARCHITECTURE.md "The worker pool"):
// `splatlab` used to load its whole module graph through tsx's transpiler on every start. On the
// first start after a source change it bundles src/main/splatlab.ts with esbuild (the transpiler
// tsx runs on) into node_modules/.cache/splatlab/cli-<hash>/splatlab.mjs, split into chunks so each
// command loads only its own modules (as the sources' lazy imports did), where <hash> is the hash of every
// .ts file of src/main and src/shared (paths and contents: the same hash as the pool worker's
// bundle, src/main/workers/compiled.ts), so later starts import plain JavaScript. Plain
// JavaScript itself, because it runs before any TypeScript loader exists.
// Input: the repository root. Output: the bundle's path, or null when it cannot be built (the
// caller then runs the sources through tsx). Invariant: a bundle is written whole (temp folder,
// then rename) and named by its sources' hash; packages stay external (the repo's node_modules);
// the KEEP newest bundles stay, since a running process may still load chunks of its own.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

/** Every .ts file below `dir`, sorted (the hash must not depend on the listing order). */
function sources(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && e.name.endsWith('.ts')) out.push(join(e.parentPath, e.name));
  return out.sort();
}

/** Hash of the sources (paths and contents), 16 hex digits; equal to compiled.ts's sourceHash. */
export function sourceHash(root) {
  const h = createHash('sha256');
  for (const dir of ['src/main', 'src/shared']) {
    for (const file of sources(join(root, dir))) h.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

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
