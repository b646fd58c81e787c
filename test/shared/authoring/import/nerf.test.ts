import { describe, expect, it } from 'vitest';
import {
  cameraFromBlender, focalFromAngle, lookAtPoint, normalisationForBox, orbitAngles, selectFrames, visualHullBox,
} from '../../../../src/shared/authoring/import/nerf';
import { areaTaps, resizeArea } from '../../../../src/shared/authoring/import/resize';
import { cameraCentre, orbitCamera } from '../../../../src/shared/camera/orbit';
import type { Vec3 } from '../../../../src/shared/math/vec3';
import type { Camera } from '../../../../src/shared/raster/types';

/** Blender camera-to-world of an OpenCV camera: columns right, up (= -down), back (= -forward), centre. */
function blenderOf(cam: Camera): number[][] {
  const m = cam.world_to_camera;
  const c = cameraCentre(cam);
  return [0, 1, 2].map((r) => [m[r], -m[4 + r], -m[8 + r], c[r]]).concat([[0, 0, 0, 1]]);
}

function project(cam: Camera, p: Vec3): [number, number] {
  const m = cam.world_to_camera;
  const x = m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3];
  const y = m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7];
  const z = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
  return [(cam.fx * x) / z + cam.cx, (cam.fy * y) / z + cam.cy];
}

describe('NeRF camera conversion', () => {
  it('turns a Blender camera-to-world back into the OpenCV camera it came from', () => {
    const cam = orbitCamera({ azimuth: 37, elevation: 24, fov: 40, width: 256, height: 256 });
    const angleX = (40 * Math.PI) / 180; // square image: horizontal = vertical FOV
    const back = cameraFromBlender(blenderOf(cam), angleX, 256);
    back.world_to_camera.forEach((v, i) => expect(v).toBeCloseTo(cam.world_to_camera[i], 12));
    expect(back.fx).toBeCloseTo(cam.fx, 10);
    expect(focalFromAngle(800, 0.6911112070083618)).toBeCloseTo(1111.1110311937682, 6);
  });

  it('keeps pixels fixed under the world normalisation', () => {
    const cam = orbitCamera({ azimuth: 200, elevation: 35, distance: 3 });
    const c2w = blenderOf(cam);
    const norm = { centre: [0.3, -0.2, 0.5] as Vec3, scale: 0.7 };
    const moved = cameraFromBlender(c2w, (50 * Math.PI) / 180, 256, norm);
    const p: Vec3 = [0.1, 0.2, 0.3];
    const q: Vec3 = [0, 1, 2].map((a) => norm.scale * (p[a] - norm.centre[a])) as Vec3;
    const [u0, v0] = project(cameraFromBlender(c2w, (50 * Math.PI) / 180, 256), p);
    const [u1, v1] = project(moved, q);
    expect(u1).toBeCloseTo(u0, 9);
    expect(v1).toBeCloseTo(v0, 9);
  });

  it('finds where a rig looks and the orbit angles of a camera', () => {
    const target: Vec3 = [0.2, -0.1, 0.4];
    const cams = [0, 90, 200].map((azimuth) => {
      const c = orbitCamera({ azimuth, elevation: 30 });
      // Shift the rig so it looks at `target` instead of the origin.
      const m = [...c.world_to_camera];
      for (let r = 0; r < 3; r++) m[4 * r + 3] -= m[4 * r] * target[0] + m[4 * r + 1] * target[1] + m[4 * r + 2] * target[2];
      return { ...c, world_to_camera: m };
    });
    lookAtPoint(cams).forEach((v, a) => expect(v).toBeCloseTo(target[a], 9));
    const ang = orbitAngles([-1, -1, Math.SQRT2]);
    expect(ang.azimuth).toBeCloseTo(225, 9);
    expect(ang.elevation).toBeCloseTo(45, 9);
  });
});

