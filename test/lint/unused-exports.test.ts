// No export of src/ is used nowhere (issue 39, "22 exports used nowhere"): every name a source
// file exports (const, function, class, interface, type, enum) is named again somewhere, in its
// own file, another source file, a test, a script or a config. A name that appears only in its
// export declaration is dead code. Read by identifiers, not by a type checker: a name that is
// mentioned anywhere counts as used (so the check errs towards passing), and it runs in a second.
// Exempt: `command`, the name every CLI command module exports for the loader
// (src/main/cli/commands/index.ts reads it by that name).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const EXEMPT = new Set(['command']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|vue|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** The names a TypeScript file exports by declaration. */
export function exportedNames(code: string): string[] {
  return [...code.matchAll(/^export (?:declare )?(?:async )?(?:abstract )?(?:const|let|function\*?|class|interface|type|enum) +([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);
}

/** Exports named only once in all of `files` (their own declaration), as `path name`. */
export function unusedExports(files: ReadonlyMap<string, string>, sources: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const code of files.values()) for (const [id] of code.matchAll(/[A-Za-z_$][\w$]*/g)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return sources.flatMap((file) =>
    exportedNames(files.get(file) ?? '').filter((name) => !EXEMPT.has(name) && counts.get(name) === 1).map((name) => `${relative(ROOT, file)} ${name}`));
}

describe('the exports of src/', () => {
  it('reads declared exports and finds one named nowhere else', () => {
    const code = 'export const a = 1;\nexport function b() { return a; }\nexport type C = number;\nexport async function d() {}\nconst e = 2;';
    expect(exportedNames(code)).toEqual(['a', 'b', 'C', 'd']);
    const files = new Map([['/x.ts', code], ['/y.ts', 'import { b } from "./x"; b();']]);
    expect(unusedExports(files, ['/x.ts']).map((u) => u.split(' ')[1])).toEqual(['C', 'd']);
  });

  it('are each used somewhere', () => {
    const sources = walk(join(ROOT, 'src')).filter((f) => f.endsWith('.ts'));
    const top = readdirSync(ROOT).filter((n) => /\.(ts|mjs|js)$/.test(n)).map((n) => join(ROOT, n));
    const all = [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'test')), ...walk(join(ROOT, 'scripts')), ...top];
    const files = new Map(all.map((f) => [f, readFileSync(f, 'utf8')]));
    expect(unusedExports(files, sources)).toEqual([]);
  });
});
