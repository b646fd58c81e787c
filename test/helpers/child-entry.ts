// A test's child process script compiled to one JavaScript file, so each child it spawns starts
// plain JavaScript instead of loading its whole module graph through tsx's transpiler (a second
// or more of CPU per child; the kill test starts 21: docs/DEVELOPING.md, "Test-suite time").
// The same esbuild bundle the lab's pool threads and CLI run (src/main/workers/compiled.ts,
// src/main/cli/compiled-cli.mjs), built from the script's current sources on the first call of
// each test file and named by its contents, under the repository's node_modules/.cache (packages
// stay external and resolve from there). Input: the script's path. Output: the command line that
// runs it: [node, ...args]. Invariant: the child runs the same sources as through tsx; where
// esbuild is missing or fails, or SPLATLAB_NO_COMPILED_WORKERS=1, the script runs through tsx.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

interface EsbuildApi {
  buildSync(options: Record<string, unknown>): { outputFiles?: { text: string }[] };
}

const built = new Map<string, string | null>();

/** The script's bundle (built once per test file), or null where esbuild cannot build it. */
function bundle(script: string): string | null {
  if (process.env.SPLATLAB_NO_COMPILED_WORKERS === '1') return null;
  if (built.has(script)) return built.get(script) ?? null;
  let out: string | null = null;
  try {
    const esbuild = createRequire(import.meta.url)('esbuild') as EsbuildApi;
    const res = esbuild.buildSync({ entryPoints: [script], write: false, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });
    const text = res.outputFiles?.[0]?.text;
    if (text !== undefined) {
      const dir = join(process.cwd(), 'node_modules', '.cache', 'splatlab', 'test-children');
      const file = join(dir, `${basename(script).replace(/\.ts$/, '')}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`);
      if (!existsSync(file)) {
        mkdirSync(dir, { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, text);
        renameSync(tmp, file);
      }
      out = file;
    }
  } catch {
    out = null;
  }
  built.set(script, out);
  return out;
}

/** The arguments after `node` that run `script` (a test's child, TypeScript): its bundle, else the source through tsx. */
export function childArgs(script: string): string[] {
  const file = bundle(script);
  return file ? [file] : ['--import', 'tsx', script];
}

/** The environment a bundled child needs: the repository root, which it cannot find from the bundle's folder. */
export const childEnv = (): NodeJS.ProcessEnv => ({ ...process.env, SPLATLAB_ROOT: process.cwd() });
