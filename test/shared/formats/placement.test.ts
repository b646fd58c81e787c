// Placement: the up axis goes to +Z with positions, orientations and SH bands turned together;
// crop, floaters and scaling do what their report lines say.
import { describe, expect, it } from 'vitest';
import { quatToMat3 } from '../../../src/shared/math/quaternion';
import type { Mat3 } from '../../../src/shared/math/vec3';
import { BOUNDS_HALF_SIDE, placeSplats, upRotation } from '../../../src/shared/formats/placement';
import { rotateShRest, shBasis } from '../../../src/shared/formats/sh-rotate';
import { AXES, type Axis } from '../../../src/shared/formats/types';
import { emptySplats, type Splats } from '../../../src/shared/scene/splats';

const apply = (m: Readonly<Mat3>, v: number[]): number[] => [0, 1, 2].map((r) => m[r * 3] * v[0] + m[r * 3 + 1] * v[1] + m[r * 3 + 2] * v[2]);
const axisVector = (a: Axis): number[] => { const v = [0, 0, 0]; v['xyz'.indexOf(a[1])] = a[0] === '+' ? 1 : -1; return v; };
let seed = 7;
const rand = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647);

function randomScene(n: number): Splats {
  const s = emptySplats(n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      s.means[i * 3 + a] = rand() * 4 - 2;
      s.scales[i * 3 + a] = 0.01 + rand() * 0.1;
      s.colors[i * 3 + a] = rand();
    }
    const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
    const l = Math.hypot(...q);
    q.forEach((v, c) => (s.quats[i * 4 + c] = v / l));
    s.opacities[i] = 0.5;
  }
  s.sh = { degree: 3, rest: Float32Array.from({ length: n * 45 }, () => rand() - 0.5) };
  return s;
}

describe('up rotations', () => {
  it.each(AXES)('%s goes to +Z by a proper rotation', (up) => {
    const r = upRotation(up);
    expect(apply(r, axisVector(up)).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 0, 1]);
    const det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) + r[2] * (r[3] * r[7] - r[4] * r[6]);
    expect(det).toBeCloseTo(1, 12);
  });
});

describe('SH rotation', () => {
  it('the rotated bands show along R d what the old ones showed along d', () => {
    const r = upRotation('-y');
    const turn: Mat3 = [0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6]; // an arbitrary rotation
    for (const m of [r, turn]) {
      const rest = Float64Array.from({ length: 45 }, () => rand() - 0.5);
      const rotated = Float64Array.from(rest);
      rotateShRest(rotated, 1, 15, m);
      for (let t = 0; t < 20; t++) {
        const d = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
        const l = Math.hypot(...d);
        const u = d.map((v) => v / l);
        const before = shBasis(u[0], u[1], u[2]);
        const ru = apply(m, u);
        const after = shBasis(ru[0], ru[1], ru[2]);
        for (let c = 0; c < 3; c++) {
          const f0 = before.reduce((s, y, k) => s + y * rest[k * 3 + c], 0);
          const f1 = after.reduce((s, y, k) => s + y * rotated[k * 3 + c], 0);
          expect(f1).toBeCloseTo(f0, 9);
        }
      }
    }
  });
});

describe('placeSplats', () => {
  it('turns positions and Gaussian axes together and reports the turn', () => {
    const s = randomScene(30);
    const placed = placeSplats(s, { up: '-y', yawDeg: 30, recentre: 'none', scale: 'metric' });
    // -90 deg about X, then 30 deg about Z: a rotation with every quaternion component non-zero.
    const c = Math.cos(Math.PI / 6), sn = Math.sin(Math.PI / 6);
    const u = upRotation('-y');
    const r = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => [c, -sn, 0, sn, c, 0, 0, 0, 1].slice(i * 3, i * 3 + 3).reduce((acc, v, k) => acc + v * u[k * 3 + j], 0))) as Mat3;
    expect(placed.rotation.map((v, i) => v - r[i]).every((d) => Math.abs(d) < 1e-12)).toBe(true);
    expect(placed.report[0]).toBe("up axis: the file's -y becomes the lab's +Z (-90 deg about X), then 30 deg about Z");
    for (let i = 0; i < s.count; i++) {
      const p = apply(r, [0, 1, 2].map((a) => s.means[i * 3 + a]));
      p.forEach((v, a) => expect(placed.splats.means[i * 3 + a]).toBeCloseTo(v, 5));
      const before = quatToMat3([s.quats[i * 4], s.quats[i * 4 + 1], s.quats[i * 4 + 2], s.quats[i * 4 + 3]]);
      const after = quatToMat3([0, 1, 2, 3].map((c) => placed.splats.quats[i * 4 + c]) as [number, number, number, number]);
      // Each Gaussian axis (a column of its rotation) is the turned old axis.
      for (let col = 0; col < 3; col++) {
        const turned = apply(r, [before[col], before[3 + col], before[6 + col]]);
        turned.forEach((v, a) => expect(after[a * 3 + col]).toBeCloseTo(v, 5));
      }
    }
  });

  it('crops, drops floaters and scales into the bounds cube, saying how many', () => {
    const s = emptySplats(1001);
    for (let i = 0; i < 1000; i++) for (let a = 0; a < 3; a++) s.means[i * 3 + a] = ((i * (a + 3)) % 17) / 17 - 0.5;
    s.means.set([40, 40, 40], 1000 * 3); // one far floater
    for (let i = 0; i < s.count; i++) s.scales.set([0.1, 0.1, 0.1], i * 3);
    const floaters = placeSplats(s, { up: '+z', recentre: 'bbox', floaters: { cells: 16, minNeighbours: 3 }, scale: 'bounds' });
    expect(floaters.splats.count).toBe(1000);
    expect(floaters.report).toContain('dropped 1 floater(s) (fewer than 3 Gaussians in their 3x3x3 cells of a 16^3 grid)');
    const half = Math.max(...[0, 1, 2].map((a) => Math.max(...Array.from({ length: 1000 }, (_, i) => Math.abs(floaters.splats.means[i * 3 + a])))));
    expect(half).toBeCloseTo(BOUNDS_HALF_SIDE, 5);
    const sphere = placeSplats(s, { up: '+z', recentre: 'none', crop: { kind: 'sphere', centre: [0, 0, 0], radius: 0.3 }, scale: 'metric' });
    const inside = Array.from({ length: s.count }, (_, i) => Math.hypot(s.means[i * 3], s.means[i * 3 + 1], s.means[i * 3 + 2]) <= 0.3).filter(Boolean).length;
    expect(sphere.splats.count).toBe(inside);
    expect(sphere.report[1]).toBe(`cropped to the sphere at (0.000, 0.000, 0.000) radius 0.3: dropped ${s.count - inside} Gaussian(s)`);
    expect(Array.from(sphere.source).every((i) => Math.hypot(s.means[i * 3], s.means[i * 3 + 1], s.means[i * 3 + 2]) <= 0.3)).toBe(true);
  });
});
