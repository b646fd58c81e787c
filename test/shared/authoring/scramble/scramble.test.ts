import { describe, expect, it } from 'vitest';
import { quatAboutZ, quatMultiply, quatNormalize, type Quat } from '../../../../src/shared/math/quaternion';
import { Random } from '../../../../src/shared/math/random';
import type { Vec3 } from '../../../../src/shared/math/vec3';
import type { GaussianRecord } from '../../../../src/shared/scene/gaussian';
import { kmeans } from '../../../../src/shared/authoring/scramble/kmeans';
import { partLabels, rotateAboutZ, scramble, scrambleSeed } from '../../../../src/shared/authoring/scramble/scramble';
import { partHeadingError, PartsTruthSchema, type PartsTruth } from '../../../../src/shared/authoring/scramble/truth';

/** n Gaussians scattered over six blobs inside the bounds cube, random orientations. */
function fittedScene(n: number, seed: number): GaussianRecord[] {
  const rng = new Random(seed);
  const blobs: Vec3[] = [[0, 0, 0.8], [0, 0, 0.2], [0.5, 0, -0.3], [-0.5, 0, -0.3], [0.3, 0.6, -0.8], [-0.3, -0.6, -0.8]];
  return Array.from({ length: n }, (_, i) => {
    const b = blobs[i % blobs.length];
    const q = quatNormalize([rng.normal(), rng.normal(), rng.normal(), rng.normal()]);
    return {
      id: i,
      pos: [b[0] + rng.normal(0, 0.08), b[1] + rng.normal(0, 0.08), b[2] + rng.normal(0, 0.08)],
      scale: [0.03, 0.05, 0.07],
      quat: q,
      color: [rng.next(), rng.next(), rng.next()],
      opacity: 0.9,
    };
  });
}

/** Puts every part back: turn by -rotation about its moved centroid, move by -translation. */
function undo(records: GaussianRecord[], truth: PartsTruth): GaussianRecord[] {
  return records.map((r) => {
    const part = truth.parts.find((p) => p.label === r.group);
    if (!part) throw new Error('unlabelled record');
    const c = part.scrambled_centroid;
    const o = rotateAboutZ([r.pos[0] - c[0], r.pos[1] - c[1], r.pos[2] - c[2]], -part.rotation_deg);
    const t = part.true_centroid;
    return { ...r, pos: [t[0] + o[0], t[1] + o[1], t[2] + o[2]], quat: quatMultiply(quatAboutZ(-part.rotation_deg), r.quat) as Quat };
  });
}

describe('kmeans', () => {
  it('recovers well-separated blobs and keeps every cluster non-empty', () => {
    const scene = fittedScene(120, 1);
    const pts = new Float64Array(scene.flatMap((r) => r.pos));
    const res = kmeans(pts, 6, new Random(3));
    expect(res.converged).toBe(true);
    // Points of the same blob (i % 6) share a label, and the six blobs get six labels.
    const labelOfBlob = new Map<number, number>();
    scene.forEach((_, i) => {
      const blob = i % 6;
      if (!labelOfBlob.has(blob)) labelOfBlob.set(blob, res.labels[i]);
      expect(res.labels[i]).toBe(labelOfBlob.get(blob));
    });
    expect(new Set(labelOfBlob.values()).size).toBe(6);
  });

  it('refuses k larger than the number of points with a clear message', () => {
    expect(() => kmeans(new Float64Array(9), 4, new Random(0))).toThrow(/cannot split 3 Gaussians into k = 4 parts/);
  });

  it('fills clusters even when points coincide', () => {
    const pts = new Float64Array(3 * 10); // ten identical points
    const res = kmeans(pts, 3, new Random(0), 10);
    const counts = [0, 0, 0];
    res.labels.forEach((l) => counts[l]++);
    expect(counts.every((c) => c > 0)).toBe(true);
  });
});

