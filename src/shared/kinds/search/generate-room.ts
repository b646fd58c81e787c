// Seeded generator of procedural rooms for search tasks: four walls, a plank floor and ceiling, a
// table (thin legs) with a chair, a shelf, an open bin, a striped cabinet standing off a wall, a
// rug, a lamp, signs with printed words (./furnish.ts), and small target objects placed on,
// inside, under, behind and stacked on top of each other (behind the cabinet optionally a
// captured object instead).
// Inputs: an integer seed. Output: a RoomSpec (validated). Invariant: the same seed gives the same
// room on every platform (mulberry32 only); furniture footprints never overlap and keep a free
// walkway to the walls; every target rests on its support (no floating objects).
import { mulberry32 } from '../../math/random';
import type { Part, Vec3 } from '../../authoring/primitives';
import { COLOR_NAMES, RoomSpecSchema, type RoomNode, type RoomSpec } from './room';
import { captureNode, chairNode, lampNode, rugNode, signNode, SIGN_WORDS } from './furnish';

const H = 2.6;
const WALL = 0.1;
const R4 = (v: number) => Math.round(v * 1e4) / 1e4;
const v3 = (x: number, y: number, z: number): Vec3 => [R4(x), R4(y), R4(z)];

interface Slot { x: number; y: number }

const TARGET_KINDS = [
  { category: 'ball', shape: 'sphere' },
  { category: 'cube', shape: 'cube' },
  { category: 'mug', shape: 'cylinder' },
  { category: 'cone', shape: 'cone' },
] as const;

export interface RoomOptions {
  /** A captured object (splat file inside the tasks folder) put behind the cabinet. */
  prop?: { file: string; category: string; color: string };
}

export function generateRoom(seed: number, opts: RoomOptions = {}): RoomSpec {
  const rng = mulberry32(seed);
  const X = R4(rng.uniform(4.2, 5.6)), Y = R4(rng.uniform(4.2, 5.2));
  const nodes: RoomNode[] = structure(X, Y);
  const wallGrey = ['#d8d4cc', '#cfd6dc', '#dcd2c8'][rng.int(3)];
  nodes.forEach((n) => n.parts.forEach((p) => { if (n.id.startsWith('wall')) p.color = wallGrey; }));
  // Table and bin take the two south corners, shelf and cabinet the north wall, sides seeded.
  const south: Slot[] = rng.shuffle([{ x: 1.1, y: 1.0 }, { x: X - 1.1, y: 1.0 }]);
  const north: Slot[] = rng.shuffle([{ x: 1.1, y: Y - 1.0 }, { x: X - 1.1, y: Y - 1.0 }]);
  const [table, bin] = south;
  const [shelf, cab] = north;
  nodes.push(tableNode(table));
  nodes.push(binNode(bin));
  nodes.push(shelfNode(shelf, Y));
  nodes.push(cabinetNode(cab, Y));
  nodes.push(chairNode(table, rng), rugNode(X, Y, rng), lampNode(X, Y));
  const words = rng.shuffle([...SIGN_WORDS]);
  nodes.push(signNode('west', X, Y, words[0]));
  if (rng.next() < 0.5) nodes.push(signNode('east', X, Y, words[1]));
  const colors = rng.shuffle(Object.keys(COLOR_NAMES));
  let ci = 0;
  const nextColor = () => colors[ci++ % colors.length];
  let count = 0;
  const target = (kind: (typeof TARGET_KINDS)[number], at: Vec3, scale: number, place: RoomNode['place']): RoomNode => {
    const color = nextColor();
    count++;
    return { id: `${kind.category}-${count}`, role: 'target', category: kind.category, color, shape: kind.shape, parts: [targetPart(kind.shape, at, scale, color)], place };
  };
  const pick = () => TARGET_KINDS[rng.int(TARGET_KINDS.length)];
  const tableTop = 0.77;
  // On the table: two objects, one a stack of two cubes.
  const s1 = rng.uniform(0.05, 0.07);
  const baseCube = target(TARGET_KINDS[1], v3(table.x - 0.3, table.y, tableTop), s1, { relation: 'on', of: 'table' });
  nodes.push(baseCube);
  nodes.push(target(pick(), v3(table.x - 0.3, table.y, tableTop + 2 * s1), rng.uniform(0.04, 0.06), { relation: 'on', of: baseCube.id }));
  nodes.push(target(pick(), v3(table.x + 0.3, table.y + rng.uniform(-0.15, 0.15), tableTop), rng.uniform(0.05, 0.08), { relation: 'on', of: 'table' }));
  // Under the table, inside the bin, behind the cabinet, on the shelf.
  nodes.push(target(pick(), v3(table.x, table.y, 0), rng.uniform(0.06, 0.09), { relation: 'under', of: 'table' }));
  nodes.push(target(pick(), v3(bin.x, bin.y, 0.02), rng.uniform(0.05, 0.07), { relation: 'inside', of: 'bin' }));
  const behind = target(pick(), v3(cab.x, Y - 0.2, 0), rng.uniform(0.05, 0.07), { relation: 'behind', of: 'cabinet' });
  nodes.push(opts.prop ? captureNode(`${opts.prop.category}-${count}`, opts.prop.category, opts.prop.color, opts.prop.file, cab.x, Y - 0.2, { relation: 'behind', of: 'cabinet' }) : behind);
  nodes.push(target(pick(), v3(shelf.x + rng.uniform(-0.3, 0.3), Y - 0.2, 0.92), rng.uniform(0.05, 0.07), { relation: 'on', of: 'shelf' }));
  if (rng.next() < 0.6) nodes.push(target(pick(), v3(shelf.x + 0.3, Y - 0.2, 0.42), rng.uniform(0.05, 0.07), { relation: 'on', of: 'shelf' }));
  return RoomSpecSchema.parse({ name: `room-${seed >>> 0}`, seed, size: [X, Y, H], nodes, splat: { spacing: 0.05, shading: 'shaded' } });
}

