// Shortest action paths to a known viewpoint (docs/TASKS.md, search section): A* over the motion
// lattice from a start to a goal pose, with an admissible heuristic, so that the check and the
// oracle reach starts of any heading without the breadth-first search's state cap.
// Inputs: a MotionWorld, start and goal poses, a depth limit. Output: the action path or null.
// Invariant: moves change the position by exactly one step and turns by exactly one turn, so
// |dpos| / step + yaw gap / turn + pitch gap / turn (each rounded up) never overestimates the
// actions left and the path found is shortest; transitions are stepPose's, as in the rules.
import { angleGap, samePose, type PoseTolerance } from './answerability';
import { MOTION_ACTIONS, poseKey, type MotionAction, type Pose } from './pose';
import { stepPose, type MotionWorld } from './world';

export interface PathOptions {
  maxDepth: number;
  /** Give up (null) after expanding this many poses. */
  maxStates?: number;
}

/** Lower bound on the actions from p to any pose within `tol` of g (tol 0: to g itself). */
export function actionsBound(w: MotionWorld, p: Pose, g: Pose, tol: PoseTolerance = { position: 0, angle: 0 }): number {
  const e = 1e-6;
  const moves = Math.ceil((Math.hypot(p.x - g.x, p.y - g.y, p.z - g.z) - tol.position) / w.motion.step - e);
  const yaw = Math.ceil((angleGap(p.yaw, g.yaw) - tol.angle) / w.motion.turn - e);
  const pitch = Math.ceil((Math.abs(p.pitch - g.pitch) - tol.angle) / w.motion.turn - e);
  return Math.max(0, moves) + Math.max(0, yaw) + Math.max(0, pitch);
}

/** Binary heap of (priority, state) pairs, smallest first. */
class Heap {
  private readonly keys: number[] = [];
  private readonly vals: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  push(k: number, v: number): void {
    let i = this.keys.length;
    this.keys.push(k);
    this.vals.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.keys[p] <= k) break;
      this.keys[i] = this.keys[p];
      this.vals[i] = this.vals[p];
      i = p;
    }
    this.keys[i] = k;
    this.vals[i] = v;
  }
  pop(): number {
    const top = this.vals[0];
    const k = this.keys.pop()!, v = this.vals.pop()!;
    if (this.keys.length) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i, mk = k;
        if (l < this.keys.length && this.keys[l] < mk) { m = l; mk = this.keys[l]; }
        if (r < this.keys.length && this.keys[r] < mk) m = r;
        if (m === i) break;
        this.keys[i] = this.keys[m];
        this.vals[i] = this.vals[m];
        i = m;
      }
      this.keys[i] = k;
      this.vals[i] = v;
    }
    return top;
  }
}

/** A* from start to the goal pose (same lattice key); null when no path within maxDepth actions. */
export function pathTo(w: MotionWorld, start: Pose, goal: Pose, opts: PathOptions): MotionAction[] | null {
  const target = poseKey(goal);
  return astar(w, start, (p, key) => key === target, (p) => actionsBound(w, p, goal), opts)?.path ?? null;
}

/**
 * A* from start to the nearest pose within `tol` of one of `goals` (an annotation's marked
 * viewpoints, which need not lie on the start's lattice): the path and the pose it reaches.
 */
export function pathNear(w: MotionWorld, start: Pose, goals: readonly Pose[], tol: PoseTolerance, opts: PathOptions): { path: MotionAction[]; goal: Pose } | null {
  if (!goals.length) return null;
  return astar(w, start, (p) => goals.some((g) => samePose(p, g, tol)), (p) => Math.min(...goals.map((g) => actionsBound(w, p, g, tol))), opts);
}

function astar(w: MotionWorld, start: Pose, isGoal: (p: Pose, key: string) => boolean, bound: (p: Pose) => number, opts: PathOptions): { path: MotionAction[]; goal: Pose } | null {
  const maxStates = opts.maxStates ?? 2_000_000;
  const poses: Pose[] = [start];
  const depth: number[] = [0];
  const parent: number[] = [-1];
  const via: number[] = [-1];
  const best = new Map<string, number>([[poseKey(start), 0]]);
  const open = new Heap();
  // Ties go to the deeper state (closer to the goal), which finds the path with fewer expansions.
  const prio = (g: number, h: number) => (g + h) * 64 - Math.min(63, g);
  open.push(prio(0, bound(start)), 0);
  let expanded = 0;
  while (open.size) {
    const i = open.pop();
    const p = poses[i];
    const key = poseKey(p);
    if (best.get(key) !== i) continue;
    if (isGoal(p, key)) {
      const path: MotionAction[] = [];
      for (let j = i; parent[j] >= 0; j = parent[j]) path.unshift(MOTION_ACTIONS[via[j]]);
      return { path, goal: p };
    }
    if (++expanded > maxStates) return null;
    const g = depth[i] + 1;
    if (g > opts.maxDepth) continue;
    for (let a = 0; a < MOTION_ACTIONS.length; a++) {
      const s = stepPose(w, p, MOTION_ACTIONS[a]);
      if (s.collided) continue;
      const h = bound(s.pose);
      if (g + h > opts.maxDepth) continue;
      const k = poseKey(s.pose);
      const old = best.get(k);
      if (old !== undefined && depth[old] <= g) continue;
      const j = poses.length;
      poses.push(s.pose);
      depth.push(g);
      parent.push(i);
      via.push(a);
      best.set(k, j);
      open.push(prio(g, h), j);
    }
  }
  return null;
}