describe('visual hull and placement', () => {
  it('bounds a disc-shaped mask set around the true sphere', () => {
    const r = 0.5;
    const cams = [0, 60, 120, 180, 240, 300].flatMap((az) => [-20, 30, 80].map((el) => orbitCamera({ azimuth: az, elevation: el, width: 64, height: 64 })));
    // Exact silhouettes of a sphere of radius r at the origin: pixels whose ray passes within r.
    const masks = cams.map((cam) => {
      const m = new Float32Array(64 * 64);
      const d = Math.hypot(...cameraCentre(cam));
      const angular = Math.asin(r / d);
      for (let y = 0; y < 64; y++) {
        for (let x = 0; x < 64; x++) {
          const ang = Math.atan(Math.hypot((x + 0.5 - cam.cx) / cam.fx, (y + 0.5 - cam.cy) / cam.fy));
          m[y * 64 + x] = ang < angular ? 1 : 0;
        }
      }
      return m;
    });
    const hull = visualHullBox(cams, masks, { min: [-1, -1, -1], max: [1, 1, 1] }, { resolution: 40 });
    expect(hull).not.toBeNull();
    expect(hull?.touches).toBe(false);
    for (let a = 0; a < 3; a++) {
      expect(hull?.box.min[a]).toBeLessThan(-r + 0.06);
      expect(hull?.box.min[a]).toBeGreaterThan(-r - 0.15);
      expect(hull?.box.max[a]).toBeGreaterThan(r - 0.06);
      expect(hull?.box.max[a]).toBeLessThan(r + 0.15);
    }
    // One camera whose frame holds the whole sphere also carves what lies outside its frame
    // (a wide region around a narrow view): only the silhouette cone survives.
    const narrow = orbitCamera({ azimuth: 0, elevation: 0, fov: 20, width: 64, height: 64 });
    const disc = new Float32Array(64 * 64);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) disc[y * 64 + x] = Math.hypot(x + 0.5 - 32, y + 0.5 - 32) < 12 ? 1 : 0;
    const cone = visualHullBox([narrow], [disc], { min: [-3, -3, -3], max: [3, 3, 3] }, { resolution: 30 });
    expect(cone?.box.max[1]).toBeLessThan(1.5);
    expect(cone?.box.min[2]).toBeGreaterThan(-1.5);
    const cut = disc.map((v, i) => (i < 64 ? 1 : v)); // an object pixel on the top border: frame not whole
    expect(visualHullBox([narrow], [cut], { min: [-3, -3, -3], max: [3, 3, 3] }, { resolution: 30 })?.box.max[1]).toBeGreaterThan(2.5);
    const norm = normalisationForBox({ min: [1, 2, 3], max: [2, 6, 4] });
    expect(norm.centre).toEqual([1.5, 4, 3.5]);
    expect(norm.scale).toBeCloseTo(0.45, 12);
  });

  it('spreads reference frames around and takes held-out frames from the rest', () => {
    const dirs: Vec3[] = Array.from({ length: 24 }, (_, i) => {
      const az = (i * 15 * Math.PI) / 180;
      return [Math.cos(az), Math.sin(az), 0];
    });
    const { reference, heldout } = selectFrames(dirs, 4, 4);
    expect(reference).toEqual([0, 12, 6, 18]); // quarter turns, ties to the lower index
    expect(heldout).toHaveLength(4);
    expect(heldout.every((i) => !reference.includes(i))).toBe(true);
    heldout.forEach((i) => expect(i % 3).toBe(0)); // 45 deg from the nearest reference
    expect(() => selectFrames(dirs.slice(0, 4), 4, 4)).toThrow(/need at least 5 frames/);
  });
});

describe('area resize', () => {
  it('averages exact areas and preserves constants and the image mean', () => {
    expect(areaTaps(5, 2)[0]).toEqual([{ index: 0, weight: 0.4 }, { index: 1, weight: 0.4 }, { index: 2, weight: 0.2 }]);
    const w = 25, h = 25;
    const src = Float32Array.from({ length: w * h * 2 }, (_, i) => (i % 2 === 0 ? 0.25 : ((i * 7919) % 101) / 100));
    const out = resizeArea(src, w, h, 2, 8, 8);
    for (let i = 0; i < 64; i++) expect(out[2 * i]).toBeCloseTo(0.25, 6);
    const mean = (a: Float32Array, stride: number, off: number): number => {
      let s = 0;
      for (let i = off; i < a.length; i += stride) s += a[i];
      return s / (a.length / stride);
    };
    expect(mean(out, 2, 1)).toBeCloseTo(mean(src, 2, 1), 5);
    expect(() => resizeArea(src, 10, 10, 2, 4, 4)).toThrow(/resizeArea/);
  });
});
