// Reading a NeRF capture into what the import builds from: its frames (decoded, on white, with
// their masks) and where the object sits (a two-pass visual hull of the masks). Split from
// nerf.ts so the lab runs it on a worker thread (job 'nerf.read', src/main/threads/jobs/nerf-read.ts;
// issue 38 item 1) without loading the grader there; the CLI calls it in-process.
// Inputs: the capture folder, its parsed transforms, the photo size. Output: NerfCapture.
// Invariant: the capture's budget is checked before any frame is decoded (readFrames).
import { cameraFromBlender, normalisationForBox, IDENTITY_NORMALISATION, type Box, type Normalisation, type NerfTransforms } from '../../shared/authoring/import/nerf';
import { placeInHull } from '../../shared/authoring/import/place';
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

/** Where the object sits in the capture: the shared two-pass visual hull (place.ts). */
export function placeObject(frames: readonly NerfFrame[], angleX: number, size: number): Placement {
  const cams: Camera[] = frames.map((f) => cameraFromBlender(f.c2w, angleX, size, IDENTITY_NORMALISATION));
  const placed = placeInHull(cams, frames.map((f) => f.mask), { coarse: HULL_COARSE, fine: HULL_FINE, threshold: HULL_MASK_THRESHOLD });
  if (!placed) throw new NerfImportError('the masks agree on no common volume: the visual hull is empty (are the alpha channels and cameras consistent?)');
  return { normalisation: normalisationForBox(placed.hull), hull: placed.hull, warnings: placed.warnings };
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
