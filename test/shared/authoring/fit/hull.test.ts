// Visual hull of a sphere's silhouettes (volume and shape), the seeded Gaussian placement on it,
// photo colours, and farthest-point sampling.
import { describe, expect, it } from 'vitest';
import { carveVisualHull, farthestPoints, projectPoint, visualHullInit, type HullView } from '../../../../src/shared/authoring/fit/hull';
import { REFERENCE_VIEWS, viewCameras } from '../../../../src/shared/camera/views';
import { cameraCentre } from '../../../../src/shared/camera/orbit';
import { Random } from '../../../../src/shared/math/random';
import type { Camera } from '../../../../src/shared/raster/types';

const RADIUS = 0.7;

/** Exact silhouette of a sphere of RADIUS at the origin: pixel centre rays that hit it. */
function sphereView(camera: Camera, color: [number, number, number]): HullView {
  const { width: w, height: h } = camera;
  const m = camera.world_to_camera;
  const eye = cameraCentre(camera);
  const mask = new Float32Array(w * h);
  const data = new Float32Array(w * h * 3).fill(1);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dc = [(x + 0.5 - camera.cx) / camera.fx, (y + 0.5 - camera.cy) / camera.fy, 1];
      // world direction = R^T dc
      const d = [0, 1, 2].map((k) => m[k] * dc[0] + m[4 + k] * dc[1] + m[8 + k] * dc[2]);
      const dd = d[0] ** 2 + d[1] ** 2 + d[2] ** 2;
      const b = eye[0] * d[0] + eye[1] * d[1] + eye[2] * d[2];
      const c = eye[0] ** 2 + eye[1] ** 2 + eye[2] ** 2 - RADIUS * RADIUS;
      if (b * b - dd * c >= 0) {
        mask[y * w + x] = 1;
        data.set(color, (y * w + x) * 3);
      }
    }
  }
  return { camera, mask, photo: { width: w, height: h, data } };
}

const views = viewCameras(REFERENCE_VIEWS, 64).map((c) => sphereView(c, [0.8, 0.2, 0.1]));

describe('carveVisualHull', () => {
  const hull = carveVisualHull(views, 48);
  const sphereVolume = (4 / 3) * Math.PI * RADIUS ** 3;

  it('carves a sphere into roughly a sphere', () => {
    const volume = hull.count * hull.voxelSize ** 3;
    // Eight views bound the sphere loosely (the hull is a little larger), never much smaller.
    expect(volume).toBeGreaterThan(0.9 * sphereVolume);
    expect(volume).toBeLessThan(1.35 * sphereVolume);
    const r = hull.resolution;
    let far = 0;
    let missingInside = 0;
    for (let i = 0; i < hull.occupied.length; i++) {
      const c = [i % r, Math.floor(i / r) % r, Math.floor(i / (r * r))].map((k) => -hull.bound + (k + 0.5) * hull.voxelSize);
      const dist = Math.hypot(c[0], c[1], c[2]);
      if (hull.occupied[i]) far = Math.max(far, dist);
      else if (dist < 0.9 * RADIUS) missingInside += 1;
    }
    expect(missingInside).toBe(0);
    expect(far).toBeLessThan(1.3 * RADIUS);
  });

  it('treats points outside an image or behind the camera as outside', () => {
    const cam = views[0].camera;
    expect(projectPoint(cam, [0, 0, 0])).toEqual([32, 32]);
    expect(projectPoint(cam, [0, 0, 5])).toBeNull(); // above the frustum
    const eye = cameraCentre(cam);
    expect(projectPoint(cam, [eye[0] * 2, eye[1] * 2, eye[2] * 2])).toBeNull(); // behind
    expect(carveVisualHull([{ camera: cam, mask: new Float32Array(64 * 64) }], 16).count).toBe(0);
  });
});

describe('visualHullInit', () => {
  it('places the cap of Gaussians inside the hull, sized from its volume, coloured from the photos', () => {
    const g = visualHullInit(views, { maxGaussians: 120, seed: 5, resolution: 40 });
    expect(g).toHaveLength(120);
    const spacing = Math.cbrt(((4 / 3) * Math.PI * RADIUS ** 3) / 120);
    for (const r of g) {
      expect(Math.hypot(...r.pos)).toBeLessThan(1.3 * RADIUS);
      expect(r.scale[0]).toBeGreaterThan(0.3 * spacing);
      expect(r.scale[0]).toBeLessThan(0.8 * spacing);
      expect(r.color[0]).toBeCloseTo(0.8, 5);
      expect(r.color[1]).toBeCloseTo(0.2, 5);
      expect(r.opacity).toBe(0.8);
      expect(r.quat).toEqual([1, 0, 0, 0]);
    }
    expect(g.map((r) => r.id)).toEqual(g.map((_, i) => i));
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const a = visualHullInit(views, { maxGaussians: 50, seed: 1, resolution: 32 });
    const b = visualHullInit(views, { maxGaussians: 50, seed: 1, resolution: 32 });
    const c = visualHullInit(views, { maxGaussians: 50, seed: 2, resolution: 32 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
  });

  it('returns nothing for empty silhouettes', () => {
    const empty = views.map((v) => ({ camera: v.camera, mask: new Float32Array(64 * 64) }));
    expect(visualHullInit(empty, { maxGaussians: 10, seed: 1, resolution: 16 })).toEqual([]);
  });
});

describe('farthestPoints', () => {
  it('picks each next point farthest from those already chosen', () => {
    const pts = new Float64Array(101 * 3);
    for (let i = 0; i <= 100; i++) pts[i * 3] = i / 100;
    const picks = farthestPoints(pts, 3, new Random(9));
    const xs = picks.map((i) => pts[i * 3]);
    for (let s = 1; s < xs.length; s++) {
      const gap = (x: number): number => Math.min(...xs.slice(0, s).map((c) => Math.abs(x - c)));
      let best = 0;
      for (let i = 0; i <= 100; i++) best = Math.max(best, gap(i / 100));
      expect(gap(xs[s])).toBeCloseTo(best, 12);
    }
    expect(new Set(picks).size).toBe(3);
    expect(farthestPoints(pts, 200, new Random(1))).toHaveLength(101);
  });
});
