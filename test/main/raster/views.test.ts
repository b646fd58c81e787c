// The lab's renderer of search observations (src/main/raster/views.ts): without a hardware GPU it
// is the tile rasterizer on the lab's worker pool, bit for bit the image renderView computes on
// the calling thread (what the CLI, the baselines and the goal images use) and within 1e-5 of the
// dense reference; a search episode of a lab context renders its observations there (the same
// PNG bytes as an episode without the lab), and so do the lab's MCP sessions; a GPU that fails a
// view hands over to the CPU path.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GpuContext } from '../../../src/main/gpu/device';
import { loadAnyTask, mainKind } from '../../../src/main/kinds/registry';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpSession } from '../../../src/main/mcp/session';
import { labViews } from '../../../src/main/raster/views';
import { createLabContext } from '../../../src/main/services/context';
import { WorkerPool } from '../../../src/main/workers/pool';
import { rasterizeForward } from '../../../src/shared/raster/cpu';
import type { GpuRasterizer } from '../../../src/shared/raster/gpu';
import { generateRoom } from '../../../src/shared/kinds/search/generate-room';
import { poseCamera } from '../../../src/shared/kinds/search/pose';
import { renderView } from '../../../src/shared/kinds/search/render';
import { splatRoom } from '../../../src/shared/kinds/search/splat-room';
import { emptyRoom, target } from '../../shared/kinds/search/rooms';

const cpu: GpuContext = { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: 'no adapter' } };

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('labViews', () => {
  const pool = new WorkerPool({ size: 1, splitSize: 2 });
  afterAll(() => pool.close());

  it('renders a generated room on the pool bit for bit as renderView does here, within 1e-5 of the reference (rasterizeForward, the dense image)', async () => {
    const views = labViews({ gpu: cpu, pool, gpuRasterizer: () => null });
    expect(views.on).toBe('the CPU tile rasterizer on 2 worker threads');
    const room = generateRoom(1);
    const splats = splatRoom(room);
    const pose = { x: room.size[0] / 2, y: 0.4, z: 1.5, yaw: 90, pitch: -30 };
    const camera = poseCamera(pose, 512, 90);
    const lab = await views.render(splats, camera);
    const here = renderView(splats, pose);
    expect(maxDiff(lab.rgb, here.rgb)).toBe(0);
    expect(maxDiff(lab.alpha, here.alpha)).toBe(0);
    expect(maxDiff(lab.rgb, rasterizeForward(splats, camera).rgb)).toBeLessThanOrEqual(1e-5);
    views.destroy();
  }, 60_000);

  it('hands a view the GPU failed to the CPU path and says so from then on', async () => {
    const calls: string[] = [];
    const broken = { forward: async () => (calls.push('gpu'), Promise.reject(new Error('device lost\nstack'))) } as unknown as GpuRasterizer;
    const hardware: GpuContext = { device: {} as GPUDevice, status: { ...cpu.status, path: 'hardware', summary: 'Test GPU.' } };
    const views = labViews({ gpu: hardware, pool, gpuRasterizer: () => broken });
    expect(views.on).toBe('the GPU rasterizer (Test GPU)');
    const room = generateRoom(2);
    const splats = splatRoom(room);
    const pose = { x: room.size[0] / 2, y: room.size[1] / 2, z: 1.4, yaw: 0, pitch: 0 };
    const out = await views.render(splats, poseCamera(pose, 64, 90));
    expect(maxDiff(out.rgb, renderView(splats, pose, undefined, 64).rgb)).toBe(0);
    expect(views.on).toBe('the CPU tile rasterizer on 2 worker threads (the GPU failed a view: device lost)');
    await views.render(splats, poseCamera(pose, 64, 90));
    expect(calls).toEqual(['gpu']);
  }, 60_000);
});

describe('search observations in a lab context', () => {
  it('are rendered by the lab views: the same PNG bytes as an episode on the calling thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-views-'));
    mkdirSync(join(dir, 'rooms'));
    writeFileSync(join(dir, 'rooms', 'test-room.json'), JSON.stringify(emptyRoom([target('cube-1', [3, 2, 1], 0.2)])));
    const pose = { x: 2, y: 2, z: 1, yaw: 0, pitch: 0 };
    writeFileSync(join(dir, 'search__v1.json'), JSON.stringify({
      task_id: 'search__v1', kind: 'search', room: 'rooms/test-room.json',
      question: { id: 'test-room/color-1', family: 'color', text: 'What colour is the cube?', answer: { type: 'text', correct: 'red', synonyms: [] }, needs: ['cube-1'] },
      start: { ...pose, yaw: 180 }, goal: pose, answerable: [pose], distance: 6,
    }));
    const ctx = createLabContext({ gpu: cpu, tasksDir: dir, home: join(dir, 'home'), version: '0', transport: 'direct', listTasks: async () => [], poolSize: 1 });
    try {
      // The episode manager of the context renders the first view of an episode on the lab's pool.
      expect(ctx.pool.stats().started).toBe(0);
      await ctx.episodes.start({ taskId: 'search__v1', logPath: join(dir, 'home', 'run.jsonl') });
      expect(ctx.pool.stats().started).toBeGreaterThan(0);
      const seen: string[] = [];
      const views = (splats: Parameters<typeof ctx.views.render>[0], camera: Parameters<typeof ctx.views.render>[1]) => (seen.push('lab'), ctx.views.render(splats, camera));
      const task = await loadAnyTask('search__v1', { tasksDir: dir });
      const labEnv = await mainKind(task).reset(task, { grader: undefined as never, viewRenderer: views });
      const plain = await mainKind(task).reset(task, { grader: undefined as never });
      expect(Buffer.from(labEnv.obs.image as Uint8Array).equals(Buffer.from(plain.obs.image as Uint8Array))).toBe(true);
      const a = await labEnv.env.step({ tool: 'turn_left' });
      const b = await plain.env.step({ tool: 'turn_left' });
      expect(Buffer.from(a.image as Uint8Array).equals(Buffer.from(b.image as Uint8Array))).toBe(true);
      expect(seen).toEqual(['lab', 'lab']);
      // An MCP session of `serve --mcp` gets the lab's views too (and so renders on its pool).
      const session = createMcpSession({ tasksDir: dir, grader: async () => undefined as never, logDir: join(dir, 'agents'), version: '0', viewRenderer: views });
      const client = new Client({ name: 'views-test', version: '1' });
      const [a1, a2] = InMemoryTransport.createLinkedPair();
      await Promise.all([session.server.connect(a2), client.connect(a1)]);
      const started = (await client.callTool({ name: 'start_episode', arguments: { task_id: 'search__v1' } })) as CallToolResult;
      expect(started.content.map((c) => c.type)).toEqual(['text', 'image']);
      expect(seen).toEqual(['lab', 'lab', 'lab']);
      await client.close();
      await Promise.all([labEnv.env.close(), plain.env.close()]);
    } finally {
      await ctx.close();
    }
  }, 60_000);
});
