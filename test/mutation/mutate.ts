// `npm run mutation`: a small mutation-testing sampler (not part of `npm test`). It lists simple
// source mutations in src/shared/env and src/shared/metrics (flipped comparisons and logic, swapped
// arithmetic, changed constants, dropped call statements, true/false and min/max swaps), draws a
// seeded sample of N, applies each one alone, runs the test files that import the mutated module
// (the nearest importers in the import graph, at most 6, same-folder tests first) and counts
// killed (a test failed) and survived.
// Options: --n N (default 40), --seed S (default 17), --only PATH_SUBSTRING, --list (print the
// sample, run nothing), --json FILE (write the results). Invariant: every mutated file is restored
// byte for byte before the next mutant and on exit, including Ctrl-C.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TARGETS = ['src/shared/env', 'src/shared/metrics'];
const TEST_DIRS = ['test/shared', 'test/main'];

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string): string => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const N = Number(opt('--n', '40'));
const SEED = Number(opt('--seed', '17'));
const ONLY = opt('--only', '');
const JSON_OUT = opt('--json', '');

interface Mutant {
  file: string; // repo-relative
  line: number; // 1-based
  operator: string;
  before: string;
  after: string; // the whole mutated line
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The line with string literal contents and trailing comments blanked, same length. */
function mask(line: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\') {
        out += '  ';
        i++;
        continue;
      }
      if (ch === quote) quote = null;
      out += quote ? ' ' : ch;
      continue;
    }
    if (ch === '/' && line[i + 1] === '/') return out + ' '.repeat(line.length - i);
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    out += ch;
  }
  return out;
}

const SKIP_LINE = /^\s*(\/\/|\*|\/\*|import |export \{|export type |export interface |type |interface |\})/;
// Binary operators with spaces around them, so generics (Array<T>) and arrows (=>) are left alone.
const SWAPS: [RegExp, string, string][] = [
  [/ === /g, ' !== ', 'equality flipped'],
  [/ !== /g, ' === ', 'equality flipped'],
  [/ <= /g, ' < ', 'boundary'],
  [/ >= /g, ' > ', 'boundary'],
  [/ < /g, ' <= ', 'boundary'],
  [/ > /g, ' >= ', 'boundary'],
  [/ && /g, ' || ', 'logic flipped'],
  [/ \|\| /g, ' && ', 'logic flipped'],
  [/ \+ /g, ' - ', 'arithmetic'],
  [/ - /g, ' + ', 'arithmetic'],
  [/ \* /g, ' / ', 'arithmetic'],
  [/ \/ /g, ' * ', 'arithmetic'],
  [/\bMath\.min\(/g, 'Math.max(', 'min/max swapped'],
  [/\bMath\.max\(/g, 'Math.min(', 'min/max swapped'],
  [/\btrue\b/g, 'false', 'boolean flipped'],
  [/\bfalse\b/g, 'true', 'boolean flipped'],
];
const NUMBER = /(?<![\w.$])(\d+(?:\.\d+)?(?:e-?\d+)?)(?![\w.])/g;
const CALL_STATEMENT = /^(\s*)(?:await\s+)?(?:this\.)?[\w$]+(?:\.[\w$]+|\[[^\]]+\])*\s*\(.*\)\s*;\s*$/;

function mutantsOf(file: string): Mutant[] {
  const rel = relative(root, file);
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: Mutant[] = [];
  lines.forEach((line, i) => {
    if (SKIP_LINE.test(line) || line.trim() === '') return;
    const m = mask(line);
    const at = (index: number, from: string, to: string, operator: string): void => {
      out.push({ file: rel, line: i + 1, operator, before: line, after: line.slice(0, index) + to + line.slice(index + from.length) });
    };
    for (const [re, to, operator] of SWAPS) {
      for (const hit of m.matchAll(re)) at(hit.index ?? 0, hit[0], to, operator);
    }
    for (const hit of m.matchAll(NUMBER)) {
      const v = Number(hit[1]);
      const to = Number.isInteger(v) ? String(v === 0 ? 1 : v + 1) : String(v * 2);
      at(hit.index ?? 0, hit[1], to, 'constant changed');
    }
    const call = CALL_STATEMENT.exec(m);
    if (call && !/^\s*(return|const|let|var|throw)\b/.test(line)) {
      out.push({ file: rel, line: i + 1, operator: 'call dropped', before: line, after: `${call[1]};` });
    }
  });
  return out;
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Import graph of src and test: who imports each module (repo-relative paths without extension).
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;
function importers(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of [...walk(join(root, 'src')), ...TEST_DIRS.flatMap((d) => walk(join(root, d)))]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const target = relative(root, resolve(dirname(file), m[1])).replace(/\.(ts|js|mjs)$/, '');
      const set = graph.get(target) ?? new Set<string>();
      set.add(relative(root, file));
      graph.set(target, set);
    }
  }
  return graph;
}

