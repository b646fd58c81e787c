// The Gymnasium-style Python env (docs/examples/splatlab_gym_env.py) passes its conformance check
// (docs/examples/splatlab_env_check.py) against a live RL server, run with Debian's python3
// (standard library only): SplatBench on the test tasks, search and relation on committed tasks.
// Skips when no python3 is installed (CI installs Debian's).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRlServer, type RlServer } from '../../../src/main/eval/rl-http';
import { testTasks } from '../env/fixtures';
import { skipWithout } from '../../helpers/optional';

const PYTHON = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['--version']).status === 0);
const CHECK = resolve(__dirname, '../../../docs/examples/splatlab_env_check.py');
const COMMITTED = resolve(__dirname, '../../../tasks');
const TOKEN = 'gym-token';

const servers: RlServer[] = [];
let splat: RlServer;
let kinds: RlServer;

beforeAll(async () => {
  if (!PYTHON) return;
  const { tasksDir, grader } = await testTasks();
  const logDir = mkdtempSync(join(tmpdir(), 'splatlab-gym-'));
  splat = await startRlServer({ tasksDir, grader: async () => grader, logDir, version: '0' }, { token: TOKEN });
  kinds = await startRlServer({ tasksDir: COMMITTED, grader: async () => grader, logDir, version: '0' }, { token: TOKEN });
  servers.push(splat, kinds);
}, 120_000);
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe.skipIf(skipWithout('python', PYTHON !== undefined))('the Python env', () => {
  it('is a file the docs point at', () => {
    expect(existsSync(CHECK)).toBe(true);
  });

  it.each(['splatbench', 'relation', 'search'])('passes the conformance check (%s)', async (family) => {
    const url = family === 'splatbench' ? splat.url : kinds.url;
    const child = spawn(PYTHON!, [CHECK, '--url', url, '--token', TOKEN, '--family', family], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(out).toContain(`the ${family} env passes the conformance check`);
    expect(code).toBe(0);
    expect(out).not.toMatch(/^FAIL/m);
  }, 600_000);
});
