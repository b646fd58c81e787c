// Two-click placement from the reference photos, pure: the state of one placement (no click, one
// pending click, both clicks) and the epipolar segment that shows a pending click on the other
// photo (the pixels where the same feature must lie). Inputs: clicks in continuous pixel
// coordinates of a slot's camera. Outputs: the next state, and a segment in the other camera.
// Invariant: a third click never pairs with a click of an earlier placement (it starts a new
// one), so a triangulation always joins the two clicks the person just made.
// See docs/DESIGN.md section 7.
import type { Camera } from '../../../shared/raster/types';
import { pixelRay, projectPoint } from '../../../shared/camera/triangulate';
import type { Vec3 } from '../../../shared/math/vec3';

export interface Pixel {
  u: number;
  v: number;
}
export type Slot = 0 | 1;

/** idle: nothing clicked; pending: one click (in `slot`); ready: one click in each photo. */
export type PlacementState =
  | { step: 'idle' }
  | { step: 'pending'; slot: Slot; at: Pixel }
  | { step: 'ready'; at: [Pixel, Pixel] };

export const IDLE: PlacementState = { step: 'idle' };

/**
 * The state after a click in photo `slot`. A click in the pending photo replaces the pending one;
 * a click in the other photo completes the pair; a click once both are set starts a new placement.
 */
export function clickPhoto(s: PlacementState, slot: Slot, at: Pixel): PlacementState {
  if (s.step === 'pending' && s.slot !== slot) {
    const pair: [Pixel, Pixel] = slot === 1 ? [s.at, at] : [at, s.at];
    return { step: 'ready', at: pair };
  }
  return { step: 'pending', slot, at };
}

/** The click shown in photo `slot` (null when that photo has none). */
export function markOf(s: PlacementState, slot: Slot): Pixel | null {
  if (s.step === 'ready') return s.at[slot];
  if (s.step === 'pending' && s.slot === slot) return s.at;
  return null;
}

/** Depths along a ray sampled for its image in the other camera (the scene lies within reach). */
const DEPTHS = Array.from({ length: 48 }, (_, i) => 0.5 + i * 0.2);

/**
 * The image in camera `to` of the viewing ray through pixel `at` of camera `from`: the points
 * of the ray in front of `to`, as a polyline in `to`'s pixels (empty when none are visible).
 */
export function epipolarPolyline(from: Camera, at: Pixel, to: Camera): Pixel[] {
  const ray = pixelRay(from, at.u, at.v);
  const out: Pixel[] = [];
  for (const d of DEPTHS) {
    const p: Vec3 = [ray.origin[0] + d * ray.dir[0], ray.origin[1] + d * ray.dir[1], ray.origin[2] + d * ray.dir[2]];
    const q = projectPoint(to, p);
    if (q) out.push(q);
  }
  return out;
}
