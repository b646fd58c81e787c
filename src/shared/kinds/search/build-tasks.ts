// Authoring of search episodes from a room: each question gets start viewpoints drawn from the
// unanswerable set at a chosen path distance, its goal (nearest answerable viewpoint by BFS) and
// the answerable viewpoints around it; filters drop questions answerable from the start and
// balance the answers so a blind prior cannot win.
// Inputs: a RoomSpec, a seed and options. Output: SearchEpisode[] (plain data for tasks/*.json).
// Invariant: deterministic in (room, seed, options); every episode's start is unanswerable and
// its goal lies within the budget by the same stepPose the rules use.
import { mulberry32 } from '../../math/random';
import { PrimitiveCollider } from './collide';
import type { Pose } from './pose';
import { generateQuestions, type Question } from './questions';
import { roomParts, type RoomSpec } from './room';
import { RoomVisibility, DEFAULT_RULE, type VisibilityRule } from './visibility';
import { motionWorld, searchAnswerable, type MotionWorld } from './world';

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
  /** BFS state cap per start; a start that needs more is skipped. */
  maxStates?: number;
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

export function buildEpisodes(room: RoomSpec, opts: BuildOptions): SearchEpisode[] {
  const rng = mulberry32(opts.seed);
  const radius = opts.radius ?? 0.1;
  const collider = new PrimitiveCollider(roomParts(room).map((p) => p.part));
  const world = motionWorld(collider, radius);
  const vis = new RoomVisibility(room);
  const rule = opts.rule ?? DEFAULT_RULE;
  const minD = opts.minDistance ?? 3;
  const maxD = opts.maxDistance ?? 10;
  const out: SearchEpisode[] = [];
  for (const q of pickQuestions(generateQuestions(room), opts.questions ?? Infinity, rng)) {
    let made = 0;
    for (let t = 0; t < (opts.tries ?? 6) && made < (opts.episodesPerQuestion ?? 1); t++) {
      const start = randomStart(room, collider, radius, rng);
      if (!start || vis.answerable(start, q.needs, rule)) continue;
      const found = searchAnswerable(world, start, (p) => vis.answerable(p, q.needs, rule), { maxDepth: maxD, maxStates: opts.maxStates ?? 60_000 });
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
