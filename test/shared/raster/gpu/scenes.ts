// Seeded random scenes and cameras shared by the GPU rasterizer parity tests.
// Scenes fill the bounds cube (and a little beyond) with anisotropic, rotated Gaussians of every
// opacity; the close camera puts some behind the near plane, some just in front of it and many
// across the image border, where the Jacobian clamp applies.
import { mulberry32 } from '../../../../src/shared/math/random';
import { orbitCamera } from '../../../../src/shared/camera/orbit';
import { emptySplats, type Splats } from '../../../../src/shared/scene/splats';
import type { Camera } from '../../../../src/shared/raster/types';

export function randomScene(count: number, seed: number, scale: [number, number] = [0.01, 0.25]): Splats {
  const rng = mulberry32(seed);
  const s = emptySplats(count);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      s.means[i * 3 + k] = rng.uniform(-1.25, 1.25);
      s.scales[i * 3 + k] = rng.uniform(scale[0], scale[1]);
      s.colors[i * 3 + k] = rng.next();
    }
    // Raw (non-unit) quaternions: the rasterizer normalises them.
    for (let k = 0; k < 4; k++) s.quats[i * 4 + k] = rng.normal(0, 1.5);
    s.opacities[i] = rng.uniform(0.02, 1);
  }
  return s;
}

/** An orbit view, a close view crossing the near plane, and a rectangular off-centre view. */
export function testCameras(width: number, height: number): Record<string, Camera> {
  const close = orbitCamera({ azimuth: 200, elevation: 10, distance: 1.1, width, height });
  const offCentre = orbitCamera({ azimuth: 75, elevation: 35, width, height: Math.round(height * 0.625) });
  offCentre.cx = offCentre.width * 0.4;
  offCentre.cy = offCentre.height * 0.6;
  return { orbit: orbitCamera({ azimuth: 30, elevation: 20, width, height }), close, offCentre };
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** ||a - b|| / ||b|| (0 when both are zero). */
export function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < a.length; i++) {
    num += (a[i] - b[i]) ** 2;
    den += b[i] ** 2;
  }
  return den === 0 ? Math.sqrt(num) : Math.sqrt(num / den);
}

/**
 * True when pixel (px, py) has a Gaussian on a compositing threshold within relative `band`:
 * alpha within band of 1/255 (skip rule) or T (1 - alpha) within band of 1e-4 (stop rule). There
 * float32 and float64 may legitimately decide differently, so a parity test may excuse the pixel.
 */
export function onThreshold(
  proj: { means2d: ArrayLike<number>; conics: ArrayLike<number>; radii: ArrayLike<number> },
  order: ArrayLike<number>,
  opacities: ArrayLike<number>,
  px: number,
  py: number,
  band = 1e-3,
): boolean {
  let t = 1;
  for (let r = 0; r < order.length; r++) {
    const i = order[r];
    const dx = px + 0.5 - proj.means2d[i * 2];
    const dy = py + 0.5 - proj.means2d[i * 2 + 1];
    const q = proj.conics[i * 3] * dx * dx + 2 * proj.conics[i * 3 + 1] * dx * dy + proj.conics[i * 3 + 2] * dy * dy;
    const alpha = Math.min(0.99, opacities[i] * Math.exp(-0.5 * q));
    if (Math.abs(alpha * 255 - 1) < band) return true;
    if (alpha < 1 / 255) continue;
    const next = t * (1 - alpha);
    if (Math.abs(next / 1e-4 - 1) < band) return true;
    if (next <= 1e-4) return false;
    t = next;
  }
  return false;
}
