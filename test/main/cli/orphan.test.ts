// Child processes end with their parent: a `splatlab rl` server started by a wrapper (as npx starts
// it) exits on its own once the wrapper is killed with SIGKILL (no signal reaches the server), so
// no server is left running after `npx splatlab ...` is killed.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = resolve(__dirname, '../../../src/main/cli/splatlab.mjs');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a CLI server whose parent dies', () => {
  it('exits instead of running on unseen', async () => {
    // The wrapper starts the server, prints its pid and waits for ever (like npx).
    const wrapper = spawn(process.execPath, ['-e', `
      const { spawn } = require('node:child_process');
      const c = spawn(process.execPath, [${JSON.stringify(CLI)}, 'rl', '--port', '0', '--token', 't', '--device', 'cpu', '--tasks', ${JSON.stringify(resolve(__dirname, '../../../tasks'))}], { stdio: ['ignore', 'pipe', 'inherit'] });
      c.stdout.on('data', (d) => { if (String(d).includes('RL protocol at')) console.log('PID ' + c.pid); });
      setInterval(() => {}, 1000);
    `], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SPLATLAB_DETACHED: '' } });
    const pid = await new Promise<number>((res) => wrapper.stdout.on('data', (d: Buffer) => {
      const m = /PID (\d+)/.exec(String(d));
      if (m) res(Number(m[1]));
    }));
    expect(alive(pid)).toBe(true);
    wrapper.kill('SIGKILL');
    // Poll until the server is gone (the watch polls once a second; a loaded machine may be slower).
    for (let i = 0; i < 600 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    const stillAlive = alive(pid);
    if (stillAlive) process.kill(pid, 'SIGKILL');
    expect(stillAlive).toBe(false);
  }, 120_000);
});
