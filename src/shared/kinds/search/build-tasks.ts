// Authoring of search episodes from a room: each question gets an answerable goal view and a start
// walked away from it (goal first, so any start the generator makes has a known path), the
// answerable viewpoints around the goal; filters drop starts with an answerable view within two
// actions and balance the answers so a blind prior cannot win.
// Inputs: a RoomSpec, a seed and options. Output: SearchEpisode[] (plain data for tasks/*.json).
// Invariant: deterministic in (room, seed, options); every episode's start is unanswerable and
// its goal lies within maxDistance actions by the same stepPose the rules use.
import { mulberry32 } from '../../math/random';
import { PrimitiveCollider } from './collide';
import { pathTo } from './astar';
import { MOTION_ACTIONS, poseKey, viewDirection, type Pose } from './pose';
import { generateQuestions, type Question } from './questions';
import { findNode, nodeAabb, roomParts, type RoomSpec } from './room';
import { RoomVisibility, DEFAULT_RULE, type VisibilityRule } from './visibility';
import { motionWorld, stepPose, type MotionWorld } from './world';

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
}

export function roomWorld(room: RoomSpec, radius?: number): MotionWorld {
  return motionWorld(new PrimitiveCollider(roomParts(room).map((p) => p.part)), radius);
}

const HEIGHTS = [0.5, 0.75, 1.0, 1.25, 1.5, 1.75];

/** A random collision-free pose on the action lattice's headings (yaw multiple of 30, pitch 0 or -30). */
export function randomStart(room: RoomSpec, collider: PrimitiveCollider, radius: number, rng: ReturnType<typeof mulberry32>): Pose | null {
  for (let i = 0; i < 50; i++) {
    const p: Pose = {
      x: Math.round(rng.uniform(0.3, room.size[0] - 0.3) * 100) / 100,
      y: Math.round(rng.uniform(0.3, room.size[1] - 0.3) * 100) / 100,
      z: HEIGHTS[rng.int(HEIGHTS.length)],
      yaw: 30 * rng.int(12),
      pitch: rng.next() < 0.5 ? 0 : -30,
    };
    if (collider.distance([p.x, p.y, p.z]) > radius) return p;
  }
  return null;
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

const PITCHES = [0, -30, -60, 30];

/** An answerable view of the question: looking at its objects from 0.5..2 m on the lattice's headings, or null. */
function sampleGoal(room: RoomSpec, collider: PrimitiveCollider, vis: RoomVisibility, q: Question, radius: number, rule: VisibilityRule, rng: Rng): Pose | null {
  const c = needsCentre(room, q.needs);
  for (let i = 0; i < 40; i++) {
    const pose: Pose = { x: 0, y: 0, z: 0, yaw: 30 * rng.int(12), pitch: PITCHES[rng.int(PITCHES.length)] };
    const [dx, dy, dz] = viewDirection(pose);
    const d = rng.uniform(0.5, 2);
    const r2 = (v: number) => Math.round(v * 100) / 100;
    pose.x = r2(c[0] - d * dx);
    pose.y = r2(c[1] - d * dy);
    pose.z = r2(c[2] - d * dz);
    if (pose.x < 0.2 || pose.y < 0.2 || pose.z < 0.3 || pose.x > room.size[0] - 0.2 || pose.y > room.size[1] - 0.2 || pose.z > room.size[2] - 0.3) continue;
    if (collider.distance([pose.x, pose.y, pose.z]) <= radius) continue;
    if (vis.answerable(pose, q.needs, rule)) return pose;
  }
  return null;
}

/** Poses one action away (collision-free, changed). */
function neighbours(w: MotionWorld, p: Pose): Pose[] {
  const out: Pose[] = [];
  for (const a of MOTION_ACTIONS) {
    const s = stepPose(w, p, a);
    if (!s.collided && poseKey(s.pose) !== poseKey(p)) out.push(s.pose);
  }
  return out;
}

/**
 * Episodes made goal first: an answerable view of the question is sampled, a seeded random walk of
 * minDistance..maxDistance collision-free actions leads away from it to the start, the start is kept
 * when no view within two actions of it answers (so the shortest path is at least 3), and the
 * shortest path back is found by A* (./astar.ts). Moves are reversible and sweeps symmetric, so the
 * walk's start always reaches its goal through the same stepPose the rules use.
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
  for (const q of pickQuestions(generateQuestions(room), opts.questions ?? Infinity, rng)) {
    let made = 0;
    const answers = (p: Pose) => vis.answerable(p, q.needs, rule);
    for (let t = 0; t < (opts.tries ?? 6) && made < (opts.episodesPerQuestion ?? 1); t++) {
      const goal = sampleGoal(room, collider, vis, q, radius, rule, rng);
      if (!goal) continue;
      let start = goal;
      const steps = minD + rng.int(maxD - minD + 1);
      for (let k = 0; k < steps; k++) {
        const next = neighbours(world, start);
        if (!next.length) break;
        // Two steps in three leave the answerable views where they can, so starts need looking for.
        const away = next.filter((p) => !answers(p));
        start = rng.next() < 0.67 && away.length ? away[rng.int(away.length)] : next[rng.int(next.length)];
      }
      const ring1 = neighbours(world, start);
      if (answers(start) || ring1.some(answers) || ring1.some((p) => neighbours(world, p).some(answers))) continue;
      const path = pathTo(world, start, goal, { maxDepth: maxD });
      if (!path || path.length < minD) continue;
      made++;
      const around = neighbours(world, goal).filter(answers).slice(0, opts.keep ?? 12);
      out.push({ id: `${q.id}-${made}`, question: q, start, goal, answerable: [goal, ...around], distance: path.length });
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
