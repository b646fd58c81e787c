// Mushroom: a cream stem with a wider foot under a red flattened-sphere cap dotted with white
// spots (flat ellipsoids lying on the cap). Stands on z = -0.98.
import type { Part, Vec3 } from '../primitives';
import { alignZ, defineObject, offset, onEllipsoid } from './build';

const CAP_CENTRE: Vec3 = [0, 0, 0.2];
const CAP_SEMI: Vec3 = [0.86, 0.86, 0.48];

/** A white spot: a flat ellipsoid lying on the cap surface, half sunk into it. */
function spot(azimuth: number, polar: number, radius: number): Part {
  const { pos, normal } = onEllipsoid(CAP_CENTRE, CAP_SEMI, azimuth, polar);
  return {
    kind: 'sphere', pos: offset(pos, normal, -0.01), rot: alignZ(normal), size: [radius, radius, 0.04],
    color: '#f7f4ec', group: 'spots',
  };
}

export const mushroom = defineObject({
  name: 'mushroom',
  parts: [
    { kind: 'cylinder', pos: [0, 0, -0.545], size: { radius: 0.24, height: 0.81 }, color: '#eadfc4', group: 'stem' },
    { kind: 'cylinder', pos: [0, 0, -0.925], size: { radius: 0.3, height: 0.11 }, color: '#d8c9a6', group: 'stem' },
    { kind: 'sphere', pos: CAP_CENTRE, size: CAP_SEMI, color: '#cf2a27', group: 'cap' },
    spot(0, 0, 0.17),
    ...[20, 92, 164, 236, 308].map((az) => spot(az, 42, 0.15)),
    ...[56, 128, 200, 272, 344].map((az) => spot(az, 72, 0.12)),
  ],
});
