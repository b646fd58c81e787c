// Records of a packed scene, for the places that want one object per Gaussian (the debugger's
// id column and 3D inset, scene files). Inputs: Splats. Output: GaussianRecord[] with ids =
// row numbers; colours as stored (a capture's DC colour may leave [0, 1]; callers clamp).
import type { GaussianRecord } from '../scene/gaussian';
import type { Splats } from '../scene/splats';

export function recordsOfSplats(s: Splats, limit = s.count): GaussianRecord[] {
  const n = Math.min(limit, s.count);
  const out: GaussianRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = {
      id: i,
      pos: [s.means[i * 3], s.means[i * 3 + 1], s.means[i * 3 + 2]],
      scale: [s.scales[i * 3], s.scales[i * 3 + 1], s.scales[i * 3 + 2]],
      quat: [s.quats[i * 4], s.quats[i * 4 + 1], s.quats[i * 4 + 2], s.quats[i * 4 + 3]],
      color: [s.colors[i * 3], s.colors[i * 3 + 1], s.colors[i * 3 + 2]],
      opacity: s.opacities[i],
    };
  }
  return out;
}
