// Authoring of search episodes from a room: each question gets a start as E3VS makes them (a
// viewpoint on spheres around the question's objects, looking at them, that does not answer;
// never a view of one colour) and, as goal, the nearest answerable view by BFS with the
// answerable views around it; starts with an answerable view within two actions or none within
// the budget are dropped, and answers are balanced so a blind prior cannot win.
// Inputs: a RoomSpec, a seed and options. Output: SearchEpisode[] (plain data for tasks/*.json).
// Invariant: deterministic in (room, seed, options); every episode's start is unanswerable, faces
// the question's objects, and its goal lies within minDistance..maxDistance actions by the same
// stepPose the rules use.
import { mulberry32 } from '../../math/random';
import { PrimitiveCollider } from './collide';
import type { Pose } from './pose';
import { generateQuestions, type Question } from './questions';
import { findNode, nodeAabb, roomParts, type RoomSpec } from './room';
import { RoomVisibility, DEFAULT_RULE, type VisibilityRule } from './visibility';
import { motionWorld, searchAnswerable } from './world';

type Rng = ReturnType<typeof mulberry32>;

export interface SearchEpisode {
  id: string;
  question: Question;
  start: Pose;
  goal: Pose;
  answerable: Pose[];
  /** BFS actions from start to goal. */
  distance: number;
}

export interface BuildOptions {
  seed: number;
  /** Start poses tried per question. */
  tries?: number;
  minDistance?: number;
  maxDistance?: number;
  episodesPerQuestion?: number;
  /** Questions used per room, dealt round-robin over the families in a seeded order. */
  questions?: number;
  /** Answerable neighbours of the goal stored beside it. */
  keep?: number;
  radius?: number;
  rule?: VisibilityRule;
  /** Closed answer forms (choices, yes/no, a number) instead of the default open ones. */
  closed?: boolean;
}

/** Where a question's objects are: the centre of their boxes. */
function needsCentre(room: RoomSpec, needs: readonly string[]): [number, number, number] {
  const c = [0, 0, 0];
  for (const id of needs) {
    const b = nodeAabb(findNode(room, id));
    for (let k = 0; k < 3; k++) c[k] += (b.min[k] + b.max[k]) / 2 / needs.length;
  }
  return c as [number, number, number];
}

/** The largest side of the union box of a question's objects (metres). */
function needsExtent(room: RoomSpec, needs: readonly string[]): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const id of needs) {
    const b = nodeAabb(findNode(room, id));
    for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], b.min[k]); hi[k] = Math.max(hi[k], b.max[k]); }
  }
  return Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

/** States one start's BFS may expand before it is given up (a start that far from any answer is dropped). */
const BFS_STATES = 20_000;

/** E3VS's share of the image the object's box spans on the sphere of viewpoints. */
export const SPHERE_SPAN = 0.6;
/** Sphere radii grow by this factor per ring, out to MAX_RING_RADIUS (the lab's objects are small). */
const RING_FACTOR = 1.5;
const MAX_RING_RADIUS = 3.2;
/**
 * A start whose ray grid is more than this share one colour (a blank wall, the ceiling, the side
 * of a shelf up close) is refused: below the 90 % a rendered view must stay under, because the
 * splats' blur makes a rendered view a little more uniform than its 12 x 12 rays.
 */
export const MAX_COLOUR_SHARE = 0.75;

/**
 * A start as E3VS makes them: a viewpoint on a sphere around the question's objects, looking at
 * them (yaw and pitch rounded to the action lattice's 30 degrees, so they stay inside the 90-degree
 * view), filtered to views that do not answer. The first sphere's radius is where the objects'
 * box spans SPHERE_SPAN of the image (the paper's); the lab's objects are a few centimetres, so
 * views there answer unless occluded, and the radius grows ring by ring (too far is the other
 * way a view fails to answer). Refused: a pose outside the room or touching geometry, a view more
 * than MAX_COLOUR_SHARE one colour, a view that answers.
 */