describe('scramble', () => {
  const fit = fittedScene(300, 7);

  it('names six parts part_a..part_f, keeps positions in bounds and parts rigid', () => {
    const { records, truth } = scramble(fit, { seed: 11 });
    expect(records).toHaveLength(300);
    expect(new Set(records.map((r) => r.group))).toEqual(new Set(partLabels(6)));
    expect(records.map((r) => r.id)).toEqual(records.map((_, i) => i));
    for (const r of records) for (const v of r.pos) expect(Math.abs(v)).toBeLessThanOrEqual(1.25);
    expect(PartsTruthSchema.parse(JSON.parse(JSON.stringify(truth)))).toEqual(truth);
    for (const part of truth.parts) {
      expect(Math.abs(part.rotation_deg)).toBeGreaterThanOrEqual(45);
      expect(Math.abs(part.rotation_deg)).toBeLessThanOrEqual(180);
      const moved = part.ids.map((id) => records[id]);
      expect(moved.every((r) => r.group === part.label)).toBe(true);
      // Pairwise distances are unchanged (rigid move), checked on the first few pairs.
      for (let a = 0; a + 1 < Math.min(8, moved.length); a++) {
        const d0 = Math.hypot(...[0, 1, 2].map((k) => part.true_positions[a][k] - part.true_positions[a + 1][k]));
        const d1 = Math.hypot(...[0, 1, 2].map((k) => moved[a].pos[k] - moved[a + 1].pos[k]));
        expect(d1).toBeCloseTo(d0, 10);
      }
      for (const v of part.scrambled_centroid) expect(Math.abs(v)).toBeLessThanOrEqual(0.8 + 1e-12);
    }
    // Records come sorted by label, so row order carries no position.
    const groups = records.map((r) => r.group as string);
    expect([...groups].sort()).toEqual(groups);
  });

  it('is undone exactly by the recorded truth, and heading errors equal the applied turns', () => {
    const { records, truth } = scramble(fit, { seed: 5 });
    const scrambled = partHeadingError(truth, records);
    scrambled.forEach((e, i) => {
      expect(e.matched).toBe('id');
      expect(e.headingErrorDeg).toBeCloseTo(Math.abs(truth.parts[i].rotation_deg), 6);
      expect(e.centroidError).toBeGreaterThan(0);
    });
    const restored = undo(records, truth);
    for (const part of truth.parts) {
      part.ids.forEach((id, m) => {
        for (let a = 0; a < 3; a++) expect(restored[id].pos[a]).toBeCloseTo(part.true_positions[m][a], 10);
      });
    }
    for (const e of partHeadingError(truth, restored)) {
      expect(e.headingErrorDeg).toBeLessThan(1e-6);
      expect(e.centroidError).toBeLessThan(1e-9);
    }
  });

  it('measures a part turned the wrong way round as about 180 degrees, paired by order when ids change', () => {
    const { records, truth } = scramble(fit, { seed: 5 });
    const restored = undo(records, truth).map((r, i) => ({ ...r, id: 1000 + i }));
    const label = truth.parts[0].label;
    const flipped = restored.map((r) => (r.group === label ? { ...r, quat: quatMultiply(quatAboutZ(179), r.quat) as Quat } : r));
    const errs = partHeadingError(truth, flipped);
    expect(errs[0].matched).toBe('order');
    expect(errs[0].headingErrorDeg).toBeCloseTo(179, 6);
    expect(errs[1].headingErrorDeg).toBeLessThan(1e-6);
    const partial = partHeadingError(truth, flipped.filter((r) => r.group !== label || r.id % 2 === 0));
    expect(partial[0].matched).toBe('count-mismatch');
    expect(partial[0].headingErrorDeg).toBeNull();
    expect(partHeadingError(truth, [])[0].matched).toBe('missing');
  });

  it('is deterministic for a seed, differs across seeds, and shuffles labels', () => {
    const a = scramble(fit, { seed: 3 });
    expect(scramble(fit, { seed: 3 })).toEqual(a);
    expect(scramble(fit, { seed: 4 }).records).not.toEqual(a.records);
    // The label of the part holding the topmost fitted Gaussian changes with the seed.
    const top = fit.reduce((best, r, i) => (r.pos[2] > fit[best].pos[2] ? i : best), 0);
    const labels = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => {
      const { truth } = scramble(fit, { seed });
      return truth.parts.find((p) => p.true_positions.some((q) => q[2] === fit[top].pos[2]))?.label;
    }));
    expect(labels.size).toBeGreaterThan(1);
  });

  it('derives different scramble seeds per object and build seed', () => {
    const names = ['snowman', 'mushroom', 'table', 'rocket', 'tree', 'robot'];
    const seeds = names.flatMap((n) => [0, 1].map((s) => scrambleSeed(n, s)));
    expect(new Set(seeds).size).toBe(seeds.length);
    expect(scrambleSeed('robot', 0)).toBe(scrambleSeed('robot', 0));
    const turns = names.map((n) => scramble(fit, { seed: scrambleSeed(n, 0) }).truth.parts[0].rotation_deg);
    expect(new Set(turns).size).toBe(names.length);
  });

  it('rejects k above the Gaussian count and an empty scene', () => {
    expect(() => scramble(fit.slice(0, 4), { k: 6 })).toThrow(/cannot split 4 Gaussians into k = 6 parts/);
    expect(() => scramble([], {})).toThrow(/empty scene/);
    expect(scramble(fit.slice(0, 6), { k: 6 }).truth.parts.every((p) => p.count === 1)).toBe(true);
  });
});
