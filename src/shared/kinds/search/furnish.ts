// The richer furniture of generated rooms (docs/TASKS.md, search section): a chair at the table,
// a checkered rug, a floor lamp, wall signs with a printed word to read, and a captured object
// (any splat file the lab reads) standing behind the cabinet in place of a primitive target.
// Inputs: the room size, the table and cabinet slots, a seeded rng. Output: RoomNodes.
// Invariant: every piece stays off the walkways the generator keeps (the middle band of the
// east and west walls, beside the table) and rests on the floor; deterministic in the rng.
import type { mulberry32 } from '../../math/random';
import type { Part, Vec3 } from '../../authoring/primitives';
import { DOT, labelSize } from './print';
import type { RoomNode } from './room';

type Rng = ReturnType<typeof mulberry32>;
const R4 = (v: number) => Math.round(v * 1e4) / 1e4;
const v3 = (x: number, y: number, z: number): Vec3 => [R4(x), R4(y), R4(z)];
const box = (pos: Vec3, size: Vec3, color: string): Part => ({ kind: 'box', pos, size, color });

/** Words the signs print (letters of ./print.ts); the answer space of sign questions. */
export const SIGN_WORDS = ['EXIT', 'OPEN', 'STOP', 'LAB', 'CAFE', 'MAIL', 'PUSH', 'PULL', 'BOOK', 'TOYS', 'ZONE', 'DESK'] as const;
/** A sign must fill this share of the image (its larger side) for its word to be read. */
export const SIGN_READ_BOX = 0.3;

/** A chair on the room side of the table, its back towards the room. */
export function chairNode(table: { x: number; y: number }, rng: Rng): RoomNode {
  const x = table.x + rng.uniform(-0.3, 0.3), y = table.y + 0.7, col = ['#4f6d7a', '#7a4f5c', '#5c7a4f'][rng.int(3)];
  const parts: Part[] = [box(v3(x, y, 0.45), v3(0.42, 0.42, 0.04), col), box(v3(x, y + 0.19, 0.7), v3(0.42, 0.04, 0.46), col)];
  for (const [dx, dy] of [[-0.18, -0.18], [0.18, -0.18], [-0.18, 0.18], [0.18, 0.18]]) {
    parts.push({ kind: 'cylinder', pos: v3(x + dx, y + dy, 0.215), size: { radius: 0.02, height: 0.43 }, color: '#333333' });
  }
  return { id: 'chair', role: 'furniture', category: 'chair', color: 'grey', parts };
}

/** A thin checkered rug in the middle of the floor. */
export function rugNode(X: number, Y: number, rng: Rng): RoomNode {
  const col = ['#8a3b3b', '#3b5a8a', '#6a6a3b'][rng.int(3)];
  return { id: 'rug', role: 'furniture', category: 'rug', color: 'mixed', texture: 'checker', parts: [box(v3(X / 2, Y / 2, 0.004), v3(1.6, 1.0, 0.008), col)] };
}

/** A floor lamp by the east wall: a pole and a cone shade. */
export function lampNode(X: number, Y: number): RoomNode {
  const x = X - 0.3, y = Y / 2 - 0.7;
  return {
    id: 'lamp', role: 'furniture', category: 'lamp', color: 'white', parts: [
      { kind: 'cylinder', pos: v3(x, y, 0.015), size: { radius: 0.15, height: 0.03 }, color: '#2a2a2a' },
      { kind: 'cylinder', pos: v3(x, y, 0.8), size: { radius: 0.015, height: 1.5 }, color: '#2a2a2a' },
      { kind: 'cone', pos: v3(x, y, 1.62), size: { radius: 0.2, height: 0.3 }, color: '#f2e6c8' },
    ],
  };
}

/** A white plate on the west (x = 0) or east (x = X) wall with a word printed on it. */
export function signNode(wall: 'west' | 'east', X: number, Y: number, word: string): RoomNode {
  const [w, h] = labelSize(word);
  const depth = 0.03;
  const x = wall === 'west' ? depth / 2 : X - depth / 2;
  return {
    id: `sign-${wall}`, role: 'sign', category: 'sign', color: 'white', read_box: SIGN_READ_BOX,
    label: { text: word, normal: [wall === 'west' ? 1 : -1, 0, 0] },
    parts: [box(v3(x, Y / 2 + 0.35, 1.65), v3(depth, R4(w + 3 * DOT), R4(h + 3 * DOT)), '#f4f1e6')],
  };
}

/** A captured object fitted into a 0.32 x 0.32 x 0.45 m box standing on the floor at (x, y). */
export function captureNode(id: string, category: string, color: string, file: string, x: number, y: number, place: RoomNode['place']): RoomNode {
  return { id, role: 'target', category, color, capture: { file }, parts: [box(v3(x, y, 0.225), v3(0.32, 0.32, 0.45), '#808080')], place };
}
