// The standard view sets of docs/DESIGN.md section 2: reference views V0..V7 shown to the player and
// held-out views H0..H7 used only by the hidden grader. Angles in degrees.
import { orbitCamera } from './orbit';
import type { Camera } from '../raster/types';

export interface NamedView {
  name: string;
  azimuth: number;
  elevation: number;
}

export const REFERENCE_VIEWS: readonly NamedView[] = [
  ...[0, 60, 120, 180, 240, 300].map((azimuth, i) => ({ name: `V${i}`, azimuth, elevation: 20 })),
  { name: 'V6', azimuth: 30, elevation: 65 },
  { name: 'V7', azimuth: 210, elevation: 65 },
];

export const HELDOUT_VIEWS: readonly NamedView[] = [
  [30, 5], [150, 5], [270, 5], [90, 40], [210, 40], [330, 40], [120, 80], [300, 80],
].map(([azimuth, elevation], i) => ({ name: `H${i}`, azimuth, elevation }));

export function viewCameras(views: readonly NamedView[], size = 256): Camera[] {
  return views.map((v) => orbitCamera({ azimuth: v.azimuth, elevation: v.elevation, width: size, height: size }));
}
