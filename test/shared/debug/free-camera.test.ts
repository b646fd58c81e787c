// The debugger's free camera: the target projects to the image centre, the origin case equals
// the orbit camera, framing keeps every corner of the box inside the image, flying moves both.
import { describe, expect, it } from 'vitest';
import { fly, frameBounds, lookAtCamera, type Vec3 } from '../../../src/shared/debug/free-camera';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { projectPoint } from '../../../src/shared/camera/triangulate';

describe('free camera', () => {
  it('puts the target at the image centre and equals the orbit camera for the origin', () => {
    const cam = lookAtCamera({ eye: [3, -2, 1.5], target: [0.7, 0.4, -0.2], fov: 60, width: 200, height: 120 });
    const p = projectPoint(cam, [0.7, 0.4, -0.2]);
    expect(p?.u).toBeCloseTo(100, 9);
    expect(p?.v).toBeCloseTo(60, 9);
    const o = lookAtCamera({ eye: [0, 4, 0], target: [0, 0, 0], fov: 50, width: 64, height: 64 });
    const ref = orbitCamera({ azimuth: 90, elevation: 0, distance: 4, fov: 50, width: 64, height: 64 });
    for (let i = 0; i < 16; i++) expect(o.world_to_camera[i]).toBeCloseTo(ref.world_to_camera[i], 12);
  });

  it('frames an off-centre box with every corner in view, and flies eye and target together', () => {
    const min: Vec3 = [10, -3, 0];
    const max: Vec3 = [14, 1, 2.5];
    const v = frameBounds(min, max, 30, 20, 50, 160, 90);
    const cam = lookAtCamera(v);
    for (let c = 0; c < 8; c++) {
      const corner: Vec3 = [c & 1 ? max[0] : min[0], c & 2 ? max[1] : min[1], c & 4 ? max[2] : min[2]];
      const p = projectPoint(cam, corner);
      expect(p).not.toBeNull();
      expect(p?.u).toBeGreaterThan(0);
      expect(p?.u).toBeLessThan(160);
      expect(p?.v).toBeGreaterThan(0);
      expect(p?.v).toBeLessThan(90);
    }
    const moved = fly(v, 1, 0.5, 0.25);
    const d = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    expect(d(moved.eye, moved.target)).toBeCloseTo(d(v.eye, v.target), 9);
    for (let k = 0; k < 3; k++) expect(moved.eye[k] - v.eye[k]).toBeCloseTo(moved.target[k] - v.target[k], 12);
    const ahead = fly(v, 1, 0, 0);
    expect(d(ahead.eye, v.eye)).toBeCloseTo(1, 12);
    expect(d(ahead.eye, v.target)).toBeCloseTo(d(v.eye, v.target) - 1, 12);
  });
});
