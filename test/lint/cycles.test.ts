// The folders of each runtime form an acyclic order (docs/ARCHITECTURE.md, "Layers inside a
// runtime"): every first-level folder of src/<runtime> is in the lint's tier table
// (`runtimeTiers` in eslint.config.js), the folders' real imports (static, dynamic, type-only and
// re-exports, read from the source files) form no cycle and never reach a higher tier, and the
// table in docs/ARCHITECTURE.md equals the lint's. The files of every runtime import one
// another's run-time values without a circle (issue 39's registry circles: kinds/registry.ts ->
// search/kind.ts -> search/import.ts -> registry.ts, and the like). The cycle finder itself is
// tested on small graphs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeTiers } from '../../eslint.config.js';

type Runtime = keyof typeof runtimeTiers;
const RUNTIMES = Object.keys(runtimeTiers) as Runtime[];
const ROOT = process.cwd();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|vue)$/.test(name) ? [p] : [];
  });
}

/** Relative specifiers of import/export statements and dynamic imports in one file. */
export function specifiers(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bimport|\bexport)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)|\bimport\s+['"](\.[^'"]+)['"]/g)) {
    out.push(m[1] ?? m[2] ?? m[3]);
  }
  return out;
}

// A kind-folder part (kinds/<kind>/study) or a registry of the kinds in a higher tier (kinds/manifests.ts), as eslint.config.js reads them.
const isPart = (f: string): boolean => f.includes('*') || f.startsWith('kinds/');

/**
 * The tier entry of a path inside src/<runtime>: a part of a kind's folder that sits in a higher
 * tier (a kind's study/ or service/ folder, its api*.ts rows) when the table has one, else its
 * first-level folder; null for a top-level file.
 */
function folderOf(runtime: Runtime, absPath: string): string | null {
  const rel = relative(join(ROOT, 'src', runtime), absPath).split(sep);
  if (rel.length <= 1 || rel[0] === '..') return null;
  const parts = runtimeTiers[runtime].flat().filter(isPart);
  if (rel[0] === 'kinds' && rel.length > 3 && parts.includes(`kinds/*/${rel[2]}`)) return `kinds/*/${rel[2]}`;
  // A registry of the kinds in a higher tier (kinds/handlers.ts) or a kind's file there (kinds/*/cli.ts).
  if (rel[0] === 'kinds' && rel.length === 2 && parts.includes(`kinds/${rel[1]}`)) return `kinds/${rel[1]}`;
  if (rel[0] === 'kinds' && rel.length === 3 && parts.includes(`kinds/*/${rel[2]}`)) return `kinds/*/${rel[2]}`;
  const file = rel.length === 3 ? rel[2].replace(/\.(ts|vue)$/, '') : null;
  if (rel[0] === 'kinds' && file !== null) {
    const part = parts.find((f) => f.endsWith('*.ts') && file.startsWith(f.slice('kinds/*/'.length, -'*.ts'.length)));
    if (part) return part;
  }
  return rel[0];
}

/** Folder -> folders it imports, with one example file per edge. */
function folderGraph(runtime: Runtime): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(join(ROOT, 'src', runtime))) {
    const from = folderOf(runtime, file);
    if (from === null) continue;
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      const to = folderOf(runtime, resolve(dirname(file), spec));
      if (to === null || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${relative(ROOT, file)} imports ${spec}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/**
 * The graph of units (issue 39): each kind's folder (kinds/<kind>/, all its tiers together) one
 * unit, each file of kinds/ itself (the interfaces, the registries) one, every other folder one.
 */
function unitGraph(runtime: Runtime): Map<string, Map<string, string>> {
  const unitOf = (absPath: string): string | null => {
    const rel = relative(join(ROOT, 'src', runtime), absPath).split(sep);
    if (rel.length <= 1 || rel[0] === '..') return null;
    return rel[0] === 'kinds' ? `kinds/${rel[1].replace(/\.(ts|vue)$/, '')}` : rel[0];
  };
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(join(ROOT, 'src', runtime))) {
    const from = unitOf(file);
    if (from === null) continue;
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      const to = unitOf(resolve(dirname(file), spec));
      if (to === null || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${relative(ROOT, file)} imports ${spec}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Relative specifiers of the imports that bring run-time values (not `import type`/`export type`, which vanish at build). */
export function valueSpecifiers(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bimport|\bexport)(\s+type\b)?[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)|\bimport\s+['"](\.[^'"]+)['"]/g)) {
    if (!m[1]) out.push(m[2] ?? m[3] ?? m[4]);
  }
  return out;
}

/** File -> files whose values it imports, within src/<runtime>. */
function valueFileGraph(runtime: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(join(ROOT, 'src', runtime))) {
    const to = valueSpecifiers(readFileSync(file, 'utf8')).map((spec) => {
      const abs = resolve(dirname(file), spec);
      return relative(ROOT, /\.(ts|vue)$/.test(abs) || !existsSync(`${abs}.ts`) ? abs : `${abs}.ts`);
    });
    graph.set(relative(ROOT, file), to);
  }
  return graph;
}

