// A relation scene in world metres: the environment's ground, sky and structures, the actors
// (reference, target and, for the allocentric task, the observer) and the scenery props, each
// a model placed by position and yaw. Inputs: an environment and the placements of a
// parameters file. Output: ray-caster-ready groups, one per actor, prop or structure.
// Invariant: a group's parts all lie inside its bounding sphere (culling never changes a pixel).
import { boundingRadius } from '../../authoring/geometry';
import { colorRgb, type Part, type Vec3 } from '../../authoring/primitives';
import { prepareParts, type PreparedPart } from '../../authoring/intersect';
import { groundLevel, type EnvironmentSpec } from './environments';
import { relationModel } from './models/index';
import type { Role } from './params';
import { placePart } from './transform';

export interface Placement {
  label: string; // model name
  position: Readonly<Vec3>;
  yaw: number;
}

export interface SceneGroup {
  /** The role of an actor, or null for scenery. */
  role: Role | null;
  parts: PreparedPart[];
  centre: Vec3;
  radius2: number;
}

export interface RelationScene {
  groups: SceneGroup[];
  groundZ: number;
  ground: Vec3;
  groundAlt: Vec3;
  sky: Vec3;
  zenith: Vec3;
}

/** World parts of a model placed on the ground at `position` (its cube bottom at position z). */
export function placedParts(p: Placement): Part[] {
  const m = relationModel(p.label);
  const offset: Vec3 = [p.position[0], p.position[1], p.position[2] + m.scale];
  return m.object.parts.map((part) => placePart(part, m.scale, p.yaw, offset));
}

function group(role: Role | null, parts: Part[]): SceneGroup {
  const prepared = prepareParts({ name: role ?? 'scenery', parts });
  const centre: Vec3 = [0, 0, 0];
  for (const p of prepared) for (let k = 0; k < 3; k++) centre[k] += p.pos[k] / prepared.length;
  let r = 0;
  parts.forEach((part, i) => {
    const p = prepared[i].pos;
    r = Math.max(r, Math.hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]) + boundingRadius(part) * 1.0001 + 1e-4);
  });
  return { role, parts: prepared, centre, radius2: r * r };
}

export function buildScene(
  env: EnvironmentSpec, actors: readonly (Placement & { role: Role })[], props: readonly Placement[],
): RelationScene {
  const groups: SceneGroup[] = [];
  for (const a of actors) groups.push(group(a.role, placedParts(a)));
  for (const p of props) groups.push(group(null, placedParts(p)));
  // Long structures (a bridge) get one group per part: their parts are far apart.
  for (const s of env.structures) groups.push(group(null, [s]));
  return {
    groups,
    groundZ: groundLevel(env),
    ground: colorRgb(env.ground),
    groundAlt: colorRgb(env.groundAlt),
    sky: colorRgb(env.sky),
    zenith: colorRgb(env.zenith),
  };
}
