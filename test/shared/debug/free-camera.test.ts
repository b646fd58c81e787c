// The debugger's free camera: the target projects to the image centre, the origin case equals
// the orbit camera, framing keeps every corner of the box inside the image, flying moves both;
// fly speed follows the scene's size, looking turns about the eye, an explicit camera is picked up.
import { describe, expect, it } from 'vitest';
import { FLY_KEYS, MAX_PITCH, fly, flySpeed, frameBounds, freeFromCamera, look, lookAtCamera, type Vec3 } from '../../../src/shared/debug/free-camera';
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

describe('flying the free camera', () => {
  it('scales its speed to the scene and maps WASD/QE and the arrows to directions', () => {
    expect(flySpeed([0, 0, 0], [3, 4, 12])).toBeCloseTo(13 / 20, 12);
    expect(flySpeed([1, 1, 1], [1, 1, 1])).toBeGreaterThan(0);
    expect(FLY_KEYS.KeyW).toEqual([1, 0, 0]);
    expect(FLY_KEYS.ArrowLeft).toEqual([0, -1, 0]);
    expect(FLY_KEYS.KeyE).toEqual([0, 0, 1]);
    expect(FLY_KEYS.KeyQ).toEqual([0, 0, -1]);
    expect(FLY_KEYS.KeyX).toBeUndefined();
  });

  it('looks about the eye: yaw left and pitch up, never past the pole', () => {
    const v = { eye: [1, 2, 3] as Vec3, target: [3, 2, 3] as Vec3, fov: 50, width: 64, height: 64 };
    const left = look(v, 90, 0);
    expect(left.eye).toEqual(v.eye);
    expect(left.target[0]).toBeCloseTo(1, 12);
    expect(left.target[1]).toBeCloseTo(4, 12);
    const up = look(v, 0, 30);
    expect(up.target[2] - 3).toBeCloseTo(2 * Math.sin(Math.PI / 6), 12);
    const over = look(v, 0, 200);
    const el = (Math.asin((over.target[2] - 3) / 2) * 180) / Math.PI;
    expect(el).toBeCloseTo(MAX_PITCH, 9);
    expect(() => lookAtCamera(over)).not.toThrow();
  });

  it('picks up from an explicit camera: the same camera back, then flying moves it', () => {
    const v = { eye: [4, -1, 2] as Vec3, target: [0.5, 0.2, 0.1] as Vec3, fov: 55, width: 96, height: 64 };
    const cam = lookAtCamera(v);
    const back = freeFromCamera(cam, 2);
    expect(back.fov).toBeCloseTo(55, 9);
    for (let a = 0; a < 3; a++) expect(back.eye[a]).toBeCloseTo(v.eye[a], 9);
    const again = lookAtCamera(back);
    for (let i = 0; i < 16; i++) expect(again.world_to_camera[i]).toBeCloseTo(cam.world_to_camera[i], 9);
    const moved = fly(back, 0.5, 0, 0);
    expect(Math.hypot(...moved.eye.map((e, a) => e - back.eye[a]))).toBeCloseTo(0.5, 9);
  });
});
