import { describe, expect, it } from 'vitest';
import { covariance3d } from '../../../src/shared/math/covariance';
import { quatToMat3, type Quat } from '../../../src/shared/math/quaternion';
import { mat3Det, mat3MulVec, type Vec3 } from '../../../src/shared/math/vec3';
import { mulberry32 } from '../../../src/shared/math/random';

describe('covariance3d', () => {
  it('is symmetric positive semi-definite with eigenvalues s^2 along the rotated axes', () => {
    const rng = mulberry32(3);
    for (let i = 0; i < 100; i++) {
      const s: Vec3 = [rng.uniform(0.005, 0.5), rng.uniform(0.005, 0.5), rng.uniform(0.005, 0.5)];
      const q: Quat = [rng.normal(), rng.normal(), rng.normal(), rng.normal()];
      const sigma = covariance3d(s, q);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) expect(sigma[r * 3 + c]).toBe(sigma[c * 3 + r]);
      for (let k = 0; k < 10; k++) {
        const x: Vec3 = [rng.normal(), rng.normal(), rng.normal()];
        const sx = mat3MulVec(sigma, x);
        expect(x[0] * sx[0] + x[1] * sx[1] + x[2] * sx[2]).toBeGreaterThanOrEqual(0);
      }
      expect(mat3Det(sigma)).toBeCloseTo((s[0] * s[1] * s[2]) ** 2, 12);
      // Each column of R is an eigenvector with eigenvalue s_k^2.
      const r = quatToMat3(q);
      for (let k = 0; k < 3; k++) {
        const axis: Vec3 = [r[k], r[3 + k], r[6 + k]];
        const v = mat3MulVec(sigma, axis);
        for (let j = 0; j < 3; j++) expect(v[j]).toBeCloseTo(s[k] * s[k] * axis[j], 12);
      }
    }
  });
});
