// The kinds' registries as docs/ARCHITECTURE.md lists them ("The composition root and task kinds",
// the table between the kind-registries markers; issue 39): every registry the table names exists
// and exports the functions it names, and every file of src/<runtime>/kinds/ that imports a kind's
// folder (statically or lazily) is a registry of the table, so the docs' list of what a kind
// supplies and where cannot drift from the code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const RUNTIMES = ['shared', 'main', 'renderer'] as const;

interface Row { runtime: string; registry: string; reads: string[] }

function documentedRegistries(): Row[] {
  const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- kind-registries -->'), doc.indexOf('<!-- /kind-registries -->'));
  return [...table.matchAll(/^\| (shared|main|renderer) \|.*\| `(src\/[^`]+)` \| ([^|]+) \|$/gm)].map((m) => ({
    runtime: m[1], registry: m[2], reads: [...m[3].matchAll(/`(\w+)`/g)].map((r) => r[1]),
  }));
}

/** Files of src/<runtime>/kinds/ itself (not a kind's folder) that import a kind's folder. */
function filesImportingKinds(runtime: string): string[] {
  const dir = join(ROOT, 'src', runtime, 'kinds');
  const kindFolders = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const folder = new RegExp(`(?:from\\s*|import\\s*\\(\\s*)['"]\\./(${kindFolders.join('|')})/`);
  return readdirSync(dir).filter((f) => /\.(ts|vue)$/.test(f) && folder.test(readFileSync(join(dir, f), 'utf8'))).map((f) => `src/${runtime}/kinds/${f}`);
}

describe('the kinds\' registries of docs/ARCHITECTURE.md', () => {
  const rows = documentedRegistries();

  it('are read from the table, in every runtime', () => {
    expect(new Set(rows.map((r) => r.runtime))).toEqual(new Set(RUNTIMES));
  });

  it.each(rows.map((r) => [r.registry, r] as const))('%s exports what the table reads it with', (_name, row) => {
    const code = readFileSync(join(ROOT, row.registry), 'utf8');
    expect(row.reads.length).toBeGreaterThan(0);
    for (const name of row.reads) expect(code, `${row.registry} exports ${name}`).toMatch(new RegExp(`export (?:async )?(?:function|const|type|interface) ${name}\\b`));
  });

  it.each(RUNTIMES)('name every file of src/%s/kinds/ that imports a kind folder', (runtime) => {
    const documented = new Set(rows.map((r) => r.registry));
    // Main's manifest registry lists every kind's manifest; the indexes it fills import none.
    const extra = runtime === 'main' ? ['src/main/kinds/manifests.ts'] : [];
    expect(filesImportingKinds(runtime).filter((f) => !documented.has(f))).toEqual([]);
    for (const f of extra) expect(filesImportingKinds(runtime)).toContain(f);
  });
});
