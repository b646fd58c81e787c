// The Python package (python/, docs/AGENTS.md "Python: the splatlab package") against live RL
// servers: its standard-library core with Debian's python3 and no extra (python/tests/check_core.py),
// then installed with its gym and trl extras into a fresh venv (gymnasium, transformers without
// torch, pillow) from pip's configured index: gymnasium's check_env on every family
// (check_gym.py) and TRL's environment_factory protocol with transformers' get_json_schema on
// every tool and a scripted rollout (check_trl.py); and every ```python block of docs/AGENTS.md's
// section "Python: the splatlab package" as written (```py blocks need torch or inspect-ai). A missing python3 or venv fails under CI=true
// and skips elsewhere (.ci/run installs python3 and python3-venv). The extras install from a local
// pip index (pip.conf's file:// index-url, as on the lab's build machines: part 'pipIndex'); a
// machine without one skips them and the run's summary says so, since no CI machine is promised
// PyPI; where the index is present a failed install fails. The venv and the package's build lie
// in a temporary folder.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRlServer, type RlServer } from '../../../src/main/eval/rl-http';
import { testTasks } from '../env/fixtures';
import { skipWithout } from '../../helpers/optional';

const ROOT = resolve(__dirname, '../../..');
const TESTS = join(ROOT, 'python', 'tests');
const COMMITTED = join(ROOT, 'tasks');
const TOKEN = 'py-token';
const PYTHON = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['--version']).status === 0);
const HAS_VENV = PYTHON !== undefined && spawnSync(PYTHON, ['-c', 'import ensurepip, venv']).status === 0;

interface Run {
  code: number | null;
  out: string;
}

function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((r) => child.on('close', (code) => r({ code, out })));
}

/**
 * The local (file://) package indexes pip's configuration names (the global, XDG and user
 * pip.conf files and PIP_INDEX_URL / PIP_EXTRA_INDEX_URL), read without running pip. pip then uses
 * only those, so it never waits on an unreachable PyPI.
 */
