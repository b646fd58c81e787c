// Independent check of a relation parameters file: recomputes both labels from the positions
// alone with its own arithmetic (bearings, not the cross/dot form of labels.ts), and checks that
// nothing stored is ambiguous. Input: parsed params. Output: the problems found (empty: agrees).
// Invariant: shares no code with the labeller, so a bug in one is caught by the other.
import type { RelationParams } from './params';

const DEG = 180 / Math.PI;

/** Bearing difference b - a in degrees, wrapped to (-180, 180]. */
function turn(a: number, b: number): number {
  let d = (b - a) * DEG;
  while (d <= -180) d += 360;
  while (d > 180) d -= 360;
  return d;
}

function sectorOf(angle: number, m: number): string {
  const a = Math.abs(angle);
  if (a < 45 - m) return 'front';
  if (a > 135 + m) return 'back';
  if (a > 45 + m && a < 135 - m) return angle > 0 ? 'left' : 'right';
  return 'ambiguous';
}

export function verifyParams(p: RelationParams): string[] {
  const problems: string[] = [];
  const find = (role: string) => p.actors.find((a) => a.role === role);
  const ref = find('reference'), tgt = find('target'), person = find('observer');
  if (!ref || !tgt) return [`${p.id}: reference or target missing`];
  if (p.task === 'allo' && !person) return [`${p.id}: allocentric sample without an observer actor`];
  const margin = p.task === 'ego' ? 15 : 10;
  if (p.margin_deg !== margin) problems.push(`${p.id}: margin ${p.margin_deg}, expected ${margin}`);
  const obs = p.task === 'ego' ? p.camera.position : person!.position;
  const bearingFwd = Math.atan2(ref.position[1] - obs[1], ref.position[0] - obs[0]);
  const bearingRel = Math.atan2(tgt.position[1] - ref.position[1], tgt.position[0] - ref.position[0]);
  const angle = turn(bearingFwd, bearingRel);
  const label = sectorOf(angle, margin);
  if (label === 'ambiguous') problems.push(`${p.id}: ambiguous sample (angle ${angle.toFixed(3)} deg)`);
  if (label !== p.relation.label) problems.push(`${p.id}: stored label ${p.relation.label}, recomputed ${label}`);
  if (Math.abs(angle - p.relation.angle_deg) > 1e-6) problems.push(`${p.id}: stored angle ${p.relation.angle_deg}, recomputed ${angle}`);
  if (p.task === 'allo') {
    const facing = sectorOf(turn((person!.yaw / DEG), bearingRel), margin);
    const stored = p.facing?.label ?? 'ambiguous';
    if (facing !== stored) problems.push(`${p.id}: stored facing label ${stored}, recomputed ${facing}`);
  } else if (p.facing !== null) {
    problems.push(`${p.id}: egocentric sample with a facing label`);
  }
  return problems;
}
