// What the many-client benchmarks share (clients.bench.ts, loop-delay.bench.ts): the test task
// built at 128x128, percentiles, a timed call, a player that starts an episode and adds one
// Gaussian per call, and a client rendering debugger views in a loop until told to stop.
// Inputs: a live `splatlab serve` (test/main/security/live-server.ts). Outputs: latencies in ms,
// pushed into the caller's arrays. Invariant: every client closes its episode and its socket.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Grader } from '../../src/main/grader/grader';
import { buildTestTask } from '../helpers/test-task';
import type { LiveServer } from '../main/security/live-server';
import { openClient } from '../main/workers/ws-client';

/** add_gaussians calls per player after its episode.start. */
export const CALLS = 12;

/** The test task at 128x128 in a fresh tasks folder (LPIPS off). */
export async function benchTasks(): Promise<string> {
  const grader = await Grader.create({ lpipsDir: null });
  const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-bench-')), 'tasks');
  await buildTestTask(tasksDir, { size: 128, grader });
  return tasksDir;
}

/** The p-quantile of xs (0 for none). */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

export async function timed<T>(work: Promise<T>): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await work;
  return { ms: performance.now() - t0, result };
}

/** One player: episode.start, CALLS add_gaussians, close; the latencies go into adds and starts. */
export async function player(server: LiveServer, adds: number[], starts: number[]): Promise<void> {
  const c = await openClient(server);
  const start = await timed(c.call<{ episodeId: string }>('episode.start', { taskId: 'test__sculpt' }));
  starts.push(start.ms);
  const { episodeId } = start.result;
  for (let i = 0; i < CALLS; i++) {
    const g = { pos: [Math.sin(i) * 0.4, Math.cos(i) * 0.4, 0.1 * (i % 3)], scale: 0.08, color: [0.8, 0.3, 0.2] };
    adds.push((await timed(c.call('episode.step', { episodeId, tool: 'add_gaussians', args: { gaussians: [g] } }))).ms);
  }
  await c.call('episode.close', { episodeId });
  c.close();
}

/** A debugger client rendering size x size views of the test task, a new camera each time (no cached view), until stop.done. */
export async function renderLoop(server: LiveServer, stop: { done: boolean }, renders: number[], size: number, seed = 0): Promise<void> {
  const c = await openClient(server);
  const { sessionId } = await c.call<{ sessionId: string }>('debug.open', { source: { kind: 'task', taskId: 'test__sculpt', scene: 'fit' } });
  for (let i = 0; !stop.done; i++) {
    const camera = { kind: 'orbit', azimuth: seed * 1000 + i * 17, elevation: 20, width: size, height: size };
    renders.push((await timed(c.call('debug.view', { sessionId, camera, view: 'rgb' }))).ms);
  }
  c.close();
}
