// The test task's scene: valid, asymmetric, and scrambled by rigid turns about Z.
import { describe, expect, it } from 'vitest';
import { centroid } from '../../../src/shared/scene/transform';
import { sceneProblems } from '../../../src/shared/scene/records';
import { perturbedFigure, SCRAMBLE, scrambledFigure, testFigure } from '../../helpers/test-figure';

describe('test figure', () => {
  it('is 12 valid Gaussians in two groups and deterministic', () => {
    const t = testFigure();
    expect(t).toHaveLength(12);
    expect(sceneProblems(t, 12)).toEqual([]);
    expect(new Set(t.map((r) => r.group))).toEqual(new Set(['body', 'head']));
    expect(sceneProblems(perturbedFigure(), 12)).toEqual([]);
    expect(perturbedFigure()).toEqual(perturbedFigure());
    expect(perturbedFigure()[0].pos).not.toEqual(t[0].pos);
  });

  it('scrambles each group by its rotation about Z and translation, keeping shapes', () => {
    const truth = testFigure();
    const scr = scrambledFigure();
    expect(sceneProblems(scr, 12)).toEqual([]);
    for (const s of SCRAMBLE) {
      const before = truth.filter((r) => r.group === s.from);
      const after = scr.filter((r) => r.group === s.label);
      expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
      const c0 = centroid(before);
      const c1 = centroid(after);
      for (let k = 0; k < 3; k++) expect(c1[k]).toBeCloseTo(c0[k] + s.translate[k], 12);
      // Heights above the centroid are unchanged by a turn about Z; horizontal offsets turn.
      const rad = (s.rotateDeg * Math.PI) / 180;
      before.forEach((r, i) => {
        const d = [r.pos[0] - c0[0], r.pos[1] - c0[1]];
        expect(after[i].pos[0] - c1[0]).toBeCloseTo(Math.cos(rad) * d[0] - Math.sin(rad) * d[1], 12);
        expect(after[i].pos[1] - c1[1]).toBeCloseTo(Math.sin(rad) * d[0] + Math.cos(rad) * d[1], 12);
        expect(after[i].pos[2] - c1[2]).toBeCloseTo(r.pos[2] - c0[2], 12);
        expect(after[i].scale).toEqual(r.scale);
      });
    }
  });
});