/** One cycle of a directed graph as a path [a, b, ..., a], or null when it has none. */
export function findCycle(graph: ReadonlyMap<string, Iterable<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return null;
}

/** The tier rows of docs/ARCHITECTURE.md's table: runtime -> tiers of folder names. */
function documentedTiers(): Record<string, string[][]> {
  const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Layers inside a runtime'));
  const rows: Record<string, string[][]> = {};
  for (const m of section.matchAll(/^\| (\w+) \| (`[^|]+) \|$/gm)) {
    rows[m[1]] = m[2].split(' < ').map((tier) => [...tier.matchAll(/`([\w*./-]+)`/g)].map((t) => t[1]));
  }
  return rows;
}

describe('the cycle finder', () => {
  it('finds a cycle and names its path', () => {
    expect(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(new Map([['a', ['b']], ['b', ['a']], ['x', ['a']]]))).toEqual(['a', 'b', 'a']);
  });
  it('accepts a DAG with shared descendants', () => {
    expect(findCycle(new Map([['a', ['b', 'c']], ['b', ['d']], ['c', ['d']], ['d', []]]))).toBeNull();
  });
  it('tells value imports from type-only ones', () => {
    const code = "import a from './a';\nimport type { B } from '../b';\nexport type { C } from './c';\nimport { type D, e } from './e';\nconst f = await import('./f');";
    expect(valueSpecifiers(code)).toEqual(['./a', './e', './f']);
  });
  it('reads every form of import', () => {
    const code = "import a from './a';\nimport type { B } from '../b';\nexport { c } from './c';\nexport * from './d';\nconst e = await import('./e');\nimport './f';\nimport x from 'zod';";
    expect(specifiers(code)).toEqual(['./a', '../b', './c', './d', './e', './f']);
  });
});

// Issue 39: a circle of run-time values between files works only while its calls happen late
// (the registry circles it named; the renderer's heartbeat and process recorder, each reading the
// other's exports); no runtime has one, and none keeps one.
describe.each(RUNTIMES)('the files of src/%s', (runtime) => {
  it("import one another's values without a circle", () => {
    expect(findCycle(valueFileGraph(runtime))).toBeNull();
  });
});

describe.each(RUNTIMES)('the folders of src/%s', (runtime) => {
  const tiers: readonly (readonly string[])[] = runtimeTiers[runtime];
  const tierOf = new Map(tiers.flatMap((folders, at) => folders.map((f) => [f, at] as const)));
  const graph = folderGraph(runtime);

  it('are all in the tier table', () => {
    const folders = readdirSync(join(ROOT, 'src', runtime)).filter((n) => statSync(join(ROOT, 'src', runtime, n)).isDirectory());
    // A kind's folder (kinds/<kind>/) is the kinds tier, its named parts their own.
    expect(folders.filter((f) => !tierOf.has(f))).toEqual([]);
  });

  it('import one another without a cycle', () => {
    // A kind's part in a higher tier (its LabApi rows, study readers, handlers) belongs to that
    // tier's layer, which composes it: for cycles it counts as the tier's own folder.
    const layerOf = (f: string): string => (isPart(f) ? (tiers[tierOf.get(f) ?? 0].find((x) => !isPart(x)) ?? f) : f);
    const layered = new Map<string, Set<string>>();
    for (const [from, edges] of graph) {
      const set = layered.get(layerOf(from)) ?? new Set<string>();
      for (const to of edges.keys()) if (layerOf(to) !== layerOf(from)) set.add(layerOf(to));
      layered.set(layerOf(from), set);
    }
    const cycle = findCycle(layered);
    const example = (a: string, b: string): string | undefined =>
      [...graph].flatMap(([from, edges]) => [...edges].filter(([to]) => layerOf(from) === a && layerOf(to) === b).map(([, e]) => e))[0];
    const why = cycle?.slice(1).map((to, i) => example(cycle[i], to)).join('; ');
    expect(cycle, why).toBeNull();
  });

  // Issue 39: the kinds' manifests are listed at the top (src/main/kinds/manifests.ts) and fill
  // indexes that import no kind, which the machinery reads; the CLI's and Electron's entries are
  // files above the folders (src/main/splatlab.ts, src/main/index.ts).
  it('form no cycle with each kind folder a unit', () => {
    const units = unitGraph(runtime);
    const cycle = findCycle(new Map([...units].map(([from, edges]) => [from, [...edges.keys()]])));
    const why = cycle?.slice(1).map((to, i) => units.get(cycle[i])?.get(to)).join('; ');
    expect(cycle, why).toBeNull();
  });

  it('never import a higher tier', () => {
    const up = [...graph].flatMap(([from, edges]) =>
      [...edges].filter(([to]) => (tierOf.get(to) ?? -1) > (tierOf.get(from) ?? -1)).map(([, example]) => example));
    expect(up).toEqual([]);
  });

  it('stand in docs/ARCHITECTURE.md as in the lint', () => {
    expect(documentedTiers()[runtime]).toEqual(tiers.map((t) => [...t]));
  });
});
