// OpenCV <-> three.js camera conversion: a world point lands on the same pixel both ways.
import { describe, expect, it } from 'vitest';
import { Matrix4, PerspectiveCamera, Vector3 } from 'three';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { REFERENCE_VIEWS } from '../../../src/shared/camera/views';
import { cameraFromPose, poseFromCamera } from '../../../src/renderer/viewport/camera';
import type { Camera } from '../../../src/shared/raster/types';

function cvPixel(cam: Camera, p: [number, number, number]): [number, number] {
  const m = cam.world_to_camera;
  const x = m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3];
  const y = m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7];
  const z = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
  return [cam.fx * (x / z) + cam.cx, cam.fy * (y / z) + cam.cy];
}

function threePixel(cam: Camera, p: [number, number, number]): [number, number] {
  const pose = poseFromCamera(cam);
  const three = new PerspectiveCamera(pose.fovDeg, cam.width / cam.height, 0.01, 100);
  three.matrixAutoUpdate = false;
  three.matrixWorld.copy(new Matrix4().fromArray(pose.matrixWorld));
  three.matrixWorldInverse.copy(three.matrixWorld).invert();
  const ndc = new Vector3(...p).project(three);
  return [((ndc.x + 1) / 2) * cam.width, ((1 - ndc.y) / 2) * cam.height];
}

describe('camera conversion', () => {
  const points: [number, number, number][] = [[0, 0, 0], [1, -1, 1], [-0.7, 0.4, -0.9], [0.2, 0.9, 0.5]];

  it.each(REFERENCE_VIEWS.map((v) => [v.name, v]))('%s projects like the reference camera', (_name, v) => {
    const cam = orbitCamera({ azimuth: v.azimuth, elevation: v.elevation, width: 256, height: 256 });
    for (const p of points) {
      const [u, w] = cvPixel(cam, p);
      const [a, b] = threePixel(cam, p);
      expect(a).toBeCloseTo(u, 6);
      expect(b).toBeCloseTo(w, 6);
    }
    expect(poseFromCamera(cam).target.map((x) => Math.abs(x) < 1e-9)).toEqual([true, true, true]);
  });

  it('round-trips a camera through a three pose', () => {
    const cam = orbitCamera({ azimuth: 123, elevation: -30, width: 200, height: 200 });
    const pose = poseFromCamera(cam);
    const back = cameraFromPose(pose.matrixWorld, pose.fovDeg, 200, 200);
    back.world_to_camera.forEach((x, i) => expect(x).toBeCloseTo(cam.world_to_camera[i], 9));
    expect(back.fy).toBeCloseTo(cam.fy, 9);
  });
});
