// A procedural room as Gaussians: surface splats sampled on every primitive (docs/DESIGN.md
// section 9), flat discs tangent to the surface, coloured flat or shaded by a fixed light.
// Inputs: a RoomSpec. Output: Splats (float32), tens of thousands of Gaussians.
// Invariant: deterministic in the spec (no randomness), so tasks store only the room spec and
// every process rebuilds the same Gaussians (textures and printed labels included; captured props
// are placed by main, src/main/kinds/search/props.ts); samples outside the room box (outer faces of walls,
// the underside of the floor) are dropped because no viewpoint can see them.
import { colorRgb, type Color, type Vec3 } from '../../authoring/primitives';
import { emptySplats, type Splats } from '../../scene/splats';
import { COLOR_NAMES, roomParts, type RoomSpec } from './room';
import { sampleSurface, type SurfaceSample } from './surface';
import { INK, labelSamples, textureShade } from './print';

/** Thickness (standard deviation along the normal) of a surface splat: the scene policy's minimum scale. */
export const SPLAT_THICKNESS = 0.005;
/** Tangent standard deviation as a fraction of the sample spacing: neighbours overlap, no gaps. */
const FOOTPRINT = 0.55;
/** Target objects are sampled this much finer than the room spacing (they are small and looked at closely). */
const TARGET_SPACING = 0.012;
const FURNITURE_FACTOR = 0.6;
/** Light direction (towards the light, from above) and the ambient share of the shaded mode. */
const LIGHT: Vec3 = normalize([0.3, 0.5, 0.8]);
const AMBIENT = 0.55;

export function colorOf(name: string): Vec3 {
  const named = COLOR_NAMES[name];
  if (named) return named;
  return colorRgb(name as Color);
}

export function splatRoom(room: RoomSpec): Splats {
  const samples: { s: SurfaceSample; c: Vec3 }[] = [];
  const [X, Y, Z] = room.size;
  const eps = 1e-6;
  const inside = (p: Vec3) => !(p[0] < -eps || p[1] < -eps || p[2] < -eps || p[0] > X + eps || p[1] > Y + eps || p[2] > Z + eps);
  for (const { part, node } of roomParts(room)) {
    const n = room.nodes[node];
    // A captured prop's parts are its proxy: main places the capture's own Gaussians there.
    if (n.capture) continue;
    const spacing = n.role === 'target' ? Math.min(TARGET_SPACING, room.splat.spacing)
      : n.role === 'furniture' ? room.splat.spacing * FURNITURE_FACTOR : room.splat.spacing;
    const base = colorRgb(part.color);
    for (const s of sampleSurface(part, spacing)) {
      if (!inside(s.p)) continue;
      const k = textureShade(n.texture, s.p);
      samples.push({ s, c: k === 1 ? base : [base[0] * k, base[1] * k, base[2] * k] });
    }
    if (n.label && part === n.parts[0]) for (const s of labelSamples(part, n.label.text, n.label.normal)) samples.push({ s, c: INK });
  }
  const out = emptySplats(samples.length, 'f32');
  samples.forEach(({ s, c }, i) => {
    out.means.set(s.p, i * 3);
    const t = FOOTPRINT * s.ds;
    out.scales.set([t, t, SPLAT_THICKNESS], i * 3);
    out.quats.set(normalToQuat(s.n), i * 4);
    const f = room.splat.shading === 'shaded' ? AMBIENT + (1 - AMBIENT) * Math.abs(dot(s.n, LIGHT)) : 1;
    out.colors.set([Math.min(1, c[0] * f), Math.min(1, c[1] * f), Math.min(1, c[2] * f)], i * 3);
    out.opacities[i] = 1;
  });
  return out;
}

/** Unit quaternion (w, x, y, z) of the shortest rotation taking local +Z to the normal n. */
export function normalToQuat(n: Vec3): [number, number, number, number] {
  const d = n[2];
  if (d < -1 + 1e-9) return [0, 1, 0, 0];
  // q = (1 + d, z x n) normalised, z = (0, 0, 1): z x n = (-n_y, n_x, 0).
  const w = 1 + d, x = -n[1], y = n[0];
  const l = Math.hypot(w, x, y);
  return [w / l, x / l, y / l, 0];
}

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}
