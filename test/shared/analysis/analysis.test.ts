// Hand-computed cases for the seed's analyses: the mirror reflection and test, reassembly
// heading errors within 15 degrees, the clustered bootstrap, score curves and the report.
import { describe, expect, it } from 'vitest';
import { clusteredBootstrapCi } from '../../../src/shared/analysis/cluster-bootstrap';
import { bestAndFinal, curveBand, scoreCurve } from '../../../src/shared/analysis/curves';
import { headingSummary } from '../../../src/shared/analysis/heading';
import { boxCentreXY, ceilingPlane, mirrorAcross, mirrorRecord, mirrorRecords, mirrorResult, MIRROR_PLANE_ANGLES } from '../../../src/shared/analysis/mirror';
import { analyse, type AnalysisEpisode } from '../../../src/shared/analysis/report';
import { partHeadingError, type PartsTruth } from '../../../src/shared/authoring/scramble/truth';
import { quatAboutZ, quatFromAxisAngle, quatToMat3 } from '../../../src/shared/math/quaternion';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const rec = (id: number, pos: [number, number, number], quat: [number, number, number, number], group?: string): GaussianRecord => ({ id, pos, scale: [0.1, 0.05, 0.02], quat, color: [0.5, 0.5, 0.5], opacity: 1, ...(group ? { group } : {}) });

describe('mirror test', () => {
  it('reflects across x = 0: x negated, a turn about Z reversed, a turn about X kept', () => {
    const m = mirrorRecord(rec(1, [0.3, 0.2, 0.1], quatAboutZ(30)));
    expect(m.pos).toEqual([-0.3, 0.2, 0.1]);
    quatAboutZ(-30).forEach((v, i) => expect(m.quat[i]).toBeCloseTo(v, 12));
    const x = quatFromAxisAngle([1, 0, 0], 40);
    expect(mirrorRecord(rec(2, [0, 0, 0], x)).quat).toEqual([x[0], x[1], -0, -0]);
  });

  it('gives M R M as the rotation of the mirrored Gaussian, and twice gives the records back', () => {
    const q: [number, number, number, number] = [0.7, 0.1, -0.5, 0.3];
    const n = Math.hypot(...q);
    const unit = q.map((v) => v / n) as [number, number, number, number];
    const r = quatToMat3(unit);
    const mr = quatToMat3(mirrorRecord(rec(0, [0, 0, 0], unit)).quat);
    const sign = [-1, 1, 1];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(mr[3 * i + j]).toBeCloseTo(sign[i] * r[3 * i + j] * sign[j], 12);
    const recs = [rec(0, [0.1, 0.2, 0.3], unit, 'a')];
    expect(mirrorRecords(mirrorRecords(recs))).toEqual(recs.map((g) => ({ ...g, quat: g.quat.map((v) => v + 0) })));
  });

  it('mirrors across any vertical plane: x = 0 as before, a plane at 135 deg swaps x and y about its centre, twice is the identity', () => {
    const q = quatFromAxisAngle([0.3, -0.5, 0.8], 50);
    const recs = [rec(0, [0.3, 0.2, 0.1], q), rec(1, [-0.4, 0.7, -0.2], quatAboutZ(30))];
    const at0 = mirrorAcross(recs, { x: 0, y: 0, angleDeg: 0 });
    at0.forEach((m, i) => {
      const old = mirrorRecord(recs[i]);
      old.pos.forEach((v, k) => expect(m.pos[k]).toBeCloseTo(v, 12));
      // The same rotation (a quaternion and its negative are one rotation).
      const sign = Math.sign(old.quat.reduce((acc, v, k) => acc + v * m.quat[k], 0));
      old.quat.forEach((v, k) => expect(sign * m.quat[k]).toBeCloseTo(v, 12));
    });
    // The plane through (1, 1) with normal (1, -1)/sqrt2 (heading 135 deg) swaps x - 1 and y - 1.
    const m = mirrorAcross([rec(0, [3, 2, 5], q)], { x: 1, y: 1, angleDeg: 135 })[0];
    [2, 3, 5].forEach((v, k) => expect(m.pos[k]).toBeCloseTo(v, 12));
    // Its covariance is M S M with M = I - 2 n n^T (S = R diag(scale^2) R^T), and its rotation is proper.
    const n = [Math.SQRT1_2, -Math.SQRT1_2, 0];
    const M = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => (i === j ? 1 : 0) - 2 * n[i] * n[j]));
    const cov = (quat: [number, number, number, number], sc: number[]): number[] => {
      const r = quatToMat3(quat);
      return [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => [0, 1, 2].reduce((acc, k) => acc + r[3 * i + k] * sc[k] * sc[k] * r[3 * j + k], 0)));
    };
    const sc = [0.1, 0.05, 0.02];
    const before = cov(q, sc);
    const after = cov(m.quat, sc);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        let v = 0;
        for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) v += M[3 * i + a] * before[3 * a + b] * M[3 * b + j];
        expect(after[3 * i + j]).toBeCloseTo(v, 12);
      }
    }
    expect(Math.hypot(...m.quat)).toBeCloseTo(Math.hypot(...q), 12);
    const back = mirrorAcross(mirrorAcross(recs, { x: 0.2, y: -0.3, angleDeg: 75 }), { x: 0.2, y: -0.3, angleDeg: 75 });
    back.forEach((b, i) => {
      b.pos.forEach((v, k) => expect(v).toBeCloseTo(recs[i].pos[k], 12));
      b.quat.forEach((v, k) => expect(v).toBeCloseTo(recs[i].quat[k], 12));
    });
    const c = boxCentreXY(recs);
    expect(c.x).toBeCloseTo(-0.05, 12);
    expect(c.y).toBeCloseTo(0.45, 12);
  });

  it('takes the ceiling plane where the fit loses the most (the first on ties)', () => {
    const drops = MIRROR_PLANE_ANGLES.map((a) => (a === 60 || a === 120 ? 0.3 : 0.1));
    const best = ceilingPlane({ x: 0.1, y: 0 }, drops.map((d) => mirrorResult([0.9], [0.9 - d])));
    expect(best.plane).toEqual({ x: 0.1, y: 0, angleDeg: 60 });
    expect(best.result.drop).toBeCloseTo(0.3, 12);
    expect(() => ceilingPlane({ x: 0, y: 0 }, [])).toThrow(/12 planes/);
  });

  it('averages per-view IoUs and reports the drop', () => {
    const m = mirrorResult([0.8, 0.6], [0.5, 0.3]);
    expect(m.iou).toBeCloseTo(0.7, 12);
    expect(m.mirroredIou).toBeCloseTo(0.4, 12);
    expect(m.drop).toBeCloseTo(0.3, 12);
    expect(() => mirrorResult([0.1], [])).toThrow(/matching views/);
  });
});

