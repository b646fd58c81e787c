// The motion world of a search episode: one action from a pose, with the swept-sphere collision
// test, and breadth-first search over the action graph to the nearest answerable viewpoint.
// Inputs: a Collider, the camera radius, the motion config; a goal predicate for the search.
// Outputs: the next pose (unchanged on a collision), shortest action paths, answerable poses.
// Invariant: stepPose is the only transition; the rules, the BFS, the baselines and replay all
// use it, so a path the BFS finds is replayed by the rules exactly.
import type { Vec3 } from '../../authoring/primitives';
import type { Collider } from './collide';
import { applyMotion, DEFAULT_MOTION, isMove, MOTION_ACTIONS, type MotionAction, type MotionConfig, type Pose } from './pose';

export interface MotionWorld {
  collider: Collider;
  /** Camera sphere radius in metres. */
  radius: number;
  motion: MotionConfig;
}

export const DEFAULT_RADIUS = 0.1;

export function motionWorld(collider: Collider, radius = DEFAULT_RADIUS, motion: MotionConfig = DEFAULT_MOTION): MotionWorld {
  return { collider, radius, motion };
}

export interface PoseStep {
  pose: Pose;
  collided: boolean;
}

export function stepPose(w: MotionWorld, p: Pose, action: MotionAction): PoseStep {
  const next = applyMotion(p, action, w.motion);
  if (!isMove(action)) return { pose: next, collided: false };
  const a: Vec3 = [p.x, p.y, p.z];
  const b: Vec3 = [next.x, next.y, next.z];
  if (w.collider.sweepHits(a, b, w.radius)) return { pose: p, collided: true };
  return { pose: next, collided: false };
}

export interface SearchResult {
  /** Shortest action path to the first answerable pose (empty when the start answers). */
  path: MotionAction[];
  goal: Pose;
  /** Answerable poses at the goal's depth and one level beyond, up to `keep`. */
  answerable: Pose[];
  visited: number;
}

export interface BfsOptions {
  maxDepth: number;
  /** Give up (null) after expanding this many states. */
  maxStates?: number;
  /** Answerable poses to collect. */
  keep?: number;
}

/**
 * BFS from `start` over the 10 motion actions. Returns null when no answerable pose lies within
 * maxDepth actions (or the state cap is hit first).
 */
export function searchAnswerable(w: MotionWorld, start: Pose, answerable: (p: Pose) => boolean, opts: BfsOptions): SearchResult | null {
  const maxStates = opts.maxStates ?? 400_000;
  const keep = opts.keep ?? 24;
  const key = latticeKeyer(start);
  // Parallel arrays indexed by state number: pose, parent state, action taken from the parent.
  const poses: Pose[] = [start];
  const parent: number[] = [-1];
  const via: number[] = [-1];
  const seen = new Map<number, number>([[key(start), 0]]);
  let frontier = [0];
  let found = answerable(start) ? 0 : -1;
  let extraDepth = found === 0 ? 0 : -1;
  const extra: Pose[] = [];
  let depth = 0;
  while (frontier.length && depth < opts.maxDepth && (found < 0 || depth <= extraDepth)) {
    const next: number[] = [];
    for (const i of frontier) {
      const p = poses[i];
      for (let a = 0; a < MOTION_ACTIONS.length; a++) {
        const s = stepPose(w, p, MOTION_ACTIONS[a]);
        if (s.collided) continue;
        const k = key(s.pose);
        if (seen.has(k)) continue;
        const j = poses.length;
        seen.set(k, j);
        poses.push(s.pose);
        parent.push(i);
        via.push(a);
        if (j >= maxStates) return null;
        next.push(j);
        if (answerable(s.pose)) {
          if (found < 0) {
            found = j;
            extraDepth = depth + 1;
          } else if (extra.length < keep) extra.push(s.pose);
        }
      }
    }
    frontier = next;
    depth++;
  }
  if (found < 0) return null;
  const path: MotionAction[] = [];
  for (let j = found; parent[j] >= 0; j = parent[j]) path.unshift(MOTION_ACTIONS[via[j]]);
  return { path, goal: poses[found], answerable: [poses[found], ...extra], visited: poses.length };
}

/**
 * Exact integer keys of the poses one BFS can reach: millimetre offsets from the start in 14 bits
 * per axis (+-8 m) and an index of the (yaw, pitch) pairs met so far in 11 bits, 53 bits in all.
 */
function latticeKeyer(start: Pose): (p: Pose) => number {
  const angles = new Map<number, number>();
  const q = (v: number, s: number) => Math.min(16_383, Math.max(0, Math.round((v - s) * 1000) + 8192));
  return (p) => {
    const ak = Math.round(p.yaw * 1000) * 200_000 + Math.round(p.pitch * 1000) + 90_000;
    let ai = angles.get(ak);
    if (ai === undefined) {
      ai = angles.size;
      if (ai >= 2048) throw new Error('search: more than 2048 headings in one BFS');
      angles.set(ak, ai);
    }
    return ((q(p.x, start.x) * 16_384 + q(p.y, start.y)) * 16_384 + q(p.z, start.z)) * 2048 + ai;
  };
}
