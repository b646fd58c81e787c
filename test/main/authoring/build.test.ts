import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildObject } from '../../../src/main/authoring/build';
import { rescrambleTask } from '../../../src/main/authoring/rescramble';
import { Grader } from '../../../src/main/grader/grader';
import { loadTask } from '../../../src/main/tasks/load';
import { PartsTruthSchema, partHeadingError } from '../../../src/shared/authoring/scramble/truth';
import { float32Within } from '../../../src/main/authoring/task-files';
import { sceneProblems } from '../../../src/shared/scene/records';

const roots: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'splatlab-build-'));
  roots.push(d);
  return d;
}
afterAll(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));

function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('buildObject', () => {
  it('builds the three tasks of an object deterministically, loadable by the grader', async () => {
    const grader = await Grader.create({ lpipsDir: null });
    const a = tmp();
    const b = tmp();
    const res = await buildObject('mushroom', { steps: 3, seed: 2, tasksDir: a, grader, samples: 1 });
    await buildObject('mushroom', { steps: 3, seed: 2, tasksDir: b, grader, samples: 1 });
    const fa = files(a);
    const fb = files(b);
    expect([...fa.keys()].sort()).toEqual([...fb.keys()].sort());
    for (const [k, v] of fa) expect(v.equals(fb.get(k) as Buffer), k).toBe(true);
    expect([...fa.keys()].filter((k) => !k.includes('/')).sort()).toEqual(['mushroom__oneshot.json', 'mushroom__reassembly.json', 'mushroom__sculpt.json']);
    for (const f of ['object.json', 'cameras.json', 'fit.json', 'anchors.json', 'init_reassembly.npz', 'parts_truth.json', 'build.json', 'ref/V7.png', 'ref/V0_mask.png', 'heldout/H7.png']) {
      expect(fa.has(join('objects', 'mushroom', f)), f).toBe(true);
    }
    expect(readdirSync(a).some((f) => f.startsWith('.staging'))).toBe(false);

    const sculpt = await loadTask('mushroom__sculpt', { tasksDir: a });
    expect(sculpt.reference.map((v) => v.name)).toEqual(['V0', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6', 'V7']);
    expect(sculpt.heldout).toHaveLength(8);
    expect(sculpt.anchors).toEqual(res.anchors);
    expect(res.anchors.lpips_model).toBeNull();
    expect(res.anchors.fit.iou).toBeGreaterThan(res.anchors.empty.iou);
    const oneshot = await loadTask('mushroom__oneshot', { tasksDir: a });
    expect([oneshot.spec.max_tool_calls, oneshot.spec.max_renders]).toEqual([1, 0]);
    const re = await loadTask('mushroom__reassembly', { tasksDir: a });
    expect(re.init).toHaveLength(res.gaussians);
    // The float32 npz keeps every value inside the episode's limits (scales clamped to 0.005 too).
    expect(sceneProblems(re.init ?? [], res.gaussians)).toEqual([]);
    expect(new Set(re.init?.map((r) => r.group))).toEqual(new Set(['part_a', 'part_b', 'part_c', 'part_d', 'part_e', 'part_f']));
    const truth = PartsTruthSchema.parse(JSON.parse(readFileSync(join(a, 'objects', 'mushroom', 'parts_truth.json'), 'utf8')));
    // The stored scramble (float32 npz) is measured against the truth: heading = applied turn.
    partHeadingError(truth, re.init ?? []).forEach((e, i) => {
      expect(e.matched).toBe('id');
      expect(e.headingErrorDeg).toBeCloseTo(Math.abs(truth.parts[i].rotation_deg), 3);
    });
    // Grading the stored fit reproduces the fit anchor exactly.
    const { packSplats } = await import('../../../src/shared/scene/gaussian');
    const { readFit } = await import('../../../src/main/tasks/load');
    const graded = await grader.grade(sculpt, packSplats(readFit(sculpt.dir, 'fit')));
    expect(graded.psnr).toBe(res.anchors.fit.psnr);
    expect(graded.score).toBeCloseTo(100, 9);

    // Re-scrambling with the build seed reproduces the build's scramble byte for byte; another
    // seed replaces the npz and truth only.
    const before = readFileSync(join(a, 'objects', 'mushroom', 'init_reassembly.npz'));
    const truthBefore = readFileSync(join(a, 'objects', 'mushroom', 'parts_truth.json'));
    rescrambleTask('mushroom__reassembly', { tasksDir: a, seed: 2 });
    expect(readFileSync(join(a, 'objects', 'mushroom', 'init_reassembly.npz')).equals(before)).toBe(true);
    expect(readFileSync(join(a, 'objects', 'mushroom', 'parts_truth.json')).equals(truthBefore)).toBe(true);
    const again = rescrambleTask('mushroom__sculpt', { tasksDir: a, seed: 9, k: 4 });
    expect(again.truth.k).toBe(4);
    expect(again.specWritten).toBe(false);
    expect(readFileSync(join(a, 'objects', 'mushroom', 'init_reassembly.npz')).equals(before)).toBe(false);
    expect((await loadTask('mushroom__reassembly', { tasksDir: a })).init?.some((r) => r.group === 'part_e')).toBe(false);
    grader.destroy();
  }, 180_000);

  it('stores float32 values inside their limits', () => {
    expect(Math.fround(0.005)).toBeLessThan(0.005);
    expect(float32Within(0.005, 0.005, 0.5)).toBeGreaterThanOrEqual(0.005);
    expect(float32Within(0.005, 0.005, 0.5) - 0.005).toBeLessThan(1e-9);
    expect(float32Within(0.3, 0.005, 0.5)).toBe(Math.fround(0.3));
    expect(float32Within(0.7, 0.005, 0.5)).toBe(0.5);
    expect(float32Within(1, 0.05, 1)).toBe(1);
  });

  it('leaves the tasks folder untouched when a stage fails', async () => {
    const dir = tmp();
    const grader = await Grader.create({ lpipsDir: null });
    await expect(buildObject('table', {
      steps: 1, tasksDir: dir, grader, samples: 1, fit: async () => { throw new Error('fit exploded'); },
    })).rejects.toThrow(/fit exploded/);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(dir, 'objects', 'table'))).toBe(false);
    await expect(buildObject('teapot', { tasksDir: dir, grader })).rejects.toThrow(/unknown procedural object 'teapot'/);
    grader.destroy();
  }, 60_000);
});
