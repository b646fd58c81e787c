// Child processes end with their parent, through npx itself: `npx splatlab rl ...` runs the CLI
// as npm exec -> `sh -c` -> node; killing npx with SIGKILL signals neither child and leaves the
// shell in place, so the server must notice that the process that started its shell is gone.
// Also the links the watch follows (parentLinks) over a made-up process table.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parentLinks } from '../../../src/main/cli/orphan';

const ROOT = resolve(__dirname, '../../..');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process table as (pid, ppid, argv) from /proc. */
function table(): { pid: number; ppid: number; argv: string[] }[] {
  const out: { pid: number; ppid: number; argv: string[] }[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.push({ pid: Number(name), ppid, argv: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Descendants of a process (children first). */
function descendants(root: number): { pid: number; argv: string[] }[] {
  const all = table();
  const out: { pid: number; argv: string[] }[] = [];
  const walk = (p: number): void => {
    for (const c of all.filter((x) => x.ppid === p)) {
      out.push(c);
      walk(c.pid);
    }
  };
  walk(root);
  return out;
}

describe('parentLinks', () => {
  it('follows script shells up to the process that started them', () => {
    const procs: Record<number, { ppid: number; argv: string[] }> = {
      20: { ppid: 10, argv: ['sh', '-c', 'splatlab rl'] },
      10: { ppid: 5, argv: ['npm exec splatlab rl'] },
    };
    expect(parentLinks(30, 20, (p) => procs[p] ?? null)).toEqual([{ child: 30, parent: 20 }, { child: 20, parent: 10 }]);
    // A parent that is not a script shell is the only link.
    expect(parentLinks(30, 10, (p) => procs[p] ?? null)).toEqual([{ child: 30, parent: 10 }]);
    // Without /proc: the parent only.
    expect(parentLinks(30, 20, () => null)).toEqual([{ child: 30, parent: 20 }]);
  });
});

describe.skipIf(process.platform !== 'linux')('a CLI server started with npx', () => {
  it('exits when npx is killed', async () => {
    const npx = spawn('npx', ['--offline', 'splatlab', 'rl', '--port', '0', '--token', 't', '--device', 'cpu', '--tasks', resolve(ROOT, 'tasks')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SPLATLAB_DETACHED: '' },
    });
    let log = '';
    await new Promise<void>((res, rej) => {
      const on = (d: Buffer): void => {
        log += String(d);
        if (log.includes('RL protocol at')) res();
      };
      npx.stdout.on('data', on);
      npx.stderr.on('data', on);
      npx.once('exit', (code) => rej(new Error(`npx exited with ${code}:\n${log}`)));
    });
    const tree = descendants(npx.pid as number);
    const server = tree.find((p) => p.argv.some((a) => a.endsWith('splatlab') || a.endsWith('splatlab.mjs')) && p.argv.includes('rl') && !p.argv[0].endsWith('sh'));
    expect(server, JSON.stringify(tree)).toBeDefined();
    const pids = tree.map((p) => p.pid);
    npx.kill('SIGKILL');
    // Poll until the server (and the shell between) are gone; the watch polls once a second.
    for (let i = 0; i < 600 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    const left = pids.filter(alive);
    for (const p of left) process.kill(p, 'SIGKILL');
    expect(left).toEqual([]);
  }, 120_000);
});
