// Reading a NeRF capture into what the import builds from: its frames (decoded, on white, with
// their masks) and where the object sits (a two-pass visual hull of the masks). Split from
// nerf.ts so the lab runs it on a worker thread (job 'nerf.read', src/main/threads/jobs/nerf-read.ts;
// issue 38 item 1) without loading the grader there; the CLI calls it in-process.
// Inputs: the capture folder, its parsed transforms, the photo size. Output: NerfCapture.
// Invariant: the capture's budget is checked before any frame is decoded (readFrames).
import {
  cameraFromBlender, lookAtPoint, normalisationForBox, visualHullBox, IDENTITY_NORMALISATION, type Box, type Normalisation, type NerfTransforms,
} from '../../shared/authoring/import/nerf';
import { cameraCentre } from '../../shared/camera/orbit';
import type { Vec3 } from '../../shared/math/vec3';
import type { Camera } from '../../shared/raster/types';
import { NerfImportError, readFrames, type NerfFrame } from './nerf-frames';

const HULL_COARSE = 40;
const HULL_FINE = 64;
/** Carve only where a mask is nearly empty, so thin parts (partial pixel coverage) stay in the hull. */
const HULL_MASK_THRESHOLD = 0.1;

export interface Placement {
  normalisation: Normalisation;
  hull: Box; // in capture coordinates
  warnings: string[];
}

/** Where the object sits in the capture: a coarse hull in the rig's view volume, then a fine one around it. */
export function placeObject(frames: readonly NerfFrame[], angleX: number, size: number): Placement {
  const cams: Camera[] = frames.map((f) => cameraFromBlender(f.c2w, angleX, size, IDENTITY_NORMALISATION));
  const masks = frames.map((f) => f.mask);
  const target = lookAtPoint(cams);
  // Largest cube around the look-at point that every camera sees in full width.
  const half = Math.min(...cams.map((c) => {
    const e = cameraCentre(c);
    return Math.hypot(e[0] - target[0], e[1] - target[1], e[2] - target[2]) * Math.tan(0.5 * angleX);
  }));
  const region: Box = { min: target.map((v) => v - half) as Vec3, max: target.map((v) => v + half) as Vec3 };
  const warnings: string[] = [];
  const coarse = visualHullBox(cams, masks, region, { resolution: HULL_COARSE, threshold: HULL_MASK_THRESHOLD });
  if (!coarse) throw new NerfImportError('the masks agree on no common volume: the visual hull is empty (are the alpha channels and cameras consistent?)');
  if (coarse.touches) warnings.push('the visual hull reaches the edge of the volume the cameras share; the object may extend beyond it');
  const pad = [0, 1, 2].map((a) => 2 * (region.max[a] - region.min[a]) / HULL_COARSE);
  const around: Box = {
    min: coarse.box.min.map((v, a) => v - pad[a]) as Vec3,
    max: coarse.box.max.map((v, a) => v + pad[a]) as Vec3,
  };
  const fine = visualHullBox(cams, masks, around, { resolution: HULL_FINE, threshold: HULL_MASK_THRESHOLD });
  // One fine voxel of slack: thin parts can fall between voxel centres at the mask threshold.
  const slack = [0, 1, 2].map((a) => (around.max[a] - around.min[a]) / HULL_FINE);
  const hull: Box = fine
    ? { min: fine.box.min.map((v, a) => v - slack[a]) as Vec3, max: fine.box.max.map((v, a) => v + slack[a]) as Vec3 }
    : coarse.box;
  return { normalisation: normalisationForBox(hull), hull, warnings };
}

export interface NerfCapture {
  frames: NerfFrame[];
  placement: Placement;
}

/** Decodes the frames (budget first) and places the object. */
export function readCapture(dir: string, transforms: NerfTransforms, size: number): NerfCapture {
  const frames = readFrames(dir, transforms, size);
  return { frames, placement: placeObject(frames, transforms.camera_angle_x, size) };
}
