// The 3D view of a large debug scene: an even sample (every k-th Gaussian) of at most
// DEBUG_POINT_LIMIT centres and colours, so a million-Gaussian capture still shows its shape
// instead of nothing. Input: the session's packed scene (in its current frame). Output:
// DebugPoints, or null for scenes small enough to be sent whole (DEBUG_SCENE_LIMIT).
import { DEBUG_POINT_LIMIT, DEBUG_SCENE_LIMIT, type DebugPoints } from '../../shared/api/debug';
import type { Splats } from '../../shared/scene/splats';

/** The sample, read from the session's packed scene (records are packed once; a splat file has none). */
export function splatPoints(splats: Splats): DebugPoints | null {
  const n = splats.count;
  if (n <= DEBUG_SCENE_LIMIT) return null;
  const step = Math.ceil(n / DEBUG_POINT_LIMIT);
  const positions: number[] = [];
  const colors: number[] = [];
  for (let i = 0; i < n; i += step) {
    for (let a = 0; a < 3; a++) {
      positions.push(splats.means[i * 3 + a]);
      colors.push(splats.colors[i * 3 + a]);
    }
  }
  return { positions, colors, of: n };
}
