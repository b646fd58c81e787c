// Test helper: seeded random scenes and cameras for the CPU rasterizer tests.
// Scenes deliberately include Gaussians crossing the image border, straddling the near plane and
// behind the camera, with random (non-unit) quaternions, so every culling path is exercised.
import { emptySplats, type Splats } from '../../../../src/shared/scene/splats';
import { orbitCamera, orbitEye } from '../../../../src/shared/camera/orbit';
import type { Camera } from '../../../../src/shared/raster/types';
import type { Random } from '../../../../src/shared/math/random';

export interface SceneOptions {
  precision?: 'f32' | 'f64';
  /** Fraction of Gaussians placed near the camera (straddling the near plane or behind it). */
  nearFraction?: number;
  scaleRange?: [number, number];
  opacityRange?: [number, number];
}

export function randomCamera(rng: Random, size: number): Camera {
  const cam = orbitCamera({ azimuth: rng.uniform(0, 360), elevation: rng.uniform(-30, 80), width: size, height: size });
  // An off-centre principal point makes the Jacobian clamp limits asymmetric.
  return { ...cam, cx: cam.cx + rng.uniform(-3, 3), cy: cam.cy + rng.uniform(-3, 3) };
}

export function randomSplats(rng: Random, n: number, camera: Camera, opts: SceneOptions = {}): Splats {
  const s = emptySplats(n, opts.precision ?? 'f64');
  const [s0, s1] = opts.scaleRange ?? [0.03, 0.4];
  const [o0, o1] = opts.opacityRange ?? [0.05, 1];
  const eye = cameraEye(camera);
  for (let i = 0; i < n; i++) {
    const near = rng.next() < (opts.nearFraction ?? 0);
    for (let k = 0; k < 3; k++) {
      s.means[i * 3 + k] = near ? eye[k] + rng.uniform(-0.3, 0.3) : rng.uniform(-1.3, 1.3);
      s.scales[i * 3 + k] = Math.exp(rng.uniform(Math.log(s0), Math.log(s1)));
      s.colors[i * 3 + k] = rng.uniform(0, 1);
    }
    for (let k = 0; k < 4; k++) s.quats[i * 4 + k] = rng.normal() * rng.uniform(0.5, 2);
    s.opacities[i] = rng.uniform(o0, o1);
  }
  return s;
}

function cameraEye(camera: Camera): [number, number, number] {
  const m = camera.world_to_camera;
  const t = [m[3], m[7], m[11]];
  return [0, 1, 2].map((c) => -(m[c] * t[0] + m[4 + c] * t[1] + m[8 + c] * t[2])) as [number, number, number];
}

export { orbitEye };

/** Adds random SH bands 1..degree of amplitude `amp` to a scene (colours keep the DC term). */
export function withRandomSh(rng: Random, s: Splats, degree: 1 | 2 | 3, amp = 0.3): Splats {
  const k = (degree + 1) * (degree + 1) - 1;
  const rest = s.means instanceof Float32Array ? new Float32Array(s.count * k * 3) : new Float64Array(s.count * k * 3);
  for (let i = 0; i < rest.length; i++) rest[i] = rng.uniform(-amp, amp);
  return { ...s, sh: { degree, rest } };
}
