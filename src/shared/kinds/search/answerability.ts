// Answerability of a viewpoint, whatever decides it (docs/DESIGN.md section 9): the visibility
// rule on exact primitives for procedural rooms (RoomVisibility), or the annotators' marks for
// captured rooms (MarkedAnswerability): a pose answers when it lies within the pose tolerance of
// an agreed answerable viewpoint. Inputs: poses, a tolerance. Output: the verdict.
// Invariant: both are pure functions of the pose, so episodes, the BFS check, the baselines and
// regrading agree on every viewpoint.
import type { Pose } from './pose';

export interface Answerability {
  /** True when the view from `pose` answers the question that needs `needs`. */
  answerable(pose: Pose, needs: readonly string[]): boolean;
}

/** How close a pose must be to a marked one to count as the same viewpoint. */
export interface PoseTolerance {
  /** Metres between the viewpoints. */
  position: number;
  /** Degrees of yaw and of pitch, each. */
  angle: number;
}
/** Half a move and half a turn: the lattice neighbours of a marked pose are other viewpoints. */
export const DEFAULT_TOLERANCE: PoseTolerance = { position: 0.125, angle: 15 };

/** Smallest absolute difference of two angles in degrees (0..180). */
export function angleGap(a: number, b: number): number {
  const d = Math.abs((((a - b) % 360) + 540) % 360 - 180);
  return d;
}

export function samePose(a: Pose, b: Pose, tol: PoseTolerance = DEFAULT_TOLERANCE): boolean {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) <= tol.position + 1e-9
    && angleGap(a.yaw, b.yaw) <= tol.angle + 1e-9 && Math.abs(a.pitch - b.pitch) <= tol.angle + 1e-9;
}

export class MarkedAnswerability implements Answerability {
  constructor(private readonly marked: readonly Pose[], private readonly tol: PoseTolerance = DEFAULT_TOLERANCE) {}

  answerable(pose: Pose): boolean {
    return this.marked.some((m) => samePose(pose, m, this.tol));
  }
}
