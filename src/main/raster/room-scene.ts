// Benchmark scene (`splatlab bench`, test/bench): a seeded synthetic "room" capture, the shape of the scenes the view-search task
// renders (1-2M Gaussians with SH degree 3 seen from inside at 90 degrees): small Gaussians on the
// walls, floor and ceiling of a 6 x 3 x 6 box and in clusters of furniture, and cameras at the
// room centre looking horizontally.
import { emptySplats, type Splats } from '../../shared/scene/splats';
import type { Camera } from '../../shared/raster/types';
import { mulberry32 } from '../../shared/math/random';
import { SH_C0, shRestCount } from '../../shared/raster/cpu';

const HALF = [3, 1.5, 3];

export function roomScene(n: number, degree: 0 | 1 | 2 | 3, seed = 2026): Splats {
  const rng = mulberry32(seed);
  const s = emptySplats(n, 'f32');
  const clusters = Array.from({ length: 40 }, () => [rng.uniform(-2.5, 2.5), rng.uniform(-1.4, 0.5), rng.uniform(-2.5, 2.5)]);
  for (let i = 0; i < n; i++) {
    const p = [rng.uniform(-1, 1) * HALF[0], rng.uniform(-1, 1) * HALF[1], rng.uniform(-1, 1) * HALF[2]];
    if (rng.next() < 0.7) {
      const axis = rng.int(3);
      p[axis] = (rng.next() < 0.5 ? -1 : 1) * HALF[axis];
    } else {
      const c = clusters[rng.int(clusters.length)];
      for (let k = 0; k < 3; k++) p[k] = c[k] + rng.normal() * 0.25;
    }
    for (let k = 0; k < 3; k++) {
      s.means[i * 3 + k] = p[k];
      s.scales[i * 3 + k] = Math.exp(rng.uniform(Math.log(0.004), Math.log(0.03)));
      s.colors[i * 3 + k] = 0.5 + SH_C0 * rng.uniform(-1.5, 1.5);
    }
    for (let k = 0; k < 4; k++) s.quats[i * 4 + k] = rng.normal();
    s.opacities[i] = rng.uniform(0.1, 1);
  }
  if (degree === 0) return s;
  const rest = new Float32Array(n * shRestCount(degree) * 3);
  for (let i = 0; i < rest.length; i++) rest[i] = rng.uniform(-0.15, 0.15);
  return { ...s, sh: { degree, rest } };
}

/** Camera at the room centre looking horizontally at azimuth `deg` (0 = +z), 90 degree field of view. */
export function roomCamera(size: number, deg: number): Camera {
  const a = (deg * Math.PI) / 180;
  const f = [Math.sin(a), 0, Math.cos(a)]; // forward
  const r = [Math.cos(a), 0, -Math.sin(a)]; // right = down x forward with down = (0, -1, 0)
  const d = [0, -1, 0];
  const focal = size / 2 / Math.tan(Math.PI / 4);
  return {
    width: size,
    height: size,
    fx: focal,
    fy: focal,
    cx: size / 2,
    cy: size / 2,
    world_to_camera: [...r, 0, ...d, 0, ...f, 0, 0, 0, 0, 1],
  };
}
