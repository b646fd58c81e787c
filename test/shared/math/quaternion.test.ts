import { describe, expect, it } from 'vitest';
import {
  eulerToQuat,
  mat3ToQuat,
  quatAboutZ,
  quatMultiply,
  quatNormalize,
  quatToEuler,
  quatToMat3,
  type Quat,
} from '../../../src/shared/math/quaternion';
import { mat3Det, mat3Mul, mat3MulVec, mat3Transpose, type Mat3, type Vec3 } from '../../../src/shared/math/vec3';
import { mulberry32 } from '../../../src/shared/math/random';

const DEG = Math.PI / 180;

function rx(a: number): Mat3 {
  const [c, s] = [Math.cos(a * DEG), Math.sin(a * DEG)];
  return [1, 0, 0, 0, c, -s, 0, s, c];
}
function ry(a: number): Mat3 {
  const [c, s] = [Math.cos(a * DEG), Math.sin(a * DEG)];
  return [c, 0, s, 0, 1, 0, -s, 0, c];
}
function rz(a: number): Mat3 {
  const [c, s] = [Math.cos(a * DEG), Math.sin(a * DEG)];
  return [c, -s, 0, s, c, 0, 0, 0, 1];
}

function expectMatClose(a: Mat3, b: Mat3, digits = 12): void {
  for (let k = 0; k < 9; k++) expect(a[k]).toBeCloseTo(b[k], digits);
}

/** Same rotation: q and -q are equivalent. */
function expectSameRotation(a: Quat, b: Quat): void {
  expectMatClose(quatToMat3(a), quatToMat3(b));
}

describe('quaternions and Euler angles', () => {
  const rng = mulberry32(11);
  const randomEuler = (): Vec3 => [rng.uniform(-180, 180), rng.uniform(-89, 89), rng.uniform(-180, 180)];

  it('builds R = Rz * Ry * Rx from XYZ Euler degrees', () => {
    for (let i = 0; i < 50; i++) {
      const e = randomEuler();
      expectMatClose(quatToMat3(eulerToQuat(e)), mat3Mul(rz(e[2]), mat3Mul(ry(e[1]), rx(e[0]))));
    }
  });

  it('round-trips Euler -> quaternion -> Euler away from gimbal lock', () => {
    for (let i = 0; i < 200; i++) {
      const e = randomEuler();
      const back = quatToEuler(eulerToQuat(e));
      for (let k = 0; k < 3; k++) expect(back[k]).toBeCloseTo(e[k], 9);
    }
  });

  it('round-trips quaternion -> Euler -> quaternion including gimbal lock', () => {
    const cases: Quat[] = [eulerToQuat([30, 90, 10]), eulerToQuat([-20, -90, 50]), [1, 0, 0, 0]];
    for (let i = 0; i < 100; i++) cases.push([rng.normal(), rng.normal(), rng.normal(), rng.normal()]);
    for (const q of cases) expectSameRotation(eulerToQuat(quatToEuler(q)), q);
  });

  it('normalises inside quatToMat3 and gives a proper rotation', () => {
    const q: Quat = [2, -1, 0.5, 3];
    const r = quatToMat3(q);
    expectMatClose(r, quatToMat3(quatNormalize(q)));
    expectMatClose(mat3Mul(r, mat3Transpose(r)), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(mat3Det(r)).toBeCloseTo(1, 12);
    expect(() => quatNormalize([0, 0, 0, 0])).toThrow();
  });

  it('inverts quatToMat3 with mat3ToQuat in every branch', () => {
    const cases: Quat[] = [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0.1, 0.9, 0.2, 0.1], [0.1, 0.2, 0.9, 0.1], [0.1, 0.1, 0.2, 0.9]];
    for (let i = 0; i < 50; i++) cases.push([rng.normal(), rng.normal(), rng.normal(), rng.normal()]);
    for (const q of cases) {
      const back = mat3ToQuat(quatToMat3(q));
      expect(back[0]).toBeGreaterThanOrEqual(0);
      expectSameRotation(back, q);
    }
  });

  it('composes like matrices: R(a * b) = R(a) R(b)', () => {
    for (let i = 0; i < 20; i++) {
      const a: Quat = [rng.normal(), rng.normal(), rng.normal(), rng.normal()];
      const b: Quat = [rng.normal(), rng.normal(), rng.normal(), rng.normal()];
      expectMatClose(quatToMat3(quatMultiply(a, b)), mat3Mul(quatToMat3(a), quatToMat3(b)));
    }
  });

  it('turns +X into +Y with a 90 degree rotation about Z', () => {
    const v = mat3MulVec(quatToMat3(quatAboutZ(90)), [1, 0, 0]);
    expect(v[0]).toBeCloseTo(0, 12);
    expect(v[1]).toBeCloseTo(1, 12);
    expect(v[2]).toBeCloseTo(0, 12);
  });
});