function box(pos: Vec3, size: Vec3, color: string): Part {
  return { kind: 'box', pos, size, color };
}

function structure(X: number, Y: number): RoomNode[] {
  const s = (id: string, category: string, color: string, part: Part): RoomNode => ({ id, role: 'structure', category, color, parts: [part] });
  return [
    { ...s('floor', 'floor', 'brown', box(v3(X / 2, Y / 2, -WALL / 2), v3(X + 2 * WALL, Y + 2 * WALL, WALL), '#8a6a4a')), texture: 'planks' },
    s('ceiling', 'ceiling', 'white', box(v3(X / 2, Y / 2, H + WALL / 2), v3(X + 2 * WALL, Y + 2 * WALL, WALL), '#f2f2ee')),
    s('wall-south', 'wall', 'grey', box(v3(X / 2, -WALL / 2, H / 2), v3(X + 2 * WALL, WALL, H), '#d8d4cc')),
    s('wall-north', 'wall', 'grey', box(v3(X / 2, Y + WALL / 2, H / 2), v3(X + 2 * WALL, WALL, H), '#d8d4cc')),
    s('wall-west', 'wall', 'grey', box(v3(-WALL / 2, Y / 2, H / 2), v3(WALL, Y, H), '#d8d4cc')),
    s('wall-east', 'wall', 'grey', box(v3(X + WALL / 2, Y / 2, H / 2), v3(WALL, Y, H), '#d8d4cc')),
  ];
}

function tableNode(c: Slot): RoomNode {
  const parts: Part[] = [box(v3(c.x, c.y, 0.75), v3(1.2, 0.7, 0.04), '#a0703c')];
  for (const [dx, dy] of [[-0.55, -0.3], [0.55, -0.3], [-0.55, 0.3], [0.55, 0.3]]) {
    parts.push({ kind: 'cylinder', pos: v3(c.x + dx, c.y + dy, 0.365), size: { radius: 0.025, height: 0.73 }, color: '#6e4a26' });
  }
  return { id: 'table', role: 'furniture', category: 'table', color: 'brown', parts };
}

/** Open-top bin: four thin walls and a bottom, so an object inside is seen only from above. */
function binNode(c: Slot): RoomNode {
  const w = 0.4, h = 0.4, t = 0.02, col = '#3a6f8f';
  const parts: Part[] = [
    box(v3(c.x, c.y, t / 2), v3(w, w, t), col),
    box(v3(c.x - w / 2 + t / 2, c.y, h / 2), v3(t, w, h), col),
    box(v3(c.x + w / 2 - t / 2, c.y, h / 2), v3(t, w, h), col),
    box(v3(c.x, c.y - w / 2 + t / 2, h / 2), v3(w - 2 * t, t, h), col),
    box(v3(c.x, c.y + w / 2 - t / 2, h / 2), v3(w - 2 * t, t, h), col),
  ];
  return { id: 'bin', role: 'furniture', category: 'bin', color: 'blue', parts };
}

/** Shelf against the north wall: two side boards and boards at 0.4 m and 0.9 m. */
function shelfNode(c: Slot, Y: number): RoomNode {
  const y = Y - 0.2, col = '#7a5a3a';
  const parts: Part[] = [
    box(v3(c.x - 0.5, y, 0.6), v3(0.03, 0.36, 1.2), col),
    box(v3(c.x + 0.5, y, 0.6), v3(0.03, 0.36, 1.2), col),
    box(v3(c.x, y, 0.4), v3(0.97, 0.36, 0.04), col),
    box(v3(c.x, y, 0.9), v3(0.97, 0.36, 0.04), col),
  ];
  return { id: 'shelf', role: 'furniture', category: 'shelf', color: 'brown', parts };
}

/** A tall cabinet 0.45 m off the north wall: what stands between them is hidden from the room. */
function cabinetNode(c: Slot, Y: number): RoomNode {
  return { id: 'cabinet', role: 'furniture', category: 'cabinet', color: 'grey', texture: 'stripes', parts: [box(v3(c.x, Y - 0.4 - 0.25, 0.6), v3(0.9, 0.5, 1.2), '#5c5c66')] };
}

/** A small target of a shape standing on z = base (scale: its radius or half side). */
function targetPart(shape: string, at: Vec3, s: number, color: string): Part {
  const rgb = COLOR_NAMES[color];
  const z = (h: number) => R4(at[2] + h / 2);
  if (shape === 'sphere') return { kind: 'sphere', pos: [at[0], at[1], z(2 * s)], size: R4(s), color: rgb };
  if (shape === 'cube') return { kind: 'box', pos: [at[0], at[1], z(2 * s)], size: v3(2 * s, 2 * s, 2 * s), color: rgb };
  if (shape === 'cylinder') return { kind: 'cylinder', pos: [at[0], at[1], z(2.2 * s)], size: { radius: R4(0.8 * s), height: R4(2.2 * s) }, color: rgb };
  return { kind: 'cone', pos: [at[0], at[1], z(2.6 * s)], size: { radius: R4(s), height: R4(2.6 * s) }, color: rgb };
}
