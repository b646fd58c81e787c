// transform_group math: rotation about the centroid composes onto each quaternion, a per-axis
// scale gives the exact covariance K Sigma K, and the eigen solver reconstructs its input.
import { describe, expect, it } from 'vitest';
import { covariance3d } from '../../../src/shared/math/covariance';
import { eulerToQuat } from '../../../src/shared/math/quaternion';
import { Random } from '../../../src/shared/math/random';
import { symmetricEigen, transformRecords } from '../../../src/shared/scene/transform';
import type { GaussianRecord } from '../../../src/shared/scene/records';
import type { Mat3 } from '../../../src/shared/math/vec3';

const rng = new Random(11);
const rec = (id: number): GaussianRecord => ({
  id,
  pos: [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)],
  scale: [rng.uniform(0.02, 0.2), rng.uniform(0.02, 0.2), rng.uniform(0.02, 0.2)],
  quat: eulerToQuat([rng.uniform(-180, 180), rng.uniform(-90, 90), rng.uniform(-180, 180)]),
  color: [0.5, 0.5, 0.5],
  opacity: 1,
});

function close(a: readonly number[], b: readonly number[], tol = 1e-9): void {
  a.forEach((v, i) => expect(v).toBeCloseTo(b[i], -Math.log10(tol)));
}

describe('transformRecords', () => {
  it('rotates positions about the centroid and composes the rotation onto each Gaussian', () => {
    const set = [rec(0), rec(1), rec(2)];
    const out = transformRecords(set, { rotateDeg: 90, translate: [0.1, 0, 0] });
    const c = out.oldCentroid;
    const d = [set[0].pos[0] - c[0], set[0].pos[1] - c[1], set[0].pos[2] - c[2]];
    close(out.records[0].pos, [c[0] - d[1] + 0.1, c[1] + d[0], c[2] + d[2]]);
    close(out.newCentroid, [c[0] + 0.1, c[1], c[2]]);
    // Sigma' = R Sigma R^T for R = 90 deg about Z: x and y swap with a sign.
    const s0 = covariance3d(set[0].scale, set[0].quat);
    const s1 = covariance3d(out.records[0].scale, out.records[0].quat);
    close([s1[0], s1[4], s1[8], s1[1]], [s0[4], s0[0], s0[8], -s0[1]]);
  });

  it('a per-axis scale gives exactly K Sigma K', () => {
    const r = rec(3);
    const k = [1.5, 0.8, 1.1];
    const out = transformRecords([r], { scale: [1.5, 0.8, 1.1] }).records[0];
    const s0 = covariance3d(r.scale, r.quat);
    const want = s0.map((v, i) => v * k[Math.floor(i / 3)] * k[i % 3]);
    close(covariance3d(out.scale, out.quat), want, 1e-10);
    expect(Math.hypot(...out.quat)).toBeCloseTo(1, 12);
  });

  it('symmetricEigen reconstructs the matrix', () => {
    const m = covariance3d([0.3, 0.1, 0.02], eulerToQuat([20, -35, 70])) as Mat3;
    const { values, vectors: v } = symmetricEigen(m);
    const back = Array.from({ length: 9 }, (_, idx) => {
      const i = Math.floor(idx / 3);
      const j = idx % 3;
      return values.reduce((acc, l, k) => acc + v[i * 3 + k] * l * v[j * 3 + k], 0);
    });
    close(back, m, 1e-12);
  });
});
