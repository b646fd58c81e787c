// Where a captured object sits (docs/TASKS.md "Photographed objects"): a coarse visual hull of the
// masks inside the largest cube every camera sees around the point the rig looks at, then a fine
// hull around the coarse one; its box (one fine voxel of slack) becomes the bounds cube.
// Inputs: pinhole cameras and their masks (same size as each camera). Output: the hull box and
// warnings, or null when the masks agree on no volume.
// Invariant: shared by the NeRF-Synthetic import and the photographed captures, so both place
// an object by the same rule.
import type { Vec3 } from '../../math/vec3';
import type { Camera } from '../../raster/types';
import { cameraCentre } from '../../camera/orbit';
import { lookAtPoint, visualHullBox, type Box } from './nerf';

export interface HullPlacement {
  hull: Box;
  warnings: string[];
}

export interface PlaceOptions {
  coarse?: number; // voxels per side of the first pass (40)
  fine?: number; // of the second (64)
  threshold?: number; // mask value below which a pixel is background (0.1: thin parts stay)
}

export function placeInHull(cams: readonly Camera[], masks: readonly Float32Array[], opts: PlaceOptions = {}): HullPlacement | null {
  const coarseN = opts.coarse ?? 40;
  const fineN = opts.fine ?? 64;
  const threshold = opts.threshold ?? 0.1;
  const target = lookAtPoint(cams);
  // Largest cube around the look-at point that every camera sees in full (narrower half-angle).
  const half = Math.min(...cams.map((c) => {
    const e = cameraCentre(c);
    const tan = Math.min(c.cx, c.width - c.cx) / c.fx;
    const tanY = Math.min(c.cy, c.height - c.cy) / c.fy;
    return Math.hypot(e[0] - target[0], e[1] - target[1], e[2] - target[2]) * Math.min(tan, tanY);
  }));
  const region: Box = { min: target.map((v) => v - half) as Vec3, max: target.map((v) => v + half) as Vec3 };
  const warnings: string[] = [];
  const coarse = visualHullBox(cams, masks, region, { resolution: coarseN, threshold });
  if (!coarse) return null;
  if (coarse.touches) warnings.push('the visual hull reaches the edge of the volume the cameras share; the object may extend beyond it');
  const pad = [0, 1, 2].map((a) => 2 * (region.max[a] - region.min[a]) / coarseN);
  const around: Box = {
    min: coarse.box.min.map((v, a) => v - pad[a]) as Vec3,
    max: coarse.box.max.map((v, a) => v + pad[a]) as Vec3,
  };
  const fine = visualHullBox(cams, masks, around, { resolution: fineN, threshold });
  // One fine voxel of slack: thin parts can fall between voxel centres at the mask threshold.
  const slack = [0, 1, 2].map((a) => (around.max[a] - around.min[a]) / fineN);
  const hull: Box = fine
    ? { min: fine.box.min.map((v, a) => v - slack[a]) as Vec3, max: fine.box.max.map((v, a) => v + slack[a]) as Vec3 }
    : coarse.box;
  return { hull, warnings };
}
