// Whether a test file can read a kind registry (test/helpers/lab-kinds.ts registers the lab's kinds
// only where one can: loading every kind's manifest costs a second or two per file, since each file
// has its own module graph; docs/DEVELOPING.md, "Test-suite time"). Yes when the file imports main
// above its lowest tiers (docs/ARCHITECTURE.md, "Layers inside a runtime") AND its imports,
// followed through every relative `import`/`export ... from`/`import('...')` (type-only ones are
// erased), reach a registry of docs/ARCHITECTURE.md's kind-registries table; a module that imports
// a computed path, or a file that cannot be read, counts as reaching one. Input: the test file's
// path. Output: yes or no. Invariant: a file that reaches no registry runs no code that reads one
// (child processes and worker threads register their own).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** main's tiers below the kinds, whose code never reads a kind registry. */
const BELOW_KINDS = new Set(['io', 'models', 'gpu', 'lpips', 'formats', 'workers', 'raster']);

/** Whether a test file, or a helper of test/ it imports (followed two deep), imports main above those tiers. */
function importsMainAboveKinds(testPath: string, depth = 2): boolean {
  const code = readFileSync(testPath, 'utf8');
  if ([...code.matchAll(/src\/main\/(\w+)/g)].some((m) => !BELOW_KINDS.has(m[1]))) return true;
  if (depth === 0) return false;
  const helpers = [...code.matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) => resolve(dirname(testPath), m[1]) + '.ts');
  return helpers.some((h) => existsSync(h) && importsMainAboveKinds(h, depth - 1));
}

/**
 * The shared and main registries of docs/ARCHITECTURE.md's kind-registries table
 * (test/lint/kind-registries.test.ts keeps it true) that are filled at run time, those exporting a
 * register function; one built from its imports (src/shared/kinds/api.ts) needs no registering.
 */
function registries(): Set<string> {
  const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- kind-registries -->'), doc.indexOf('<!-- /kind-registries -->'));
  const files = [...table.matchAll(/^\| (?:shared|main) \|.*\| `(src\/[^`]+)` \| [^|]+ \|$/gm)].map((m) => join(ROOT, m[1]));
  return new Set(files.filter((f) => !existsSync(f) || /^export (?:async )?function register\w*\(/m.test(readFileSync(f, 'utf8'))));
}

/** A relative specifier's file: as written, or with .ts / /index.ts (the sources import without extensions). */
function resolveRelative(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const f of [base, `${base}.ts`, base.replace(/\.m?js$/, '.ts'), join(base, 'index.ts')]) if (existsSync(f) && statSync(f).isFile()) return f;
  return null;
}

/** Relative imports that load code: static, re-exports, side-effect and literal dynamic ones (not `import type`). */
const RELATIVE_IMPORT = /(?:^|[;\s}])(?:import|export)\s+(?!type[\s{*])(?:[^'";]*?\sfrom\s*)?['"](\.\.?\/[^'"]+)['"]|\bimport\(\s*['"](\.\.?\/[^'"]+)['"]\s*\)/gm;
/** A dynamic import of a computed path: where it leads cannot be read. */
const COMPUTED_IMPORT = /\bimport\(\s*(?!['"])/;

/** Whether `file`'s relative imports, followed transitively, reach one of `targets`. */
function reaches(file: string, targets: Set<string>, seen = new Set<string>()): boolean {
  if (targets.has(file)) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    return true;
  }
  if (COMPUTED_IMPORT.test(code.replace(/^\s*(\/\/|\*).*$/gm, ''))) return true;
  for (const m of code.matchAll(RELATIVE_IMPORT)) {
    const spec = m[1] ?? m[2];
    const next = resolveRelative(file, spec);
    // An import that cannot be found is left to the test to fail on; data files (.json, .wgsl) hold no code.
    if (next !== null && /\.(ts|mts|js|mjs)$/.test(next) && reaches(next, targets, seen)) return true;
  }
  return false;
}

/** Whether the test file can read a kind registry; no path (not a file's run) reads as yes. */
export function readsKinds(testPath: string | undefined): boolean {
  if (!testPath) return true;
  const targets = registries();
  // No table read: every file that imports main above its lowest tiers registers, as before.
  return importsMainAboveKinds(testPath) && (targets.size === 0 || reaches(testPath, targets));
}
