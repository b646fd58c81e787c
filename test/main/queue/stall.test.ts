// BullMQ without duplicates (issue 29 item 4): a run on a private redis-server with two worker
// processes, one of which stalls (holds its event loop past the job lock while it starts an
// episode, as a heavy grade on the event loop did), so BullMQ hands its jobs to the other worker.
// Each episode is still played exactly once: one delivery reports it played (the others find the
// end record: not played; never skipped, which means ended before the job began; the delivery
// that took the job over says resumed), its log has one header, one end record and contiguous steps, and its meta
// counts one attempt (the duplicate delivery never started its own). A lapsed lock is told once
// per job, not at every renewal tick (issue 37).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { parseModelSpec } from '../../../src/main/models/spec';
import { enqueueRun, waitForRun } from '../../../src/main/queue/bullmq';
import { planJobs } from '../../../src/main/queue/plan';
import { testTasks } from '../env/fixtures';
import { hasRedis, startRedis } from './redis';
import { skipWithout } from '../../helpers/optional';
import { childArgs, childEnv } from '../../helpers/child-entry';

const CHILD = join(__dirname, 'stall-worker.ts');
const LOCK_MS = 1000;
const children: ChildProcessWithoutNullStreams[] = [];
let stopRedis: (() => void) | undefined;
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  stopRedis?.();
});

interface Line {
  pid: number;
  jobId?: string;
  skipped?: boolean;
  played?: boolean;
  resumed?: boolean;
  error?: string;
}

function worker(url: string, tasksDir: string, stalls: number, lines: Line[], gate: string): Promise<void> {
  const c = spawn(process.execPath, [...childArgs(CHILD), url, tasksDir, String(LOCK_MS), String(stalls), String(4 * LOCK_MS), gate], { env: childEnv() });
  children.push(c);
  return new Promise((resolve, reject) => {
    createInterface({ input: c.stdout }).on('line', (l) => (l === 'ready' ? resolve() : lines.push(JSON.parse(l) as Line)));
    c.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

describe.skipIf(skipWithout('redis', hasRedis))('BullMQ with a stalled worker', () => {
  it('plays each episode once although the stalled worker\'s jobs are delivered twice', async () => {
    const { tasksDir } = await testTasks();
    const redis = await startRedis();
    stopRedis = redis.stop;
    const results = mkdtempSync(join(tmpdir(), 'splatlab-stall-'));
    const lines: Line[] = [];
    // The stalling worker starts first and alone, so it takes the first jobs; the other joins.
    // Its stalls last until the other is up (the gate file) and then four locks more.
    const gate = join(mkdtempSync(join(tmpdir(), 'splatlab-stall-gate-')), 'second-worker-up');
    await worker(redis.url, tasksDir, 2, lines, gate);
    const jobs = planJobs(['test__sculpt'], parseModelSpec('scripted:slow'), 6, results);
    const parent = await enqueueRun(redis.url, jobs);
    await worker(redis.url, tasksDir, 0, lines, gate);
    writeFileSync(gate, '');
    expect(await waitForRun(redis.url, parent, undefined, 200)).toBe('completed');

    const stalled = children[0].pid;
    const outcomes = lines.filter((l) => l.jobId);
    for (const j of jobs) {
      const mine = outcomes.filter((o) => o.jobId === j.jobId);
      expect(mine.filter((o) => o.played), `${j.jobId}: ${JSON.stringify(mine)}`).toHaveLength(1);
      expect(mine.filter((o) => o.skipped), `${j.jobId}: ${JSON.stringify(mine)}`).toHaveLength(0);
      // A second delivery took the job over: whichever of the two played it, the taker says resumed.
      if (mine.length > 1) expect(mine.some((o) => o.resumed), `${j.jobId}: ${JSON.stringify(mine)}`).toBe(true);
      const records = readFileSync(j.log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type?: string; step?: number });
      expect(records.filter((r) => r.type === 'header')).toHaveLength(1);
      expect(records.filter((r) => r.type === 'end')).toHaveLength(1);
      const steps = records.filter((r) => r.step !== undefined && r.type === undefined).map((r) => r.step);
      expect(steps).toEqual(steps.map((_, i) => i));
      const meta = JSON.parse(readFileSync(j.log.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as { attempts: number; status: string };
      expect(meta).toMatchObject({ attempts: 1, status: 'done' });
    }
    // The simulation did what it says: the stalled worker's jobs were delivered again elsewhere.
    const stalledJobs = new Set(outcomes.filter((o) => o.pid === stalled).map((o) => o.jobId));
    const deliveredTwice = [...stalledJobs].filter((id) => outcomes.filter((o) => o.jobId === id).length > 1);
    expect(deliveredTwice.length).toBeGreaterThan(0);
    // Without noise: each lapsed lock is one line of its worker, whatever the renewal ticks.
    const errors = lines.filter((l) => l.error !== undefined);
    for (const j of jobs) expect(errors.filter((e) => e.pid === stalled && e.error?.includes(j.jobId)).length, JSON.stringify(errors)).toBeLessThanOrEqual(1);
  }, 240_000);
});
