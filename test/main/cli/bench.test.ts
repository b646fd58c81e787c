// `splatlab bench`: the raster bench prints the pairing of the lab with the dense peer, the ratio,
// the stage times, the machine and the load, as JSON (a tiny size here; figures live in
// docs/PERFORMANCE.md, never in tests).
import { describe, expect, it } from 'vitest';
import { runCli } from './run';

describe('splatlab bench', () => {
  it('bench raster --json pairs the tile rasterizer with the dense peer and prints the ratio, machine and load', async () => {
    const run = await runCli('bench', ['raster', '--json', '--gaussians', '400', '--size', '48', '--degree', '3', '--reps', '1']);
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(run.out).toHaveLength(1);
    const r = JSON.parse(run.out[0]);
    expect(r.machine.cores).toBeGreaterThan(0);
    expect(typeof r.machine.cpu).toBe('string');
    expect(r.load.before.loadavg).toHaveLength(3);
    expect(r.load.before.uptime).toMatch(/^load average: [\d.]+, [\d.]+, [\d.]+$/);
    expect(r.raster.cases).toHaveLength(1);
    const c = r.raster.cases[0];
    expect([c.gaussians, c.degree, c.width, c.height]).toEqual([400, 3, 48, 48]);
    expect(c.peer.name).toMatch(/dense CPU reference/);
    expect(c.peer.cpuMs).toBeGreaterThan(0);
    expect(c.lab.cpuMs).toBeGreaterThan(0);
    expect(c.ratio).toBeCloseTo(c.peer.cpuMs / c.lab.cpuMs, 6);
    for (const stage of ['project', 'sort', 'bin', 'composite']) expect(c.lab.stagesCpuMs[stage]).toBeGreaterThanOrEqual(0);
    expect(c.visible).toBeGreaterThan(0);
    // Same scene, same camera: the two images agree (float32 output of float64 arithmetic).
    expect(c.maxAbsDiff).toBeLessThan(1e-5);
  });

  it('the peer is skipped where it does not fit, saying why; a bad option is one line', async () => {
    const run = await runCli('bench', ['raster', '--json', '--gaussians', '100000', '--size', '256', '--reps', '1', '--degree', '0']);
    expect(run.code, run.err.join('\n')).toBe(0);
    const c = JSON.parse(run.out[0]).raster.cases[0];
    expect(c.peer).toBeNull();
    expect(c.ratio).toBeNull();
    expect(c.peerSkipped).toMatch(/pixel-Gaussian pairs/);
    const bad = await runCli('bench', ['raster', '--size', 'big']);
    expect(bad.code).toBe(1);
    expect(bad.err).toEqual(['--size must be an integer from 16 to 4096']);
    const unknown = await runCli('bench', ['nosuch']);
    expect(unknown.code).toBe(1);
    expect(unknown.err[0]).toMatch(/^no bench 'nosuch'/);
  });
});
