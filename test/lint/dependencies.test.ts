// No unused npm dependency (issue 23 clean-ups): every package in package.json is named by the
// code (an import, a require, a config or a node_modules path), or is the @types of one, or a
// peer dependency of one, or a bin the npm scripts run (also quoted, as run-parallel.mjs takes
// its commands); the few left are listed with why.
// Inputs: package.json, the installed packages' manifests, the text of src/, test/, scripts/,
// packaging/ and the root configs. Invariant: a dependency nothing uses fails here by name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Dependencies no file names, each for a reason the scan cannot see. */
const KEPT: Record<string, string> = {
  'react-router': "imported by @metrevals/inspect-log-viewer's bundle without being declared there (it declares only react-router-dom)",
};

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  bin?: string | Record<string, string>;
  scripts?: Record<string, string>;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether the text names the package as a module (`'name'`, `'name/sub'`) or a node_modules path. */
export function names(text: string, dep: string): boolean {
  const d = escape(dep);
  return new RegExp(`['"\`]${d}(?:/[^'"\`\\s]*)?['"\`]|node_modules/${d}/`).test(text);
}

function binsOf(dep: string, m: Manifest | null): string[] {
  if (!m?.bin) return [];
  return typeof m.bin === 'string' ? [dep.split('/').pop() ?? dep] : Object.keys(m.bin);
}

/** The dependencies of `pkg` that nothing uses, by the rules in the header. */
export function unusedDependencies(pkg: Manifest, text: string, manifestOf: (dep: string) => Manifest | null): string[] {
  const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  const scripts = Object.values(pkg.scripts ?? {}).join('\n');
  const named = new Set(deps.filter((d) => names(text, d) || binsOf(d, manifestOf(d)).some((b) => new RegExp(`(^|[\\s&;|"'])${escape(b)}\\b`).test(scripts))));
  const peers = new Set([...named].flatMap((d) => Object.keys(manifestOf(d)?.peerDependencies ?? {})));
  const typed = (d: string): boolean => {
    const of = d.startsWith('@types/') ? d.slice('@types/'.length) : null;
    return of !== null && (of === 'node' || named.has(of) || peers.has(of));
  };
  return deps.filter((d) => !named.has(d) && !peers.has(d) && !typed(d) && !(d in KEPT));
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|mts|mjs|cjs|js|vue|html)$/.test(name) && statSync(path).size < 1_000_000 ? [path] : [];
  });
}

function installed(dep: string): Manifest | null {
  const path = join('node_modules', dep, 'package.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Manifest) : null;
}

describe('npm dependencies', () => {
  it('every dependency in package.json is used', () => {
    const roots = readdirSync('.').filter((f) => /\.(ts|mjs|js|json)$/.test(f) && !f.startsWith('package'));
    const text = [...['src', 'test', 'scripts', 'packaging'].flatMap(files), ...roots].map((p) => readFileSync(p, 'utf8')).join('\n');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
    expect(unusedDependencies(pkg, text, installed)).toEqual([]);
    for (const dep of Object.keys(KEPT)) expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }), `KEPT lists ${dep}`).toContain(dep);
  });

  it('the check finds a dependency nothing names, and sees imports, types, peers and bins', () => {
    const manifests: Record<string, Manifest> = { lib: { peerDependencies: { peer: '*' } }, tool: { bin: { tl: 'cli.js' } } };
    const pkg: Manifest = { dependencies: { lib: '1', peer: '1', spare: '1' }, devDependencies: { '@types/lib': '1', '@types/node': '1', '@types/spare-x': '1', tool: '1' }, scripts: { check: 'tl --fast && echo' } };
    const text = "import { a } from 'lib/sub';\nconst spare = 'spare is a word, not a module';\n";
    expect(unusedDependencies(pkg, text, (d) => manifests[d] ?? null)).toEqual(['spare', '@types/spare-x']);
    expect(names("await import('@scope/x/decode.js')", '@scope/x')).toBe(true);
    expect(names("'@scope/xy'", '@scope/x')).toBe(false);
    expect(names('./node_modules/@scope/x/schema.json', '@scope/x')).toBe(true);
  });
});
