// The motion world of a search episode: one action from a pose, with the swept-sphere collision
// test, and breadth-first search over the action graph to the nearest answerable viewpoint.
// Inputs: a Collider, the camera radius, the motion config; a goal predicate for the search.
// Outputs: the next pose (unchanged on a collision), shortest action paths, answerable poses.
// Invariant: stepPose is the only transition; the rules, the BFS, the baselines and replay all
// use it, so a path the BFS finds is replayed by the rules exactly.
import type { Vec3 } from '../authoring/primitives';
import type { Collider } from './collide';
import { applyMotion, DEFAULT_MOTION, isMove, MOTION_ACTIONS, poseKey, type MotionAction, type MotionConfig, type Pose } from './pose';

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
  const parent = new Map<string, { from: string; action: MotionAction } | null>();
  const poses = new Map<string, Pose>();
  const k0 = poseKey(start);
  parent.set(k0, null);
  poses.set(k0, start);
  let frontier = [k0];
  let found: string | null = null;
  const extra: Pose[] = [];
  let depth = 0;
  if (answerable(start)) found = k0;
  let extraDepth = found ? 0 : -1;
  while (frontier.length && depth < opts.maxDepth && (found === null || depth <= extraDepth)) {
    const next: string[] = [];
    for (const k of frontier) {
      const p = poses.get(k)!;
      for (const action of MOTION_ACTIONS) {
        const s = stepPose(w, p, action);
        if (s.collided) continue;
        const nk = poseKey(s.pose);
        if (parent.has(nk)) continue;
        parent.set(nk, { from: k, action });
        poses.set(nk, s.pose);
        if (parent.size > maxStates) return null;
        next.push(nk);
        if (answerable(s.pose)) {
          if (found === null) {
            found = nk;
            extraDepth = depth + 1;
          } else if (extra.length < keep) extra.push(s.pose);
        }
      }
    }
    frontier = next;
    depth++;
  }
  if (found === null) return null;
  const path: MotionAction[] = [];
  for (let k: string = found, e = parent.get(k); e; k = e.from, e = parent.get(k)) path.unshift(e.action);
  const goal = poses.get(found)!;
  return { path, goal, answerable: [goal, ...extra], visited: parent.size };
}
