// The debugger's up-axis choice for an opened splat file, as pure maths and words: the turn from
// the frame the scene is shown in now to the asked one (so the held scene is turned in place of
// being kept twice), and the one line that says which frame is in use.
// Inputs: signed axes (the file's axis shown as the lab's +Z). Output: a Placement's up and yaw
// (placeSplats applies it) and the frame line. Invariant: placing with relativeTurn(a, b) after
// placing with a equals placing with b (every turn here is one of the cube's 24 rotations).
import { upRotation } from '../formats/placement';
import type { Axis } from '../formats/types';
import type { Mat3 } from '../math/vec3';

const AXIS_OF: Record<string, Axis> = { '1,0,0': '+x', '-1,0,0': '-x', '0,1,0': '+y', '0,-1,0': '-y', '0,0,1': '+z', '0,0,-1': '-z' };

function mulTransposed(a: Readonly<Mat3>, b: Readonly<Mat3>): Mat3 {
  const out = new Array<number>(9).fill(0) as Mat3;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[i * 3 + j] += a[i * 3 + k] * b[j * 3 + k];
  return out;
}

/** The up and yaw that take a scene shown with `from` up to the scene shown with `to` up. */
export function relativeTurn(from: Axis, to: Axis): { up: Axis; yawDeg: number } {
  const rel = mulTransposed(upRotation(to), upRotation(from));
  // The axis the turn sends to +Z is the third row of the (orthogonal) matrix.
  const row = [rel[6], rel[7], rel[8]].map((v) => Math.round(v) + 0);
  const up = AXIS_OF[row.join(',')];
  if (!up) throw new Error(`relativeTurn: ${from} -> ${to} is not an axis turn`);
  const yawM = mulTransposed(rel, upRotation(up));
  const yawDeg = Math.round((Math.atan2(yawM[3], yawM[0]) * 180) / Math.PI / 90) * 90;
  return { up, yawDeg: yawDeg === -180 ? 180 : yawDeg + 0 };
}

/** What the file or the cameras beside it say about up, and the format's usual up. */
export interface FrameEvidence {
  /** Detected up and the reader's line saying how, or null when nothing says. */
  detected: { up: Axis; line: string } | null;
  convention: string;
  /** The format's usual up (never applied unasked), or null. */
  usual: Axis | null;
  /** The stored-frame source of the reader ('file', 'convention', 'guess'). */
  source: string;
}

/** The frame line for a scene shown with the file's `up` as the lab's +Z. */
export function frameLine(up: Axis, chosen: boolean, ev: FrameEvidence): string {
  if (!chosen && ev.detected && ev.detected.up === up) return `up as detected: the file's ${up} is the lab's +Z (${ev.detected.line})`;
  if (up === '+z') return `axes as stored (${ev.convention}; up ${ev.usual ?? 'unknown'}, ${ev.source}): nothing rotated`;
  const usual = ev.usual && ev.usual !== up ? `; the format usually has ${ev.usual} up` : '';
  return `up axis ${up} (chosen): the file's ${up} is turned to the lab's +Z${usual}`;
}