function sphereStart(room: RoomSpec, collider: PrimitiveCollider, vis: RoomVisibility, q: Question, radius: number, answers: (p: Pose) => boolean, rng: Rng): Pose | null {
  const c = needsCentre(room, q.needs);
  // 90-degree horizontal FOV: at distance d the image spans 2d, so the box spans extent / (2d).
  const r0 = Math.max(radius * 2, needsExtent(room, q.needs) / (2 * SPHERE_SPAN));
  const rings = Math.max(1, Math.ceil(Math.log(MAX_RING_RADIUS / r0) / Math.log(RING_FACTOR)) + 1);
  const r2 = (v: number) => Math.round(v * 100) / 100;
  for (let i = 0; i < 60; i++) {
    const r = Math.min(MAX_RING_RADIUS, r0 * RING_FACTOR ** rng.int(rings));
    const az = rng.uniform(0, 2 * Math.PI), el = (rng.uniform(-15, 60) * Math.PI) / 180;
    const p = [c[0] + r * Math.cos(el) * Math.cos(az), c[1] + r * Math.cos(el) * Math.sin(az), c[2] + r * Math.sin(el)].map(r2);
    if (p[0] < 0.2 || p[1] < 0.2 || p[2] < 0.3 || p[0] > room.size[0] - 0.2 || p[1] > room.size[1] - 0.2 || p[2] > room.size[2] - 0.3) continue;
    if (collider.distance([p[0], p[1], p[2]]) <= radius) continue;
    const dx = c[0] - p[0], dy = c[1] - p[1], dz = c[2] - p[2];
    const yaw = ((Math.round((Math.atan2(dy, dx) * 180) / Math.PI / 30) * 30) % 360 + 360) % 360;
    const pitch = Math.max(-60, Math.min(60, Math.round((Math.atan2(dz, Math.hypot(dx, dy)) * 180) / Math.PI / 30) * 30));
    const pose: Pose = { x: p[0], y: p[1], z: p[2], yaw, pitch };
    if (answers(pose) || vis.colourShare(pose) > MAX_COLOUR_SHARE) continue;
    return pose;
  }
  return null;
}

/**
 * Episodes made goal first: an answerable view of the question is sampled, then a start on the
 * spheres around the question's objects (sphereStart), kept when no view within two actions of it
 * answers (so the shortest path is at least 3) and the goal is within minDistance..maxDistance
 * actions by A* (./astar.ts) through the same stepPose the rules use.
 */
export function buildEpisodes(room: RoomSpec, opts: BuildOptions): SearchEpisode[] {
  const rng = mulberry32(opts.seed);
  const radius = opts.radius ?? 0.1;
  const collider = new PrimitiveCollider(roomParts(room).map((p) => p.part));
  const world = motionWorld(collider, radius);
  const vis = new RoomVisibility(room);
  const rule = opts.rule ?? DEFAULT_RULE;
  const minD = Math.max(3, opts.minDistance ?? 3);
  const maxD = opts.maxDistance ?? 10;
  const out: SearchEpisode[] = [];
  for (const q of pickQuestions(generateQuestions(room, { closed: opts.closed === true }), opts.questions ?? Infinity, rng)) {
    let made = 0;
    const answers = (p: Pose) => vis.answerable(p, q.needs, rule);
    for (let t = 0; t < (opts.tries ?? 6) && made < (opts.episodesPerQuestion ?? 1); t++) {
      const start = sphereStart(room, collider, vis, q, radius, answers, rng);
      if (!start) continue;
      // The goal: the nearest answerable view (BFS over the rules' moves); at least minD away,
      // so no view within two actions of the start answers.
      const found = searchAnswerable(world, start, answers, { maxDepth: maxD, maxStates: BFS_STATES, keep: opts.keep ?? 12 });
      if (!found || found.path.length < minD) continue;
      made++;
      out.push({ id: `${q.id}-${made}`, question: q, start, goal: found.goal, answerable: found.answerable, distance: found.path.length });
    }
  }
  return out;
}

/** Up to n questions, one family after another (seeded order within each family). */
export function pickQuestions(qs: readonly Question[], n: number, rng: ReturnType<typeof mulberry32>): Question[] {
  const byFamily = new Map<string, Question[]>();
  for (const q of qs) byFamily.set(q.family, [...(byFamily.get(q.family) ?? []), q]);
  const lists = [...byFamily.values()].map((l) => rng.shuffle([...l]));
  const out: Question[] = [];
  for (let i = 0; out.length < Math.min(n, qs.length); i++) {
    for (const l of lists) if (i < l.length && out.length < n) out.push(l[i]);
  }
  return out;
}

/**
 * Keeps episodes in order while no answer takes more than `share` of its question family (at
 * least one per answer), so the family's most common answer scores at most about `share` blind.
 */
export function balanceAnswers(eps: readonly SearchEpisode[], share = 0.4): SearchEpisode[] {
  const total = new Map<string, number>();
  for (const e of eps) total.set(e.question.family, (total.get(e.question.family) ?? 0) + 1);
  const seen = new Map<string, number>();
  return eps.filter((e) => {
    const fam = e.question.family;
    const key = `${fam}|${String(e.question.answer.correct)}`;
    const cap = Math.max(1, Math.ceil(share * (total.get(fam) ?? 0)));
    const n = seen.get(key) ?? 0;
    if (n >= cap) return false;
    seen.set(key, n + 1);
    return true;
  });
}
