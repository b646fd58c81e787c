// The 3D view of a large debug scene: an even sample (every k-th Gaussian) of at most
// DEBUG_POINT_LIMIT centres and colours, so a million-Gaussian capture still shows its shape
// instead of nothing. Input: the session's records. Output: DebugPoints, or null for scenes small
// enough to be sent whole (DEBUG_SCENE_LIMIT).
import { DEBUG_POINT_LIMIT, DEBUG_SCENE_LIMIT, type DebugPoints } from '../../shared/api/debug';
import type { GaussianRecord } from '../../shared/scene/gaussian';

export function scenePoints(records: readonly GaussianRecord[]): DebugPoints | null {
  const n = records.length;
  if (n <= DEBUG_SCENE_LIMIT) return null;
  const step = Math.ceil(n / DEBUG_POINT_LIMIT);
  const positions: number[] = [];
  const colors: number[] = [];
  for (let i = 0; i < n; i += step) {
    const r = records[i];
    positions.push(r.pos[0], r.pos[1], r.pos[2]);
    colors.push(r.color[0], r.color[1], r.color[2]);
  }
  return { positions, colors, of: n };
}
