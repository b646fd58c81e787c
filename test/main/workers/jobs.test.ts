// The lab's heavy work as worker-pool jobs gives what the main thread gives: author previews (the
// CPU ray cast), large trajectory logs parsed on a worker, a study archive zipped on a worker, a
// view folder's photos written and read back (and the lab's task loads decoding there), and the
// context closing its pool.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import type { AuthorObject } from '../../../src/shared/api/author';
import { raycastObject } from '../../../src/shared/authoring/raycast';
import type { ProceduralObject } from '../../../src/shared/authoring/primitives';
import { imageDataUrl } from '../../../src/main/authoring/session/photos';
import { namedCamera } from '../../../src/main/authoring/session/session';
import { parseTrajectory } from '../../../src/main/env/trajectory';
import { createAuthorHandlers } from '../../../src/main/services/author';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { OFF_LOOP_TRAJECTORY_CHARS, trajectoryParser } from '../../../src/main/env/trajectory-pool';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { loadTask, readViews, type LoadedTask } from '../../../src/main/tasks/load';
import { poolViewFiles, writeViews, type PhotoView } from '../../../src/main/tasks/view-files';
import { repoRoot } from '../../../src/main/io/data-dir';

const cpu = { device: null, status: { path: 'cpu' as const, vendor: '', architecture: '', description: '', summary: 'CPU test mode' } };
const lab = () => createLabContext({ gpu: cpu, tasksDir: mkdtempSync(join(tmpdir(), 'splatlab-pool-tasks-')), home: mkdtempSync(join(tmpdir(), 'splatlab-pool-home-')), version: '0', transport: 'direct', listTasks: async () => [], poolSize: 1 });

const object: AuthorObject = {
  name: 'cap',
  parts: [
    { kind: 'cylinder', pos: [0, 0, -0.3], size: { radius: 0.3, height: 0.3 }, color: '#3a3f4b' },
    { kind: 'sphere', pos: [0, 0, 0.2], size: 0.3, color: '#e8c547' },
  ],
};

function logText(steps: number): string {
  const lines = [JSON.stringify({ type: 'header', task: 't', protocol: 'agent', player: 'p', versions: { splatlab: '0', format: 1, node: 'v' }, started: '2026-12-01T00:00:00Z', kind: 'sculpt', budgets: { max_gaussians: 1, max_tool_calls: 1, max_renders: 1 } })];
  for (let i = 0; i < steps; i++) lines.push(JSON.stringify({ step: i, tool: 'add_gaussians', args: { n: i }, text: 'ok', t: '2026-12-01T00:00:00Z', ms: 1, ok: true }));
  // Hidden grades arrive late and out of order; each lands on its own step.
  for (let i = steps - 1; i >= 0; i -= 2) lines.push(JSON.stringify({ type: 'hidden', step: i, hidden: { score: i, psnr: 1, ssim: 1, lpips: null, iou: 1 } }));
  return `${lines.join('\n')}\n`;
}

/** Two small views with every pixel different (so a lost or swapped channel shows). */
function someViews(): { views: PhotoView[]; entries: { name: string; camera: ReturnType<typeof orbitCamera> }[] } {
  const size = 24;
  const views = ['V0', 'V1'].map((name, v) => ({
    name,
    photo: { width: size, height: size, data: Float32Array.from({ length: size * size * 3 }, (_, i) => ((i * 37 + v * 11) % 256) / 255) },
    mask: Float32Array.from({ length: size * size }, (_, i) => ((i * 13 + v) % 256) / 255),
  }));
  return { views, entries: views.map((v, i) => ({ name: v.name, camera: orbitCamera({ azimuth: 90 * i, elevation: 20, width: size, height: size }) })) };
}

