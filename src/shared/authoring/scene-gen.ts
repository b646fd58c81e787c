// Seeded random multi-object scenes: objects drawn from a library (the built-ins and any authored
// object), each scaled, turned about the vertical axis and recoloured at random, stood on the
// ground plane and placed so no two objects' footprints overlap.
// Inputs: a seed, a library of ProceduralObjects (or of Gaussian objects: fits and imports) and
// options. Output: one validated ProceduralObject whose parts are grouped per placed object (or
// the composed Gaussians, grouped the same way), plus what was placed.
// Invariant: the same seed, library and options give the same scene on every platform
// (mulberry32 and IEEE arithmetic only); every part stays inside the bounds cube and the
// footprint circles of different objects are at least `gap` apart.
import { mulberry32, type Random } from '../math/random';
import { quatAboutZ, quatMultiply, quatNormalize } from '../math/quaternion';
import type { GaussianRecord } from '../scene/gaussian';
import { partAabb } from './geometry';
import { colorRgb, parseObject, type Part, type ProceduralObject, type Vec3 } from './primitives';

export interface SceneGenOptions {
  minObjects?: number; // default 2
  maxObjects?: number; // default 4
  minScale?: number; // default 0.32 (a built-in spans about 1.8 at scale 1)
  maxScale?: number; // default 0.55
  gap?: number; // free space between footprints, default 0.06
}

export interface PlacedObject {
  object: string; // library name
  group: string; // group of its parts in the scene
  scale: number;
  heading_deg: number;
  hue_deg: number; // colour turn about the grey axis
  centre: [number, number]; // footprint centre on the ground
  radius: number; // footprint radius
}

export interface Box {
  min: Vec3;
  max: Vec3;
}

export interface GeneratedScene {
  object: ProceduralObject;
  placed: PlacedObject[];
}

/** The ground plane the objects stand on (just inside the bounds cube's floor). */
export const GROUND_Z = -0.99;
const HALF = 0.98; // footprints stay inside [-HALF, HALF]^2
const PLACE_TRIES = 200;

/** Axis-aligned box of a whole object. */
function objectBox(obj: ProceduralObject): Box {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of obj.parts) {
    const b = partAabb(p);
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a], b.min[a]);
      max[a] = Math.max(max[a], b.max[a]);
    }
  }
  return { min, max };
}

/** Rotates an RGB colour about the grey axis by `deg` (a hue turn that keeps brightness), clamped to [0, 1]. */
export function turnHue(rgb: Readonly<Vec3>, deg: number): Vec3 {
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  const k = (1 - c) / 3;
  const r = Math.sqrt(1 / 3) * s;
  const m = [c + k, k - r, k + r, k + r, c + k, k - r, k - r, k + r, c + k];
  const out = [0, 1, 2].map((i) => m[3 * i] * rgb[0] + m[3 * i + 1] * rgb[1] + m[3 * i + 2] * rgb[2]);
  return out.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 1e4) / 1e4) as Vec3;
}

/** Scales a part's sizes by `s` (positions are handled by the caller). */
function scaledSize(part: Part, s: number): Part['size'] {
  const size = part.size;
  if (typeof size === 'number') return size * s;
  if (Array.isArray(size)) return size.map((v) => v * s) as Vec3;
  return { radius: size.radius * s, height: size.height * s };
}

/** One library object transformed: scaled about its footprint centre, turned, moved, recoloured. */
function placeParts(obj: ProceduralObject, p: PlacedObject, box: Box): Part[] {
  const cx = (box.min[0] + box.max[0]) / 2;
  const cy = (box.min[1] + box.max[1]) / 2;
  const a = (p.heading_deg * Math.PI) / 180;
  const c = Math.cos(a);
  const sn = Math.sin(a);
  return obj.parts.map((part) => {
    const x = (part.pos[0] - cx) * p.scale;
    const y = (part.pos[1] - cy) * p.scale;
    const z = (part.pos[2] - box.min[2]) * p.scale + GROUND_Z;
    const rot = part.rot ?? [0, 0, 0];
    const out = {
      ...part,
      pos: [p.centre[0] + c * x - sn * y, p.centre[1] + sn * x + c * y, z] as Vec3,
      rot: [rot[0], rot[1], rot[2] + p.heading_deg] as Vec3,
      size: scaledSize(part, p.scale),
      color: turnHue(colorRgb(part.color), p.hue_deg),
      group: p.group,
    };
    return out as Part;
  });
}

function pickPlace(rng: Random, radius: number, placed: readonly PlacedObject[], gap: number): [number, number] | null {
  const lim = HALF - radius;
  if (lim < 0) return null;
  for (let t = 0; t < PLACE_TRIES; t++) {
    const x = rng.uniform(-lim, lim);
    const y = rng.uniform(-lim, lim);
    if (placed.every((q) => Math.hypot(x - q.centre[0], y - q.centre[1]) >= radius + q.radius + gap)) return [x, y];
  }
  return null;
}