/** Test files at the smallest import distance from `file` (direct importers first). */
function testsFor(file: string, graph: Map<string, Set<string>>): string[] {
  let frontier = [file.replace(/\.ts$/, '')];
  const seen = new Set(frontier);
  for (let depth = 0; depth < 4 && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const mod of frontier) for (const by of graph.get(mod) ?? []) {
      const key = by.replace(/\.ts$/, '');
      if (!seen.has(key)) {
        seen.add(key);
        next.push(key);
      }
    }
    const tests = next.filter((f) => f.endsWith('.test')).map((f) => `${f}.ts`);
    if (tests.length > 0) return nearest(file, tests);
    frontier = next;
  }
  return [];
}

/**
 * At most MAX_TESTS files, those whose folder mirrors the source's first (test/shared/env for
 * src/shared/env), so a widely imported module does not run half the suite per mutant.
 */
const MAX_TESTS = 6;
function nearest(file: string, tests: string[]): string[] {
  const mirror = dirname(file).replace(/^src\//, 'test/');
  const rank = (t: string): number => (t.startsWith(mirror) ? 0 : t.startsWith(mirror.split('/').slice(0, 2).join('/')) ? 1 : 2);
  return [...tests].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).slice(0, MAX_TESTS);
}

function runTests(tests: string[]): { failed: boolean; seconds: number } {
  const t0 = performance.now();
  const r = spawnSync('npx', ['vitest', 'run', '--bail=1', ...tests], {
    cwd: root,
    env: { ...process.env, VK_ICD_FILENAMES: process.env.VK_ICD_FILENAMES ?? '/usr/lib/chromium/vk_swiftshader_icd.json' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { failed: r.status !== 0, seconds: (performance.now() - t0) / 1000 };
}

const all = TARGETS.flatMap((d) => walk(join(root, d))).filter((f) => f.includes(ONLY)).flatMap(mutantsOf);
const random = rng(SEED);
const pool = [...all];
const sample: Mutant[] = [];
while (sample.length < N && pool.length > 0) sample.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
sample.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);

const graph = importers();
console.log(`# Mutation sample: ${sample.length} of ${all.length} candidate mutants in ${TARGETS.join(', ')} (seed ${SEED})\n`);
const originals = new Map<string, string>();
const restoreAll = (): void => {
  for (const [file, text] of originals) writeFileSync(join(root, file), text);
};
process.on('SIGINT', () => {
  restoreAll();
  process.exit(130);
});

const results: (Mutant & { tests: string[]; status: 'killed' | 'survived' | 'no tests'; seconds: number })[] = [];
if (argv.includes('--list')) {
  for (const m of sample) console.log(`${m.file}:${m.line} ${m.operator}: ${m.after.trim()}  [${testsFor(m.file, graph).join(' ')}]`);
  process.exit(0);
}
console.log('| # | mutant | operator | tests | result | s |');
console.log('|---|---|---|---|---|---|');
try {
  for (const [i, m] of sample.entries()) {
    const path = join(root, m.file);
    const text = readFileSync(path, 'utf8');
    originals.set(m.file, text);
    const lines = text.split('\n');
    lines[m.line - 1] = m.after;
    const tests = testsFor(m.file, graph).filter((t) => existsSync(join(root, t)));
    let status: 'killed' | 'survived' | 'no tests' = 'no tests';
    let seconds = 0;
    if (tests.length > 0) {
      writeFileSync(path, lines.join('\n'));
      try {
        const r = runTests(tests);
        status = r.failed ? 'killed' : 'survived';
        seconds = r.seconds;
      } finally {
        writeFileSync(path, text);
      }
    }
    results.push({ ...m, tests, status, seconds });
    const shown = m.after.trim().replace(/\|/g, '\\|');
    console.log(`| ${i + 1} | \`${m.file}:${m.line}\` \`${shown.length > 90 ? `${shown.slice(0, 87)}...` : shown}\` | ${m.operator} | ${tests.map((t) => t.replace(/^test\//, '')).join(', ')} | ${status} | ${seconds.toFixed(0)} |`);
  }
} finally {
  restoreAll();
}
const killed = results.filter((r) => r.status === 'killed').length;
const survived = results.filter((r) => r.status === 'survived').length;
const untested = results.filter((r) => r.status === 'no tests').length;
console.log(`\nKilled ${killed}, survived ${survived}, no tests ${untested}: mutation score ${((100 * killed) / Math.max(1, killed + survived + untested)).toFixed(1)}% (${killed}/${killed + survived + untested}).`);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(results, null, 1));