describe('jobs on the pool', () => {
  it("a view folder's photos written and read back on the pool (views.write, views.read) are the main thread's, refusals too", async () => {
    const ctx = lab();
    try {
      const { views, entries } = someViews();
      const onPool = poolViewFiles(ctx.pool, 'test');
      const there = mkdtempSync(join(tmpdir(), 'splatlab-views-pool-'));
      const here = mkdtempSync(join(tmpdir(), 'splatlab-views-here-'));
      await onPool.write(there, 'ref', views);
      writeViews(here, 'ref', views);
      for (const f of ['V0.png', 'V0_mask.png', 'V1.png', 'V1_mask.png']) expect(readFileSync(join(there, 'ref', f)).equals(readFileSync(join(here, 'ref', f)))).toBe(true);
      const read = await onPool.read(there, 'ref', entries, 'test');
      expect(read).toEqual(readViews(here, 'ref', entries, 'test'));
      expect(read[1].photo.data[5]).toBeCloseTo(views[1].photo.data[5], 2);
      rmSync(join(there, 'ref', 'V1.png'));
      rmSync(join(here, 'ref', 'V1.png'));
      const refused = (f: () => unknown): string => {
        try {
          f();
        } catch (e) {
          return (e as Error).message.replace(here, 'DIR');
        }
        return 'not refused';
      };
      await expect(onPool.read(there, 'ref', entries, 'test')).rejects.toThrow(refused(() => readViews(here, 'ref', entries, 'test')).replace('DIR', there));
    } finally {
      await ctx.close();
    }
  });

  it("the lab's task repository decodes a task's photos on the pool, the same task as loadTask here", async () => {
    const tasksDir = join(repoRoot(), 'tasks');
    const ctx = createLabContext({ gpu: cpu, tasksDir, home: mkdtempSync(join(tmpdir(), 'splatlab-pool-home-')), version: '0', transport: 'direct', listTasks: async () => [], poolSize: 1 });
    try {
      const run = vi.spyOn(ctx.pool, 'run');
      const task = await ctx.tasks.get('mushroom__sculpt');
      expect(run.mock.calls.map((c) => c[0])).toEqual(['views.read', 'views.read']);
      // Pixels as digests: a deep equality over 32 photos of 256x256, element by element, takes minutes.
      const bytes = (a: Float32Array): string => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');
      const flat = (t: LoadedTask) => ({ ...t, reference: t.reference.map((v) => ({ ...v, photo: bytes(v.photo.data), mask: bytes(v.mask) })), heldout: t.heldout.map((v) => ({ ...v, photo: bytes(v.photo.data), mask: bytes(v.mask) })) });
      expect(flat(task)).toEqual(flat(await loadTask('mushroom__sculpt', { tasksDir })));
    } finally {
      await ctx.close();
    }
  });

  it("a study archive's zip (job archive.zip) is the main thread's zipSync, byte for byte", async () => {
    const ctx = lab();
    try {
      const mtime = new Date('2026-12-05T00:00:00Z');
      const members = (): Zippable => ({ 's/log.jsonl': [new TextEncoder().encode(logText(200)), { level: 6, mtime }], 's/photo.png': [new Uint8Array(4096).fill(7), { level: 0, mtime }] });
      const zipped = await ctx.pool.run('archive.zip', members(), { client: 'test' });
      expect(Buffer.from(zipped).equals(Buffer.from(zipSync(members())))).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it("author.preview's CPU ray cast and PNG encoding run on the pool and equal the main thread's", async () => {
    const ctx = lab();
    try {
      const handlers = createAuthorHandlers(ctx);
      const run = vi.spyOn(ctx.pool, 'run');
      const out = await dispatchCall(handlers as never, 'author.preview', { object, view: 'V1', samples: 1 });
      expect(out.ok).toBe(true);
      const camera = namedCamera('V1');
      if (!camera) throw new Error('no V1');
      const here = imageDataUrl(raycastObject(object as ProceduralObject, camera, { samples: 1 }).rgb);
      expect(out.ok && (out.result as { image: string }).image).toBe(here);
      expect(run.mock.calls.map((c) => c[0])).toEqual(['author.raycast', 'image.png']);
    } finally {
      await ctx.close();
    }
  });

  it('parses a large trajectory on a worker, the same as here; small ones stay here', async () => {
    const ctx = lab();
    try {
      const run = vi.spyOn(ctx.pool, 'run');
      const parse = trajectoryParser(ctx.pool, 'client');
      const big = logText(3000);
      expect(big.length).toBeGreaterThan(OFF_LOOP_TRAJECTORY_CHARS);
      const there = await parse(big);
      expect(there).toEqual(parseTrajectory(big));
      expect(there.steps[2999].hidden?.score).toBe(2999);
      expect(there.steps[2998].hidden).toBeUndefined();
      expect(run).toHaveBeenCalledTimes(1);
      await parse(logText(3));
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      await ctx.close();
    }
    // Closed with its context: nothing runs there any more.
    await expect(ctx.pool.run('probe.echo', { value: 1 }, { client: 'a' })).rejects.toThrow(/closed/);
  });
});