function localIndexes(): string[] {
  const files = ['/etc/pip.conf', '/etc/xdg/pip/pip.conf', join(homedir(), '.config', 'pip', 'pip.conf'), join(homedir(), '.pip', 'pip.conf')];
  const text = [...files.filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8')), `index-url = ${process.env.PIP_INDEX_URL ?? ''}`, `extra-index-url = ${process.env.PIP_EXTRA_INDEX_URL ?? ''}`].join('\n');
  return [...text.matchAll(/^\s*(?:extra-)?index-url\s*=\s*(.*)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/)).filter((u) => u.startsWith('file://'));
}
const INDEXES = localIndexes();
/** Whether a local index holds what the extras need (gymnasium, transformers). */
const HAS_INDEX = ['gymnasium', 'transformers'].every((name) => INDEXES.some((u) => existsSync(join(fileURLToPath(u), name))));
const indexArgs = (): string[] => (INDEXES.length ? ['--index-url', INDEXES[0]!, ...INDEXES.slice(1).flatMap((u) => ['--extra-index-url', u])] : []);

const servers: RlServer[] = [];
let splat: RlServer;
let kinds: RlServer;
let venvPython: string | undefined;
let install: Run | undefined;

beforeAll(async () => {
  if (!PYTHON) return;
  const { tasksDir, grader } = await testTasks();
  const logDir = mkdtempSync(join(tmpdir(), 'splatlab-py-'));
  splat = await startRlServer({ tasksDir, grader: async () => grader, logDir, version: '0' }, { token: TOKEN });
  kinds = await startRlServer({ tasksDir: COMMITTED, grader: async () => grader, logDir, version: '0' }, { token: TOKEN });
  servers.push(splat, kinds);
  if (!HAS_VENV || !HAS_INDEX) return;
  const dir = mkdtempSync(join(tmpdir(), 'splatlab-venv-'));
  cpSync(join(ROOT, 'python'), join(dir, 'pkg'), { recursive: true, filter: (p) => !/(build|\.egg-info|__pycache__)$/.test(p) });
  const made = await run(PYTHON!, ['-m', 'venv', join(dir, 'venv')]);
  if (made.code !== 0) {
    install = made;
    return;
  }
  const py = join(dir, 'venv', 'bin', 'python');
  // --no-compile: pip would byte-compile every module of every package (transformers' thousands) at
  // install, about half its CPU time; the checks compile the few they import when they import them.
  install = await run(py, ['-m', 'pip', 'install', '--quiet', '--no-compile', '--retries', '1', '--timeout', '30', ...indexArgs(), `${join(dir, 'pkg')}[gym,trl]`]);
  if (install.code === 0) venvPython = py;
}, 300_000);
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('the Python package', () => {
  it.skipIf(skipWithout('python3', PYTHON !== undefined))('core, standard library only: the RL client, families, the Inspect parts', async () => {
    expect(PYTHON, 'python3').toBeDefined();
    const r = await run(PYTHON!, ['-s', join(TESTS, 'check_core.py'), kinds.url, TOKEN], { PYTHONPATH: join(ROOT, 'python', 'src') });
    expect(r.out).toContain('the standard-library core passes');
    expect(r.code).toBe(0);
  }, 300_000);

  it.skipIf(skipWithout('venv', HAS_VENV) || skipWithout('pipIndex', HAS_INDEX))('installs with its gym and trl extras into a fresh venv', () => {
    expect(install?.code, install?.out.split('\n').filter((l) => !/is ignored/.test(l)).slice(-20).join('\n')).toBe(0);
  });

  const families = [
    ['splatbench', 'test__sculpt'],
    ['search', 'search__room-10__color-1-1'],
    ['relation', 'relation__bridge__trash_bin-bike__allo'],
  ] as const;
  it.skipIf(skipWithout('venv', HAS_VENV) || skipWithout('pipIndex', HAS_INDEX)).each(families)('gymnasium check_env passes (%s)', async (family, taskId) => {
    expect(venvPython, 'the venv with the gym extra').toBeDefined();
    const url = family === 'splatbench' ? splat.url : kinds.url;
    const r = await run(venvPython!, [join(TESTS, 'check_gym.py'), url, TOKEN, family, taskId]);
    expect(r.out).toContain(`the ${family} gymnasium env passes`);
    expect(r.code).toBe(0);
  }, 300_000);

  it.skipIf(skipWithout('venv', HAS_VENV) || skipWithout('pipIndex', HAS_INDEX))('TRL environment_factory: get_json_schema on every tool, a scripted rollout, the training reward', async () => {
    expect(venvPython, 'the venv with the trl extra').toBeDefined();
    const r = await run(venvPython!, [join(TESTS, 'check_trl.py'), 'test__sculpt'], { SPLATLAB_RL_URL: splat.url, SPLATLAB_RL_TOKEN: TOKEN });
    expect(r.out).toContain('the TRL environment passes');
    expect(r.code).toBe(0);
  }, 300_000);

  it.skipIf(skipWithout('venv', HAS_VENV) || skipWithout('pipIndex', HAS_INDEX))('runs the python examples of docs/AGENTS.md as written', async () => {
    expect(venvPython, 'the venv with the gym and trl extras').toBeDefined();
    const doc = readFileSync(join(ROOT, 'docs', 'AGENTS.md'), 'utf8');
    const section = doc.split('## Python: the splatlab package')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-doc-'));
    for (const [i, code] of blocks.entries()) {
      const file = join(dir, `example${i}.py`);
      writeFileSync(file, code);
      const r = await run(venvPython!, [file], { SPLATLAB_RL_URL: kinds.url, SPLATLAB_RL_TOKEN: TOKEN });
      expect(r.code, `docs/AGENTS.md python block ${i}:\n${code}\n${r.out}`).toBe(0);
    }
  }, 300_000);
});
