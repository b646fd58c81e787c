// Every resource has an owner (docs/DESIGN.md, "Composition root"): across 20 episodes, a task
// whose files change, and 10 debugger tabs opened and closed, the live GPU buffers, the live
// episodes and the debugger sessions of one lab context stay flat; the context holds one grader.
// The GPU half runs on a real WebGPU device (SwiftShader here) and skips cleanly without one.
import { mkdtempSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { Grader } from '../../../src/main/grader/grader';
import { Connection } from '../../../src/main/services/connection';
import { createLabContext, type LabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices } from '../../../src/main/services/lab';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { DebugSession } from '../../../src/shared/api/debug';
import { testDevice } from '../../helpers/gpu';
import { testTasks } from '../env/fixtures';
import { skipWithout } from '../../helpers/optional';

const gpuDevice = await testDevice();

/** Counts buffers created on `device` and not yet destroyed. */
function countBuffers(device: GPUDevice): { live: () => number } {
  const live = new Set<GPUBuffer>();
  const create = device.createBuffer.bind(device);
  device.createBuffer = (desc: GPUBufferDescriptor): GPUBuffer => {
    const b = create(desc);
    live.add(b);
    const destroy = b.destroy.bind(b);
    b.destroy = (): undefined => {
      live.delete(b);
      return destroy();
    };
    return b;
  };
  return { live: () => live.size };
}

async function play(ctx: LabContext, handlers: ReturnType<typeof createLabServices>['handlers'], n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const s = (await dispatchCall(handlers, 'episode.start', { taskId: 'test__sculpt' })) as { ok: true; result: EpisodeSnapshot };
    expect(s.ok).toBe(true);
    await dispatchCall(handlers, 'episode.step', { episodeId: s.result.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0.1 * (i % 5)], color: '#ff0000' }] } });
    expect((await dispatchCall(handlers, 'episode.close', { episodeId: s.result.episodeId })).ok).toBe(true);
  }
  // Deferred hidden grades finish (and land in their logs) before a closed episode lets go.
  await ctx.episodes.idle();
  expect(ctx.episodes.liveCount).toBe(0);
}

async function tabs(ctx: LabContext, handlers: ReturnType<typeof createLabServices>['handlers'], n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const tab = new Connection();
    const opened = await dispatchCall(handlers, 'debug.open', { source: { kind: 'task', taskId: 'test__sculpt', scene: 'fit' } }, tab);
    expect(opened.ok).toBe(true);
    const id = (opened as { ok: true; result: DebugSession }).result.sessionId;
    await dispatchCall(handlers, 'debug.view', { sessionId: id, camera: { kind: 'named', name: 'V0' }, view: 'rgb' }, tab);
    expect(ctx.debugSessions.size).toBe(1);
    tab.close();
    expect(ctx.debugSessions.size).toBe(0);
  }
}

describe('resources have owners', () => {
  it('episodes and debugger sessions stay flat on the CPU path; tasks are loaded once', async () => {
    const { tasksDir, grader } = await testTasks();
    const home = mkdtempSync(join(tmpdir(), 'splatlab-owners-'));
    let graders = 0;
    const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', grader: async () => (graders++, grader) });
    const { handlers } = createLabServices(ctx);
    await play(ctx, handlers, 20);
    // Closing right after a call loses no deferred grade: every scene change has its hidden record.
    const logs = readdirSync(join(home, 'trajectories')).filter((f) => f.endsWith('.jsonl'));
    expect(logs).toHaveLength(20);
    for (const f of logs) {
      const changed = readTrajectory(join(home, 'trajectories', f)).steps.filter((x) => x.state !== undefined);
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.every((x) => x.hidden !== undefined)).toBe(true);
    }
    await tabs(ctx, handlers, 10);
    expect(ctx.tasks.size).toBe(1);
    const a = await ctx.tasks.get('test__sculpt');
    expect(await ctx.tasks.get('test__sculpt')).toBe(a);
    expect(graders).toBeGreaterThan(0);
  });

  it.skipIf(skipWithout('gpu', gpuDevice !== null))('GPU buffers stay flat across 20 episodes, a changed task and 10 debugger tabs', async () => {
    if (!gpuDevice) return;
    const { tasksDir } = await testTasks();
    const home = mkdtempSync(join(tmpdir(), 'splatlab-owners-gpu-'));
    const buffers = countBuffers(gpuDevice);
    const status = { path: 'hardware' as const, vendor: '', architecture: '', description: '', summary: 'test device' };
    let made = 0;
    let grader: Promise<Grader> | undefined;
    const ctx = createLabContext({
      gpu: { device: gpuDevice, status },
      tasksDir,
      home,
      version: '0',
      transport: 'direct',
      grader: () => (grader ??= (made++, Grader.create({ device: gpuDevice, lpipsDir: null }))),
    });
    const { handlers } = createLabServices(ctx);
    await play(ctx, handlers, 2);
    const afterWarmup = buffers.live();
    const photos = (await ctx.grader()).gpuPhotoCount;
    expect(photos).toBe(8);
    await play(ctx, handlers, 18);
    expect(buffers.live()).toBe(afterWarmup);
    // The task's files change (a refit): it is reloaded and its old photos leave the device.
    const spec = join(tasksDir, 'test__sculpt.json');
    const later = new Date(Date.now() + 5000);
    utimesSync(spec, later, later);
    await play(ctx, handlers, 2);
    expect((await ctx.grader()).gpuPhotoCount).toBe(photos);
    expect(buffers.live()).toBe(afterWarmup);
    await tabs(ctx, handlers, 10);
    const afterTabs = buffers.live();
    await tabs(ctx, handlers, 2);
    expect(buffers.live()).toBe(afterTabs);
    expect(made).toBe(1);
    await ctx.close();
  });
});
