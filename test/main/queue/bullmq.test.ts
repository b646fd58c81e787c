// 40 episodes as a BullMQ flow on a private redis-server with two worker processes; one worker
// is killed mid-run; the run completes with each episode finished exactly once (one end record,
// contiguous steps), the taken-over episode reported resumed in the run's aggregate (issue 37), and
// running the same command again enqueues nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { command } from '../../../src/main/cli/commands/eval';
import { lockPathOf } from '../../../src/main/env/log-lock';
import { lockHolder } from '../../../src/main/io/process-lock';
import { testTasks } from '../env/fixtures';
import { hasRedis, startRedis } from './redis';
import { skipWithout } from '../../helpers/optional';

const children: ChildProcess[] = [];
let stopRedis: (() => void) | undefined;
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  stopRedis?.();
});

function logs(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && e.name.endsWith('.jsonl')) out.push(join(e.parentPath, e.name));
  return out.sort();
}

/** True when `pid` holds the claim of an episode whose log has steps but no end: killing it now interrupts that episode. */
function midEpisode(dir: string, pid: number | undefined): boolean {
  return logs(dir).some((f) => {
    const text = readFileSync(f, 'utf8');
    return text.includes('"step":') && !text.includes('"type":"end"') && lockHolder(`${lockPathOf(f)}.episode`) === pid;
  });
}

function worker(url: string, tasksDir: string, output: string[]): ChildProcess {
  const c = spawn(process.execPath, [resolve('src/main/cli/splatlab.mjs'), 'eval', '--queue', url, '--worker', '--concurrency', '2', '--lock-ms', '1500', '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(c);
  // Kept for the failure message: what a worker said tells why it did or did not take episodes.
  c.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  c.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  return c;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.skipIf(skipWithout('redis', hasRedis))('eval on BullMQ', () => {
  it('runs 40 episodes on two workers, survives a killed worker, and a rerun does nothing new', async () => {
    const { tasksDir } = await testTasks();
    const redis = await startRedis();
    stopRedis = redis.stop;
    const results = mkdtempSync(join(tmpdir(), 'splatlab-bull-'));
    const said: string[] = [];
    const a = worker(redis.url, tasksDir, said);
    const argv = ['--model', 'scripted:slow', '--tasks', 'test__sculpt,test__reassembly', '--runs', '20', '--queue', redis.url, '--results', results, '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'];
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    let finished = false;
    const run = command.run(argv, io).finally(() => (finished = true));
    // Worker a starts alone, so it is inside an episode before worker b exists (on a loaded machine
    // a worker can take seconds to start, and b could otherwise play every episode); then b joins
    // and a is killed the next time it is seen inside an episode, so the run must resume a log.
    let killedMidEpisode = false;
    const killer = (async () => {
      while (!finished && !midEpisode(results, a.pid)) await pause(25);
      worker(redis.url, tasksDir, said);
      while (!finished && !midEpisode(results, a.pid)) await pause(25);
      killedMidEpisode = !finished;
      a.kill('SIGKILL');
    })();
    expect(await run).toBe(0);
    await killer;
    expect(a.signalCode).toBe('SIGKILL');
    expect(killedMidEpisode, `worker a was never seen inside an episode; the workers said:\n${said.join('').slice(-2000)}`).toBe(true);

    const files = logs(results);
    expect(files).toHaveLength(40);
    let resumed = 0;
    for (const f of files) {
      const records = readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type?: string; step?: number });
      expect(records.filter((r) => r.type === 'end')).toHaveLength(1);
      const steps = records.filter((r) => r.step !== undefined).map((r) => r.step);
      expect(steps).toEqual(steps.map((_, i) => i));
      const meta = JSON.parse(readFileSync(f.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as { status: string; attempts: number };
      expect(meta.status).toBe('done');
      if (meta.attempts > 1) resumed += 1;
    }
    expect(resumed, `no log was resumed; the workers said:\n${said.join('').slice(-2000)}`).toBeGreaterThan(0);
    const summary = readdirSync(join(results, 'runs'));
    expect(summary).toHaveLength(1);
    const agg = JSON.parse(readFileSync(join(results, 'runs', summary[0]), 'utf8')) as { episodes: { jobId: string; skipped: boolean; resumed: boolean; attempts: number }[] };
    expect(new Set(agg.episodes.map((e) => e.jobId)).size).toBe(40);
    // The killed worker's episode was taken over: reported resumed (its second attempt), never skipped.
    expect(agg.episodes.filter((e) => e.skipped)).toEqual([]);
    const taken = agg.episodes.filter((e) => e.attempts > 1);
    expect(taken.length).toBeGreaterThan(0);
    for (const e of taken) expect(e, JSON.stringify(e)).toMatchObject({ resumed: true });
    // Without noise: BullMQ's own lock messages never reach the output, a lapsed lock is one line per job and worker.
    const told = said.join('').split('\n').filter((l) => /lock/i.test(l));
    expect(told.filter((l) => /could not renew|Lock mismatch|Missing lock/.test(l))).toEqual([]);
    for (const e of agg.episodes) expect(told.filter((l) => l.includes(`${e.jobId} `)).length, told.join('\n')).toBeLessThanOrEqual(2);

    const before = files.map((f) => statSync(f).mtimeMs);
    const again: string[] = [];
    expect(await command.run(argv, { out: (l) => again.push(l), err: (l) => again.push(l) })).toBe(0);
    expect(again.join('\n')).toContain('40 finished');
    expect(again.join('\n')).toContain('nothing to do');
    expect(logs(results).map((f) => statSync(f).mtimeMs)).toEqual(before);
  }, 120_000);
});
