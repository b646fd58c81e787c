// Fits a hand-written part list into the unit cube: centred in X and Y, standing on z = -1 and
// uniformly shrunk only when it would leave [-1, 1]^3, then validated.
// Input: a name and parts in any frame facing +X. Output: a validated ProceduralObject.
// Invariant: proportions are kept (one uniform scale); the facing direction is unchanged.
import { partAabb } from '../../../authoring/geometry';
import { defineObject } from '../../../authoring/objects/build';
import type { Part, ProceduralObject } from '../../../authoring/primitives';
import { placePart } from '../transform';

/** Margin left inside the cube so rounding never pushes a part through a face. */
const INSET = 0.995;

export function fitted(name: string, parts: Part[]): ProceduralObject {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const p of parts) {
    const b = partAabb(p);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], b.min[k]);
      max[k] = Math.max(max[k], b.max[k]);
    }
  }
  const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const s = Math.min(1, (2 * INSET) / extent);
  const cx = (min[0] + max[0]) / 2, cy = (min[1] + max[1]) / 2;
  const shifted = parts.map((p) => placePart(p, s, 0, [-cx * s, -cy * s, -1 - min[2] * s + 1e-4]));
  return defineObject({ name, parts: shifted });
}
