import { describe, expect, it } from 'vitest';
import { orbitCamera, cameraCentre, orbitEye } from '../../../src/shared/camera/orbit';
import { REFERENCE_VIEWS, HELDOUT_VIEWS, viewCameras } from '../../../src/shared/camera/views';

function project(cam: ReturnType<typeof orbitCamera>, p: number[]): [number, number, number] {
  const m = cam.world_to_camera;
  const x = m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3];
  const y = m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7];
  const z = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
  return [cam.fx * x / z + cam.cx, cam.fy * y / z + cam.cy, z];
}

describe('orbit cameras', () => {
  it('puts the origin at the principal point and world +Z up in the image', () => {
    const cam = orbitCamera({ azimuth: 37, elevation: 20 });
    const [u, v, z] = project(cam, [0, 0, 0]);
    expect(u).toBeCloseTo(128, 9);
    expect(v).toBeCloseTo(128, 9);
    expect(z).toBeCloseTo(4.5, 9);
    expect(project(cam, [0, 0, 0.5])[1]).toBeLessThan(128);
  });

  it('looks from +X at azimuth 0, so world +Y is to the right', () => {
    const cam = orbitCamera({ azimuth: 0, elevation: 0 });
    expect(project(cam, [0, 0.5, 0])[0]).toBeGreaterThan(128);
    expect(cameraCentre(cam)[0]).toBeCloseTo(4.5, 9);
  });

  it('round-trips the camera centre', () => {
    const spec = { azimuth: 210, elevation: 65, distance: 3 };
    const c = cameraCentre(orbitCamera(spec));
    const e = orbitEye(spec);
    for (let k = 0; k < 3; k++) expect(c[k]).toBeCloseTo(e[k], 9);
  });

  it('keeps the whole bounds cube inside every standard view', () => {
    for (const cam of viewCameras([...REFERENCE_VIEWS, ...HELDOUT_VIEWS])) {
      for (const corner of [[-1, -1, -1], [1, -1, -1], [-1, 1, -1], [1, 1, -1], [-1, -1, 1], [1, -1, 1], [-1, 1, 1], [1, 1, 1]]) {
        const [u, v] = project(cam, corner);
        expect(u).toBeGreaterThan(0);
        expect(u).toBeLessThan(256);
        expect(v).toBeGreaterThan(0);
        expect(v).toBeLessThan(256);
      }
    }
  });

  it('handles a camera straight above without NaNs', () => {
    const cam = orbitCamera({ azimuth: 45, elevation: 90 });
    expect(cam.world_to_camera.every(Number.isFinite)).toBe(true);
  });
});