/** The box of a fitted or imported object: every Gaussian's mean with two standard deviations around it. */
export function gaussianBox(records: readonly GaussianRecord[]): Box {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const r of records) {
    const reach = 2 * Math.max(r.scale[0], r.scale[1], r.scale[2]);
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a], r.pos[a] - reach);
      max[a] = Math.max(max[a], r.pos[a] + reach);
    }
  }
  if (!records.length) throw new Error('an object with no Gaussians cannot be placed');
  return { min, max };
}

/**
 * Seeded placement of library objects known by their boxes: how many, which, at what scale,
 * heading, hue and footprint centre. Objects that find no free place (after shrinking twice) are
 * left out, but a placement always holds at least one object; throws when the library is empty.
 */
export function placeObjects(seed: number, boxes: Readonly<Record<string, Box>>, opts: SceneGenOptions = {}): PlacedObject[] {
  const names = Object.keys(boxes).sort();
  if (names.length === 0) throw new Error('the scene generator needs at least one library object');
  const minN = opts.minObjects ?? 2;
  const maxN = opts.maxObjects ?? 4;
  if (!Number.isInteger(minN) || !Number.isInteger(maxN) || minN < 1 || maxN < minN) throw new Error(`objects per scene must be integers with 1 <= min <= max (got ${minN}..${maxN})`);
  const minS = opts.minScale ?? 0.32;
  const maxS = opts.maxScale ?? 0.55;
  const gap = opts.gap ?? 0.06;
  const rng = mulberry32(seed);
  const count = minN + rng.int(maxN - minN + 1);
  const placed: PlacedObject[] = [];
  for (let i = 0; i < count; i++) {
    const name = names[rng.int(names.length)];
    const box = boxes[name];
    const cx = (box.min[0] + box.max[0]) / 2;
    const cy = (box.min[1] + box.max[1]) / 2;
    // Footprint: the circle about the box's XY centre holding every corner, whatever the heading.
    const r0 = Math.max(...[box.min[0], box.max[0]].flatMap((x) => [box.min[1], box.max[1]].map((y) => Math.hypot(x - cx, y - cy))));
    const heading = rng.uniform(-180, 180);
    const hue = rng.uniform(-180, 180);
    let scale = rng.uniform(minS, maxS);
    // Tall objects are capped so they stay under the cube's ceiling when stood on the ground.
    scale = Math.min(scale, (1.95 - 0.02) / Math.max(1e-9, box.max[2] - box.min[2]));
    let centre: [number, number] | null = null;
    for (let shrink = 0; shrink < 3 && !centre; shrink++) {
      if (shrink > 0) scale *= 0.8;
      centre = pickPlace(rng, r0 * scale, placed, gap);
    }
    if (!centre) continue;
    placed.push({ object: name, group: `${name}_${i + 1}`, scale, heading_deg: heading, hue_deg: hue, centre, radius: r0 * scale });
  }
  if (placed.length === 0) throw new Error('no library object fits on the ground plane at the chosen scales');
  return placed;
}

/** A random scene of primitive library objects (placeObjects, then each object's parts placed). */
export function generateScene(seed: number, library: Readonly<Record<string, ProceduralObject>>, opts: SceneGenOptions = {}): GeneratedScene {
  const boxes = Object.fromEntries(Object.entries(library).map(([name, obj]) => [name, objectBox(obj)]));
  const placed = placeObjects(seed, boxes, opts);
  const parts = placed.flatMap((p) => placeParts(library[p.object], p, boxes[p.object]));
  return { object: parseObject({ name: `scene_${seed}`, parts }), placed };
}

/**
 * Placed objects made of Gaussians (fits of built-in, authored or imported objects): each
 * object's Gaussians scaled about its footprint centre, stood on the ground, turned about Z by
 * its heading (means and rotations), recoloured by its hue turn and grouped per placed object;
 * ids run 0..N-1 in placement order.
 */
export function composeGaussians(placed: readonly PlacedObject[], sources: Readonly<Record<string, readonly GaussianRecord[]>>): GaussianRecord[] {
  const out: GaussianRecord[] = [];
  for (const p of placed) {
    const src = sources[p.object];
    if (!src) throw new Error(`no Gaussians for library object '${p.object}'`);
    const box = gaussianBox(src);
    const cx = (box.min[0] + box.max[0]) / 2;
    const cy = (box.min[1] + box.max[1]) / 2;
    const a = (p.heading_deg * Math.PI) / 180;
    const c = Math.cos(a);
    const sn = Math.sin(a);
    const turn = quatAboutZ(p.heading_deg);
    for (const r of src) {
      const x = (r.pos[0] - cx) * p.scale;
      const y = (r.pos[1] - cy) * p.scale;
      const g: GaussianRecord = {
        id: out.length,
        pos: [p.centre[0] + c * x - sn * y, p.centre[1] + sn * x + c * y, (r.pos[2] - box.min[2]) * p.scale + GROUND_Z],
        scale: [r.scale[0] * p.scale, r.scale[1] * p.scale, r.scale[2] * p.scale],
        quat: quatNormalize(quatMultiply(turn, r.quat)),
        color: turnHue(r.color, p.hue_deg),
        opacity: r.opacity,
        group: p.group,
      };
      out.push(g);
    }
  }
  return out;
}
