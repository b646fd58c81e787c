// The 5-DoF viewpoint of a search episode and its ten motion actions (docs/DESIGN.md section 9).
// Inputs: a Pose (metres, degrees; Z up; yaw from +X towards +Y; pitch up positive) and an
// action name. Outputs: the candidate next pose and the camera (OpenCV axes) of a pose.
// Invariant: moves are 0.25 m along the heading projected on the floor plane (forward/back,
// left/right) or along world Z (up/down); turns change yaw by 30 degrees (kept in [0, 360));
// look_up/look_down change pitch by 30 degrees and clamp to the configured range. Nothing here
// knows about collisions: the rules test the swept segment before accepting a move.
import type { Camera } from '../../raster/types';

export interface Pose {
  x: number;
  y: number;
  z: number;
  yaw: number;
  pitch: number;
}

export const MOVE_ACTIONS = ['move_forward', 'move_back', 'move_left', 'move_right', 'move_up', 'move_down'] as const;
export const TURN_ACTIONS = ['turn_left', 'turn_right', 'look_up', 'look_down'] as const;
export const MOTION_ACTIONS = [...MOVE_ACTIONS, ...TURN_ACTIONS] as const;
export type MotionAction = (typeof MOTION_ACTIONS)[number];

export interface MotionConfig {
  step: number; // metres, 0.25
  turn: number; // degrees, 30
  pitchMin: number; // degrees, -60
  pitchMax: number; // degrees, 60
}
export const DEFAULT_MOTION: MotionConfig = { step: 0.25, turn: 30, pitchMin: -60, pitchMax: 60 };

const DEG = Math.PI / 180;

/** Rounds to 1e-9 so that long walks stay on the exact lattice the BFS keys on. */
function snap(v: number): number {
  return Math.round(v * 1e9) / 1e9;
}

function wrapYaw(y: number): number {
  const w = ((y % 360) + 360) % 360;
  return snap(w === 360 ? 0 : w);
}

/** The pose an action leads to when nothing is in the way. */
export function applyMotion(p: Pose, action: MotionAction, cfg: MotionConfig = DEFAULT_MOTION): Pose {
  const h = p.yaw * DEG;
  const fx = Math.cos(h), fy = Math.sin(h);
  const move = (dx: number, dy: number, dz: number): Pose =>
    ({ ...p, x: snap(p.x + cfg.step * dx), y: snap(p.y + cfg.step * dy), z: snap(p.z + cfg.step * dz) });
  switch (action) {
    case 'move_forward': return move(fx, fy, 0);
    case 'move_back': return move(-fx, -fy, 0);
    // Left of a heading (fx, fy) in a Z-up frame is (-fy, fx).
    case 'move_left': return move(-fy, fx, 0);
    case 'move_right': return move(fy, -fx, 0);
    case 'move_up': return move(0, 0, 1);
    case 'move_down': return move(0, 0, -1);
    case 'turn_left': return { ...p, yaw: wrapYaw(p.yaw + cfg.turn) };
    case 'turn_right': return { ...p, yaw: wrapYaw(p.yaw - cfg.turn) };
    case 'look_up': return { ...p, pitch: Math.min(cfg.pitchMax, p.pitch + cfg.turn) };
    case 'look_down': return { ...p, pitch: Math.max(cfg.pitchMin, p.pitch - cfg.turn) };
  }
}

export function isMove(action: MotionAction): boolean {
  return (MOVE_ACTIONS as readonly string[]).includes(action);
}

/** Unit view direction of a pose. */
export function viewDirection(p: Pose): [number, number, number] {
  const h = p.yaw * DEG, v = p.pitch * DEG;
  return [Math.cos(v) * Math.cos(h), Math.cos(v) * Math.sin(h), Math.sin(v)];
}

/** Square pinhole camera at the pose with the given horizontal FOV (default 512 px, 90 degrees). */
export function poseCamera(p: Pose, size = 512, hfovDeg = 90): Camera {
  const f = viewDirection(p);
  const h = p.yaw * DEG;
  // Camera +X (right) stays horizontal because there is no roll; +Y (down) = forward x right.
  const r: [number, number, number] = [Math.sin(h), -Math.cos(h), 0];
  const d: [number, number, number] = [f[1] * r[2] - f[2] * r[1], f[2] * r[0] - f[0] * r[2], f[0] * r[1] - f[1] * r[0]];
  const c = [p.x, p.y, p.z];
  const t = (row: number[]) => -(row[0] * c[0] + row[1] * c[1] + row[2] * c[2]);
  const focal = (0.5 * size) / Math.tan(0.5 * hfovDeg * DEG);
  return {
    width: size, height: size, fx: focal, fy: focal, cx: size / 2, cy: size / 2,
    world_to_camera: [...r, t(r), ...d, t(d), ...f, t(f), 0, 0, 0, 1],
  };
}

/** Key of a pose on the action lattice (millimetres and whole degrees), for BFS and dedup. */
export function poseKey(p: Pose): string {
  return `${Math.round(p.x * 1000)},${Math.round(p.y * 1000)},${Math.round(p.z * 1000)},${Math.round(p.yaw)},${Math.round(p.pitch)}`;
}
