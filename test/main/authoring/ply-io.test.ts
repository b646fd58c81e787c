import { placedWithWarnings } from '../../../src/main/authoring/session/ply-task';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sceneLimitNotes, trajectoryScene } from '../../../src/main/authoring/ply-io';
import { taskSpecs, writeFit, writeJson } from '../../../src/main/authoring/task-files';
import type { CliCommand } from '../../../src/main/cli/command';
import { command as exportCommand } from '../../../src/main/cli/commands/export';
import { command as importCommand } from '../../../src/main/cli/commands/import';
import { command as scrambleCommand } from '../../../src/main/cli/commands/scramble';
import { parsePly } from '../../../src/shared/authoring/import/ply';
import { parseSceneFile } from '../../../src/shared/scene/input';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const root = mkdtempSync(join(tmpdir(), 'splatlab-ply-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function records(n: number): GaussianRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    pos: [Math.sin(i) * 0.8, Math.cos(i) * 0.8, (i / n) * 1.6 - 0.8],
    scale: [0.02 + (i % 5) * 0.01, 0.03, 0.04],
    quat: [1, 0, 0, 0],
    color: [(i % 7) / 7, 0.5, 1 - (i % 3) / 3],
    opacity: 0.5 + (i % 4) * 0.1,
  }));
}

async function run(cmd: CliCommand, argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await cmd.run(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

/** A tasks folder with just the specs and fit.json of one object (enough for export and scramble). */
function miniTasks(): string {
  const dir = join(root, 'tasks');
  mkdirSync(join(dir, 'objects', 'blob'), { recursive: true });
  for (const s of taskSpecs('blob')) writeJson(join(dir, `${s.task_id}.json`), s);
  writeFit(join(dir, 'objects', 'blob'), records(40));
  return dir;
}

describe('ply CLI', () => {
  const tasksDir = miniTasks();

  it('exports a task fit and imports it back as a scene file', async () => {
    const ply = join(root, 'fit.ply');
    const exp = await run(exportCommand, ['ply', '--task', 'blob__sculpt', '--fit', '--out', ply, '--tasks-dir', tasksDir]);
    expect(exp).toMatchObject({ code: 0, out: [`wrote 40 Gaussians to ${ply}`] });
    expect(parsePly(new Uint8Array(readFileSync(ply))).records).toHaveLength(40);
    const scene = join(root, 'scene.json');
    const imp = await run(importCommand, ['ply', ply, '--out', scene]);
    expect(imp.code).toBe(0);
    const back = parseSceneFile(JSON.parse(readFileSync(scene, 'utf8')));
    back.forEach((r, i) => {
      const a = records(40)[i];
      r.pos.forEach((v, k) => expect(v).toBeCloseTo(a.pos[k], 6));
      expect(r.opacity).toBeCloseTo(a.opacity, 6);
    });
    const again = join(root, 'again.ply');
    expect((await run(exportCommand, ['ply', '--scene', scene, '--out', again])).code).toBe(0);
    expect(readFileSync(again).equals(readFileSync(ply))).toBe(true);
  });

  it('exports the scene of a trajectory step, falling back to the task start', async () => {
    const log = join(root, 'log.jsonl');
    const state = records(3).map((r) => ({ id: r.id, p: r.pos, s: r.scale, q: r.quat, c: r.color, o: r.opacity }));
    writeFileSync(log, [
      { type: 'header', task: 'blob__sculpt', protocol: 'agent', player: 't', versions: { splatlab: '0', format: 1, node: 'x' }, started: '' },
      { step: 0, tool: 'reset', args: {}, text: '', t: '', ms: 0 },
      { step: 1, tool: 'list_gaussians', args: {}, text: '', t: '', ms: 0 },
      { step: 2, tool: 'add_gaussians', args: {}, text: '', t: '', ms: 0, state },
      { step: 3, tool: 'render_views', args: {}, text: '', t: '', ms: 0 },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');
    expect(trajectoryScene(log, 3, tasksDir)).toHaveLength(3);
    expect(trajectoryScene(log, 1, tasksDir)).toEqual([]);
    expect(() => trajectoryScene(log, 9, tasksDir)).toThrow(/ends at step 3; there is no step 9/);
    const out = join(root, 'step.ply');
    expect((await run(exportCommand, ['ply', '--trajectory', log, '--step', '2', '--out', out])).out).toEqual([`wrote 3 Gaussians to ${out}`]);
    await expect(run(exportCommand, ['ply', '--trajectory', log, '--out', out])).rejects.toThrow(/--trajectory needs --step N/);
    await expect(run(exportCommand, ['ply', '--fit', '--scene', 'x', '--out', out])).rejects.toThrow(/exactly one of/);
  });

  it('reports limits an imported scene breaks, and bad files in one line', async () => {
    const wild = records(2).map((r, i) => (i === 0 ? { ...r, pos: [2, 0, 0] as GaussianRecord['pos'], opacity: 0.01 } : r));
    expect(sceneLimitNotes(wild)).toEqual([
      '1 Gaussian(s) lie outside [-1.25, 1.25]^3 (an episode rejects them)',
      '1 Gaussian(s) have opacity below 0.05 (raised when loaded)',
    ]);
    const junk = join(root, 'junk.ply');
    writeFileSync(junk, 'ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n');
    await expect(run(importCommand, ['ply', junk, '--out', join(root, 'x.json')])).rejects.toThrow(/junk\.ply: not a 3D Gaussian Splatting PLY: missing vertex properties y, z/);
  });

  it('re-scrambles a task from the command line', async () => {
    const res = await run(scrambleCommand, ['--task', 'blob__sculpt', '--k', '3', '--seed', '4', '--tasks-dir', tasksDir]);
    expect(res.code).toBe(0);
    expect(res.out).toHaveLength(4);
    expect(res.out[3]).toBe('scrambled blob into 3 parts');
    await expect(run(scrambleCommand, ['--task', 'blob__sculpt', '--k', '99', '--tasks-dir', tasksDir])).rejects.toThrow(/cannot split 40 Gaussians into k = 99 parts/);
  });
});

describe('.ply import warnings', () => {
  it('counts scale limits on the placed scene, after centring and scaling', () => {
    // Scales of 2..40 in a scene 200 units wide: out of range as read, in range once scaled by 0.009.
    const big = Array.from({ length: 10 }, (_, i) => ({ id: i, pos: [i * 20 - 100, 0, 0] as [number, number, number], scale: [2 + i, 2, 40] as [number, number, number], quat: [1, 0, 0, 0] as [number, number, number, number], color: [0.5, 0.5, 0.5] as [number, number, number], opacity: 0.9 }));
    const { placed, warnings } = placedWithWarnings(big);
    expect(placed.factor).toBeCloseTo(0.01, 6);
    expect(warnings.some((w) => w.includes('scales outside'))).toBe(false);
    expect(warnings.at(-1)).toMatch(/scaled by 0\.0100/);
    const tiny = big.map((r) => ({ ...r, scale: [0.1, 0.1, 0.1] as [number, number, number] }));
    expect(placedWithWarnings(tiny).warnings).toContain('10 Gaussian(s) have scales outside [0.005, 0.5] (clamped when loaded)');
  });
});
