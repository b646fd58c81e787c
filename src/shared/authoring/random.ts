// Seeded generator of random multi-object scenes for training tasks: two to four stacks of
// primitives standing on the ground (z = -0.99) in separate quadrants of the bounds cube.
// Inputs: an integer seed and the allowed part count. Output: a validated ProceduralObject.
// Invariant: the same seed and options give the same scene on every platform (mulberry32 only),
// every part stays inside [-1, 1]^3 and different stacks never touch.
import { mulberry32, type Random } from '../math/random';
import { parseObject, type Part, type ProceduralObject, type Vec3 } from './primitives';

export interface RandomSceneOptions {
  minParts?: number; // default 4
  maxParts?: number; // default 12
}

/** Each stack stays within this distance (XY) of its slot centre... */
const FOOTPRINT = 0.4;
/** ...and slot centres sit at (+-SLOT, +-SLOT) plus a jitter, so stacks never leave the cube. */
const SLOT = 0.5;
const JITTER = 0.08;
const GROUND = -0.99;
const CEILING = 0.97;
/** Consecutive parts of a stack interpenetrate by this much, so no visible faces are coplanar. */
const OVERLAP = 0.02;
const MAX_OBJECTS = 4;
const MAX_PARTS = 64;

export function randomScene(seed: number, opts: RandomSceneOptions = {}): ProceduralObject {
  const minParts = opts.minParts ?? 4;
  const maxParts = opts.maxParts ?? Math.max(12, minParts);
  if (!Number.isInteger(minParts) || !Number.isInteger(maxParts) || minParts < 1 || maxParts < minParts || maxParts > MAX_PARTS) {
    throw new Error(`randomScene: need integers 1 <= minParts <= maxParts <= ${MAX_PARTS} (got ${minParts}, ${maxParts})`);
  }
  const rng = mulberry32(seed);
  const total = minParts + rng.int(maxParts - minParts + 1);
  const objects = Math.min(total, 2 + rng.int(MAX_OBJECTS - 1));
  // Every stack gets one part, the rest are dealt at random.
  const counts = new Array<number>(objects).fill(1);
  for (let i = objects; i < total; i++) counts[rng.int(objects)]++;
  const slots = rng.shuffle([[1, 1], [-1, 1], [-1, -1], [1, -1]]);
  const parts: Part[] = [];
  counts.forEach((n, k) => {
    const centre: [number, number] = [
      slots[k][0] * SLOT + rng.uniform(-JITTER, JITTER),
      slots[k][1] * SLOT + rng.uniform(-JITTER, JITTER),
    ];
    parts.push(...stack(rng, centre, n, `object ${k + 1}`));
  });
  return parseObject({ name: `random-${seed >>> 0}`, parts });
}

/**
 * n parts piled up from the ground around an XY centre, narrowing on the way up. Each part's
 * centre lies over its support (within half the smaller radius), so nothing hangs in the air.
 */
function stack(rng: Random, centre: [number, number], n: number, group: string): Part[] {
  const out: Part[] = [];
  const color = randomColor(rng);
  let base = GROUND;
  let radius = rng.uniform(0.2, 0.38);
  let x = centre[0];
  let y = centre[1];
  let support = radius;
  const share = (CEILING - GROUND) / n;
  for (let i = 0; i < n; i++) {
    const height = Math.min(0.6, share * rng.uniform(0.6, 1));
    // A cone has no flat top, so it may only end a stack.
    const kinds = i === n - 1 ? ['sphere', 'box', 'cylinder', 'cone'] as const : ['sphere', 'box', 'cylinder'] as const;
    const kind = kinds[rng.int(kinds.length)];
    if (i > 0) {
      const a = rng.uniform(0, 2 * Math.PI);
      const off = 0.5 * Math.min(support, radius) * Math.sqrt(rng.next());
      [x, y] = keepInFootprint(centre, x + off * Math.cos(a), y + off * Math.sin(a), radius);
    }
    const tint = i % 2 === 1 ? randomColor(rng) : color;
    out.push(makePart(rng, kind, [x, y, base], radius, height, tint, group));
    base += height - OVERLAP;
    support = radius;
    radius = Math.min(0.38, Math.max(0.1, radius * rng.uniform(0.6, 1.05)));
  }
  return out;
}

/** Pulls (x, y) towards the stack centre until a disk of `radius` there fits in the footprint. */
function keepInFootprint(centre: [number, number], x: number, y: number, radius: number): [number, number] {
  const dx = x - centre[0];
  const dy = y - centre[1];
  const d = Math.hypot(dx, dy);
  const max = FOOTPRINT - radius;
  if (d <= max) return [x, y];
  return [centre[0] + (dx * max) / d, centre[1] + (dy * max) / d];
}

/** A part whose footprint fits in a disk of `radius` around (x, y) and spans [z, z + height]. */
function makePart(rng: Random, kind: Part['kind'], at: Vec3, radius: number, height: number, color: Vec3, group: string): Part {
  const z = at[2] + height / 2;
  const pos: Vec3 = [round(at[0]), round(at[1]), round(z)];
  const r = round(radius);
  const h = round(height);
  if (kind === 'sphere') {
    // Squashed or stretched balls read as different shapes from plain spheres.
    return { kind, pos, size: [r, r, round(height / 2)], color, group };
  }
  if (kind === 'box') {
    const a = rng.uniform(Math.PI / 6, Math.PI / 3);
    const size: Vec3 = [round(2 * radius * Math.cos(a)), round(2 * radius * Math.sin(a)), h];
    return { kind, pos, rot: [0, 0, round(rng.uniform(0, 90))], size, color, group };
  }
  return { kind, pos, size: { radius: r, height: h }, color, group };
}

/** A saturated colour far from white, so every part stands out on the white background. */
function randomColor(rng: Random): Vec3 {
  const hue = rng.uniform(0, 6);
  const s = rng.uniform(0.55, 0.9);
  const v = rng.uniform(0.5, 0.9);
  const c = v * s;
  const x = c * (1 - Math.abs((hue % 2) - 1));
  const [r, g, b] = hue < 1 ? [c, x, 0] : hue < 2 ? [x, c, 0] : hue < 3 ? [0, c, x] : hue < 4 ? [0, x, c] : hue < 5 ? [x, 0, c] : [c, 0, x];
  const m = v - c;
  return [round(r + m), round(g + m), round(b + m)];
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
