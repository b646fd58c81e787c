// Rigid placement of unit-cube parts in the world: uniform scale, a turn about +Z (yaw) and a
// translation, applied exactly to every primitive kind.
// Inputs: Part records, a scale > 0, yaw in degrees, a translation. Output: new Part records.
// Invariant: R_world = Rz(yaw) * R_part, and with R = Rz Ry Rx that is the part's Euler angles
// with yaw added to the Z angle, so no matrix-to-Euler conversion is ever needed.
import type { Part, Vec3 } from '../../authoring/primitives';

export function placePart(part: Part, scale: number, yawDeg: number, offset: Readonly<Vec3>): Part {
  const r = (yawDeg * Math.PI) / 180;
  const c = Math.cos(r), s = Math.sin(r);
  const [x, y, z] = part.pos;
  const pos: Vec3 = [offset[0] + scale * (c * x - s * y), offset[1] + scale * (s * x + c * y), offset[2] + scale * z];
  const rot: Vec3 = [part.rot?.[0] ?? 0, part.rot?.[1] ?? 0, (part.rot?.[2] ?? 0) + yawDeg];
  switch (part.kind) {
    case 'sphere':
      return { ...part, pos, rot, size: typeof part.size === 'number' ? part.size * scale : [part.size[0] * scale, part.size[1] * scale, part.size[2] * scale] };
    case 'box':
      return { ...part, pos, rot, size: [part.size[0] * scale, part.size[1] * scale, part.size[2] * scale] };
    case 'cylinder':
    case 'cone':
      return { ...part, pos, rot, size: { radius: part.size.radius * scale, height: part.size.height * scale } };
  }
}
