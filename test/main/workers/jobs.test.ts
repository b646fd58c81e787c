// The lab's heavy work as worker-pool jobs gives what the main thread gives: author previews (the
// CPU ray cast), large trajectory logs parsed on a worker, a study archive zipped on a worker, and
// the context closing its pool.
import { mkdtempSync } from 'node:fs';
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

describe('jobs on the pool', () => {
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

  it("author.preview's CPU ray cast runs on the pool and equals the main thread's", async () => {
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
      expect(run.mock.calls.map((c) => c[0])).toEqual(['author.raycast']);
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