describe('heading errors', () => {
  const truth: PartsTruth = {
    version: 1, seed: 1, k: 3, kmeans_iterations: 1, kmeans_converged: true,
    parts: ['a', 'b', 'c'].map((label, k) => ({
      label, count: 2, ids: [2 * k, 2 * k + 1], true_centroid: [k, 0, 0], scrambled_centroid: [k, 1, 0], translation: [0, 1, 0], rotation_deg: 90,
      true_positions: [[k - 0.1, 0, 0], [k + 0.1, 0, 0]], true_quats: [[1, 0, 0, 0], quatAboutZ(20)],
    })),
  };

  it('measures each part against its true pose and counts the share within 15 degrees', () => {
    const turn = (deg: number, quats: [number, number, number, number][]) => quats.map((q) => {
      const z = quatAboutZ(deg);
      return [z[0] * q[0] - z[3] * q[3], z[0] * q[1] - z[3] * q[2], z[0] * q[2] + z[3] * q[1], z[0] * q[3] + z[3] * q[0]] as [number, number, number, number];
    });
    const final = [
      ...turn(100, [[1, 0, 0, 0], quatAboutZ(20)]).map((q, i) => rec(i, [0, 0, 0], q, 'a')),
      ...turn(-10, [[1, 0, 0, 0], quatAboutZ(20)]).map((q, i) => rec(2 + i, [1, 0, 0], q, 'b')),
    ];
    const errors = partHeadingError(truth, final);
    expect(errors[0].headingErrorDeg).toBeCloseTo(100, 9);
    expect(errors[1].headingErrorDeg).toBeCloseTo(10, 9);
    expect(errors[2].matched).toBe('missing');
    const s = headingSummary(errors.map((e) => e.headingErrorDeg));
    expect(s).toMatchObject({ parts: 3, within: 1 });
    expect(s.share).toBeCloseTo(1 / 3, 12);
    expect(s.meanDeg).toBeCloseTo(55, 9);
    expect(headingSummary([15, 15.0001]).within).toBe(1);
  });
});

