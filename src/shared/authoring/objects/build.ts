// Small helpers for writing procedural objects by hand: orient a part along a direction, put a
// part on the surface of a sphere or ellipsoid, and validate the finished definition.
// Inputs: world-space points and directions (Z up). Outputs: Part fields and a ProceduralObject.
// Invariant: every object module returns the result of parseObject, so a typo fails at import.
import { parseObject, type ProceduralObject, type Vec3 } from '../primitives';

const DEG = 180 / Math.PI;

/** XYZ Euler degrees (R = Rz * Ry * Rx) that turn local +Z onto the direction `dir`. */
export function alignZ(dir: Vec3): Vec3 {
  const n = Math.hypot(dir[0], dir[1], dir[2]);
  const polar = Math.acos(Math.max(-1, Math.min(1, dir[2] / n))) * DEG;
  const azimuth = Math.atan2(dir[1], dir[0]) * DEG;
  return [0, round(polar), round(azimuth)];
}

/**
 * Point on an axis-aligned ellipsoid (centre, semi-axes) at spherical angles (degrees: azimuth
 * from +X towards +Y, polar from +Z), plus the outward normal there.
 */
export function onEllipsoid(centre: Vec3, semi: Vec3, azimuth: number, polar: number): { pos: Vec3; normal: Vec3 } {
  const a = azimuth / DEG;
  const p = polar / DEG;
  const u: Vec3 = [Math.sin(p) * Math.cos(a), Math.sin(p) * Math.sin(a), Math.cos(p)];
  const pos: Vec3 = [centre[0] + semi[0] * u[0], centre[1] + semi[1] * u[1], centre[2] + semi[2] * u[2]];
  const normal: Vec3 = [u[0] / semi[0], u[1] / semi[1], u[2] / semi[2]];
  const n = Math.hypot(normal[0], normal[1], normal[2]);
  return { pos: pos.map(round) as Vec3, normal: [normal[0] / n, normal[1] / n, normal[2] / n] };
}

/** Moves a point along a unit direction by `dist` (negative: inwards). */
export function offset(p: Vec3, dir: Vec3, dist: number): Vec3 {
  return [round(p[0] + dir[0] * dist), round(p[1] + dir[1] * dist), round(p[2] + dir[2] * dist)];
}

/** Rounds to 1e-4 so the definitions stay readable when printed or saved as JSON. */
function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

export function defineObject(input: ProceduralObject): ProceduralObject {
  return parseObject(input);
}
