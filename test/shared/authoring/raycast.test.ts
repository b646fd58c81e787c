import { describe, expect, it } from 'vitest';
import { PROCEDURAL_OBJECTS } from '../../../src/shared/authoring/objects/index';
import { parseObject, type Part, type ProceduralObject } from '../../../src/shared/authoring/primitives';
import { LIGHT_DIR, raycastObject, shade } from '../../../src/shared/authoring/raycast';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import type { Camera } from '../../../src/shared/raster/types';

const one = (part: Part): ProceduralObject => parseObject({ name: 'probe', parts: [part] });
const sum = (a: Float32Array) => a.reduce((s, v) => s + v, 0);

/** Orbit camera with an explicit focal length (px), so expected sizes come out round. */
function camera(azimuth: number, elevation: number, distance: number, size: number, f: number): Camera {
  return { ...orbitCamera({ azimuth, elevation, distance, width: size, height: size }), fx: f, fy: f };
}

describe('ray-primitive intersections against closed forms', () => {
  it('a sphere covers pi f^2 r^2 / (D^2 - r^2) px^2', () => {
    const r = 0.8;
    const D = 3;
    const cam = camera(33, 20, D, 96, 100);
    const { mask } = raycastObject(one({ kind: 'sphere', pos: [0, 0, 0], size: r, color: '#2050d0' }), cam);
    const expected = (Math.PI * 100 * 100 * r * r) / (D * D - r * r);
    expect(sum(mask) / expected).toBeCloseTo(1, 2);
  });

  it('an ellipsoid seen along X covers pi f^2 b c / (D^2 - a^2) px^2', () => {
    const [a, b, c] = [0.3, 0.7, 0.45];
    const cam = camera(0, 0, 3, 96, 100);
    const { mask } = raycastObject(one({ kind: 'sphere', pos: [0, 0, 0], size: [a, b, c], color: '#2050d0' }), cam);
    expect(sum(mask) / ((Math.PI * 1e4 * b * c) / (9 - a * a))).toBeCloseTo(1, 2);
  });

  it('a box face-on is an exact rectangle with the face shade', () => {
    // Front face at x = 0.5, depth 3.5 from a camera at x = 4 with f = 64: 0.875 wide -> 16 px,
    // 0.4375 high -> 8 px, edges on pixel boundaries, so coverage is exactly 0 or 1.
    const cam = camera(0, 0, 4, 64, 64);
    const out = raycastObject(one({ kind: 'box', pos: [0, 0, 0], size: [1, 0.875, 0.4375], color: [1, 0.5, 0] }), cam);
    const face = shade(1, 0, 0);
    expect(face).toBeCloseTo(0.35 + 0.65 * LIGHT_DIR[0], 12);
    const wrong: string[] = [];
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < 64; x++) {
        const inside = x >= 24 && x < 40 && y >= 28 && y < 36;
        const p = y * 64 + x;
        const expected = inside ? [face, 0.5 * face, 0] : [1, 1, 1];
        const bad = out.mask[p] !== (inside ? 1 : 0) || [0, 1, 2].some((k) => Math.abs(out.rgb.data[3 * p + k] - expected[k]) > 1e-6);
        if (bad) wrong.push(`(${x}, ${y})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a rotated box turned 90 deg about Z shows its other face at the swapped size', () => {
    const cam = camera(0, 0, 4, 64, 64);
    const out = raycastObject(one({ kind: 'box', pos: [0, 0, 0], rot: [0, 0, 90], size: [0.875, 1, 0.4375], color: '#ffffff' }), cam);
    expect(sum(out.mask)).toBe(16 * 8);
  });

  it('a cylinder seen from above is its top disk; seen side-on it spans the tangent lines', () => {
    const [r, h, D, f] = [0.5, 0.8, 3, 100];
    const top = raycastObject(one({ kind: 'cylinder', pos: [0, 0, 0], size: { radius: r, height: h }, color: '#20a040' }), camera(0, 90, D, 96, f));
    expect(sum(top.mask) / (Math.PI * (f * r / (D - h / 2)) ** 2)).toBeCloseTo(1, 2);
    // Its top cap faces +Z: the centre pixel has the cap's shade.
    const c = (48 * 96 + 48) * 3;
    expect(top.rgb.data[c + 1]).toBeCloseTo((0xa0 / 255) * shade(0, 0, 1), 5);
    // Lying along Y and seen from +X: the contour lines are horizontal in the image, at the
    // tangent angle r / sqrt(D^2 - r^2); the centre row spans the rims nearest the camera.
    const side = raycastObject(one({ kind: 'cylinder', pos: [0, 0, 0], rot: [90, 0, 0], size: { radius: r, height: h }, color: '#20a040' }), camera(0, 0, D, 96, f));
    let column = 0;
    let row = 0;
    for (let i = 0; i < 96; i++) {
      column += side.mask[i * 96 + 48];
      row += side.mask[48 * 96 + i];
    }
    expect(column).toBeCloseTo((2 * f * r) / Math.sqrt(D * D - r * r), 0);
    expect(Math.abs(column - (2 * f * r) / Math.sqrt(D * D - r * r))).toBeLessThan(0.5); // 1/s per edge
    expect(row).toBeCloseTo((f * h) / (D - r), 1);
  });

  it('a cone seen tip-on is its base disk; seen base-on it shows the flat base', () => {
    const [r, h, D, f] = [0.5, 0.8, 3, 100];
    const cone = one({ kind: 'cone', pos: [0, 0, 0], size: { radius: r, height: h }, color: '#d04020' });
    const tipOn = raycastObject(cone, camera(0, 90, D, 96, f));
    expect(sum(tipOn.mask) / (Math.PI * (f * r / (D + h / 2)) ** 2)).toBeCloseTo(1, 2);
    const baseOn = raycastObject(cone, camera(0, -90, D, 96, f));
    expect(sum(baseOn.mask) / (Math.PI * (f * r / (D - h / 2)) ** 2)).toBeCloseTo(1, 2);
    const c = (48 * 96 + 48) * 3;
    expect(baseOn.rgb.data[c]).toBeCloseTo((0xd0 / 255) * shade(0, 0, -1), 5);
    // Seen from the side, the silhouette is close to a triangle of base 2r and height h.
    const side = raycastObject(cone, camera(0, 0, D, 96, f));
    expect(sum(side.mask) / (0.5 * (2 * f * r / D) * (f * h / D))).toBeGreaterThan(0.95);
    expect(sum(side.mask) / (0.5 * (2 * f * r / D) * (f * h / D))).toBeLessThan(1.2);
  });

  it('shows the nearest part and white where nothing is hit', () => {
    const obj = parseObject({
      name: 'pair',
      parts: [
        { kind: 'box', pos: [0, 0, 0], size: [0.4, 1.2, 1.2], color: '#0000ff' },
        { kind: 'sphere', pos: [0.5, 0, 0], size: 0.2, color: '#ff0000' },
      ],
    });
    const out = raycastObject(obj, camera(0, 0, 4, 64, 64));
    const at = (x: number, y: number) => Array.from(out.rgb.data.slice((y * 64 + x) * 3, (y * 64 + x) * 3 + 3));
    expect(at(32, 32)[0]).toBeGreaterThan(0.5); // red sphere in front
    expect(at(32, 32)[2]).toBe(0);
    expect(at(32, 26)[2]).toBeGreaterThan(0.3); // blue box around it (rows 22..41)
    expect(at(32, 26)[0]).toBe(0);
    expect(at(1, 1)).toEqual([1, 1, 1]);
    expect(out.mask[64 + 1]).toBe(0);
  });

  it('lights with ambient 0.35 plus diffuse 0.65 from a fixed direction', () => {
    expect(shade(LIGHT_DIR[0], LIGHT_DIR[1], LIGHT_DIR[2])).toBeCloseTo(1, 12);
    expect(shade(-LIGHT_DIR[0], -LIGHT_DIR[1], -LIGHT_DIR[2])).toBeCloseTo(0.35, 12);
    expect(Math.hypot(...LIGHT_DIR)).toBeCloseTo(1, 12);
  });
});

describe('supersampling', () => {
  it('mask and colour are the means over the s*s sample rays', () => {
    const s = 3;
    const obj = PROCEDURAL_OBJECTS.snowman;
    const cam = orbitCamera({ azimuth: 40, elevation: 25, distance: 3, width: 20, height: 20 });
    const lo = raycastObject(obj, cam, { samples: s });
    // One sample per pixel at s-times the resolution hits the same ray positions.
    const hiCam: Camera = { ...cam, width: 20 * s, height: 20 * s, fx: cam.fx * s, fy: cam.fy * s, cx: cam.cx * s, cy: cam.cy * s };
    const hi = raycastObject(obj, hiCam, { samples: 1 });
    let covered = 0;
    let worstCount = 0;
    let worstMask = 0;
    let worstRgb = 0;
    for (let y = 0; y < 20; y++) {
      for (let x = 0; x < 20; x++) {
        let m = 0;
        const rgb = [0, 0, 0];
        for (let j = 0; j < s; j++) {
          for (let i = 0; i < s; i++) {
            const q = (y * s + j) * 20 * s + x * s + i;
            m += hi.mask[q];
            for (let k = 0; k < 3; k++) rgb[k] += hi.rgb.data[3 * q + k];
          }
        }
        const p = y * 20 + x;
        worstCount = Math.max(worstCount, Math.abs(lo.mask[p] * s * s - Math.round(lo.mask[p] * s * s)));
        worstMask = Math.max(worstMask, Math.abs(lo.mask[p] - m / (s * s)));
        for (let k = 0; k < 3; k++) worstRgb = Math.max(worstRgb, Math.abs(lo.rgb.data[3 * p + k] - rgb[k] / (s * s)));
        if (lo.mask[p] > 0 && lo.mask[p] < 1) covered++;
      }
    }
    expect(worstCount).toBeLessThan(1e-5); // the mask counts whole samples
    expect(worstMask).toBeLessThan(1e-6);
    expect(worstRgb).toBeLessThan(1e-5);
    expect(covered).toBeGreaterThan(10); // the check saw partially covered edge pixels
  });

  it('rejects bad sample counts', () => {
    const cam = orbitCamera({ azimuth: 0, elevation: 20, width: 4, height: 4 });
    expect(() => raycastObject(PROCEDURAL_OBJECTS.table, cam, { samples: 0 })).toThrow(/samples/);
    expect(() => raycastObject(PROCEDURAL_OBJECTS.table, cam, { samples: 2.5 })).toThrow(/samples/);
  });
});