describe('clustered bootstrap', () => {
  it('resamples clusters, not episodes: clusters [1, 1] and [3] give mean 5/3 and the interval [1, 3]', () => {
    const ci = clusteredBootstrapCi([{ cluster: 'A', value: 1 }, { cluster: 'A', value: 1 }, { cluster: 'B', value: 3 }], { resamples: 4000, seed: 7 });
    expect(ci.n).toBe(3);
    expect(ci.clusters).toBe(2);
    expect(ci.mean).toBeCloseTo(5 / 3, 12);
    expect(ci.low).toBe(1);
    expect(ci.high).toBe(3);
    expect(clusteredBootstrapCi([{ cluster: 'A', value: 1 }, { cluster: 'A', value: 2 }])).toMatchObject({ mean: 1.5, low: null, high: null });
  });
});

describe('score over calls', () => {
  it('carries the last graded score forward and bands across episodes', () => {
    expect(scoreCurve([{ step: 0, score: -10 }, { step: 2, score: 5 }, { step: 3, score: null }], 4)).toEqual([-10, -10, 5, 5, 5]);
    expect(curveBand([[0, 2, 4], [0, 4]])).toEqual([
      { call: 0, n: 2, median: 0, low: 0, high: 0 },
      { call: 1, n: 2, median: 3, low: 2.5, high: 3.5 },
      { call: 2, n: 2, median: 4, low: 4, high: 4 },
    ]);
    expect(bestAndFinal([-10, 20, 5], 5)).toEqual({ best: 20, final: 5 });
  });
});

describe('report', () => {
  const row = (o: Partial<AnalysisEpisode>): AnalysisEpisode => ({
    group: 'participants', kind: 'human', cluster: 'P1', taskId: 'x__sculpt', object: 'x', taskKind: 'sculpt', practice: false, complete: true, score: 10, curve: [0, 10], mirror: null, headingErrors: null, headingParts: null, costUsd: null, seconds: 60, model: null, effort: null, ...o,
  });

  it('puts participants beside each model and setting, leaving practice and unfinished out', () => {
    const rows = [
      row({ cluster: 'P1', score: 10 }), row({ cluster: 'P1', score: 20 }), row({ cluster: 'P2', score: 40 }), row({ cluster: 'P2', practice: true, score: 99 }),
      row({ group: 'm@high', kind: 'model', cluster: 'r1', score: 30, costUsd: 0.5, model: 'm', effort: 'high' }),
      row({ group: 'm@low', kind: 'model', cluster: 'r1', score: 5, costUsd: 0.1, model: 'm', effort: 'low', taskKind: 'oneshot', taskId: 'x__oneshot' }),
      row({ group: 'm@low', kind: 'model', cluster: 'r2', complete: false, score: null }),
      row({ cluster: 'P1', taskKind: 'reassembly', taskId: 'x__reassembly', score: 50, headingErrors: [3, 40, null], headingParts: ['a', 'b', 'c'] }),
      row({ cluster: 'P2', taskKind: 'reassembly', taskId: 'x__reassembly', score: 60, headingErrors: [7, 20, 10], headingParts: ['a', 'b', 'c'] }),
    ];
    const r = analyse(rows, { resamples: 200 });
    const human = r.scores.find((s) => s.group === 'participants' && s.taskKind === 'sculpt');
    expect(human).toMatchObject({ n: 3, clusters: 2, kind: 'human' });
    expect(human?.mean).toBeCloseTo(70 / 3, 12);
    expect(r.scores.map((s) => `${s.taskKind}:${s.group}`)).toEqual(['sculpt:participants', 'sculpt:m@high', 'reassembly:participants', 'oneshot:m@low']);
    expect(r.heading).toEqual([{ group: 'participants', episodes: 2, parts: 6, within: 3, share: 0.5, meanDeg: 16 }]);
    expect(r.headingParts).toEqual([
      { group: 'participants', object: 'x', part: 'a', n: 2, within: 2, meanDeg: 5 },
      { group: 'participants', object: 'x', part: 'b', n: 2, within: 0, meanDeg: 30 },
      { group: 'participants', object: 'x', part: 'c', n: 2, within: 1, meanDeg: 10 },
    ]);
    expect(r.oneShot.find((o) => o.group === 'm@low')).toEqual({ group: 'm@low', nOneShot: 1, oneShot: 5, nFull: 0, full: null });
    expect(r.effort).toEqual([
      { model: 'm', effort: 'high', n: 1, mean: 30, costUsd: 0.5 },
      { model: 'm', effort: 'low', n: 1, mean: 5, costUsd: 0.1 },
    ]);
  });
});
