// The kinds' registries as docs/ARCHITECTURE.md lists them ("The composition root and task kinds",
// the table between the kind-registries markers; issue 39): every registry the table names exists
// and exports the functions it names, and every file of src/<runtime>/kinds/ that imports a kind's
// folder (statically or lazily) is a registry of the table, so the docs' list of what a kind
// supplies and where cannot drift from the code. The tables of docs/DESIGN.md section 13 list each
// runtime's manifest member for member.
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

/** Member names of an exported interface (its own, not its parents'), read from the source. */
function members(file: string, name: string): string[] {
  const code = readFileSync(join(ROOT, file), 'utf8');
  const start = code.indexOf(`export interface ${name} `);
  expect(start, `${file} exports interface ${name}`).toBeGreaterThan(-1);
  const body = code.slice(code.indexOf('{', start) + 1, code.indexOf('\n}', start));
  return [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??[(:]/gm)].map((m) => m[1]);
}

/** The parts a table of docs/DESIGN.md section 13 names (its first column's code spans): the first table after `heading`. */
function documentedParts(heading: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs/DESIGN.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## 13. The task-kind interface'), doc.indexOf('## 14.'));
  const at = section.indexOf(heading);
  expect(at, `docs/DESIGN.md section 13 has a table after ${heading}`).toBeGreaterThan(-1);
  const table = section.slice(at).split('\n\n')[1];
  return table.split('\n').slice(2).flatMap((row) => [...row.split(' | ')[0].matchAll(/`(\w+)/g)].map((m) => m[1]));
}

// What a kind supplies, as docs/DESIGN.md section 13 lists it, is what each runtime's manifest
// declares, member for member (issue 39): a part added to an interface and not to the docs, or a
// documented part the interface no longer has, fails here.
describe('the docs\' list of what a kind supplies', () => {
  it.each([
    ['Shared half (', 'src/shared/kinds/kind.ts', 'TaskKindModule'],
    ['Main half (', 'src/main/kinds/kind.ts', 'MainKindModule'],
    ['The main manifest (', 'src/main/kinds/manifest.ts', 'MainKindManifest'],
    ['Renderer half (', 'src/renderer/kinds/kind.ts', 'RendererKindModule'],
  ])('%s: %s %s', (heading, file, name) => {
    expect(new Set(documentedParts(heading))).toEqual(new Set(members(file, name)));
  });
});
