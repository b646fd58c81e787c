// Exact ray caster for relation scenes: the lab's analytic primitive intersections (the same
// as the task photos) plus a ground plane with a 2 m tile checker and the sun's shadow, a sky
// gradient and distance haze. Inputs: a RelationScene and a camera. Outputs: RGB [H, W, 3] in
// [0, 1] and, per actor role, the number of pixels whose centre ray first hits that actor.
// Invariant: sample (i, j) of pixel (x, y) is the ray through (x + (i + 0.5) / s, y + (j + 0.5) / s);
// a pixel is the plain mean of its s * s samples, so the same inputs give the same bytes.
import type { Camera } from '../../raster/types';
import type { RgbImage } from '../../image/image';
import { intersectLocal, hitNormal } from '../../authoring/intersect';
import { LIGHT_DIR, rayFrame, shade } from '../../authoring/raycast';
import type { Vec3 } from '../../authoring/primitives';
import type { Role } from './params';
import type { RelationScene } from './scene';

export interface RelationRenderOptions {
  /** Supersamples per axis; default 2 (4 rays a pixel). */
  samples?: number;
}

export interface RelationRender {
  rgb: RgbImage;
  /** Pixels whose centre ray hits each role first (the ray-cast visibility of the actors). */
  visible: Partial<Record<Role, number>>;
}

/** Haze: the colour moves towards the horizon sky as 1 - exp(-distance / HAZE). */
const HAZE = 90;
/** Ground tile edge (metres). */
const TILE = 2;
/** Shadowed ground keeps the ambient share of its light. */
const SHADOW = 0.6;

const dl: Vec3 = [0, 0, 0];
const os: Vec3 = [0, 0, 0];
const hit = { t: Infinity, group: -1, part: -1, nx: 0, ny: 0, nz: 0 };

/**
 * First hit of the ray o + t d (unit d) with any group's parts for t > 0; fills `hit` and
 * returns whether anything was hit. With `any`, returns at the first hit found (shadow rays).
 */
function trace(scene: RelationScene, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, any: boolean): boolean {
  hit.t = Infinity;
  hit.group = -1;
  const groups = scene.groups;
  for (let g = 0; g < groups.length; g++) {
    const G = groups[g];
    // Bounding sphere of the group: skip unless the ray passes within its radius ahead of o.
    const cx = G.centre[0] - ox, cy = G.centre[1] - oy, cz = G.centre[2] - oz;
    const along = cx * dx + cy * dy + cz * dz;
    const off2 = cx * cx + cy * cy + cz * cz - along * along;
    if (off2 > G.radius2) continue;
    if (along < 0 && cx * cx + cy * cy + cz * cz > G.radius2) continue;
    const parts = G.parts;
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k];
      const m = p.toLocal;
      dl[0] = m[0] * dx + m[1] * dy + m[2] * dz;
      dl[1] = m[3] * dx + m[4] * dy + m[5] * dz;
      dl[2] = m[6] * dx + m[7] * dy + m[8] * dz;
      const wx = ox - p.pos[0], wy = oy - p.pos[1], wz = oz - p.pos[2];
      const lx = m[0] * wx + m[1] * wy + m[2] * wz;
      const ly = m[3] * wx + m[4] * wy + m[5] * wz;
      const lz = m[6] * wx + m[7] * wy + m[8] * wz;
      // Restart at the closest approach to the part centre (as the task ray caster does).
      const t0 = -(lx * dl[0] + ly * dl[1] + lz * dl[2]);
      os[0] = lx + t0 * dl[0];
      os[1] = ly + t0 * dl[1];
      os[2] = lz + t0 * dl[2];
      if (os[0] * os[0] + os[1] * os[1] + os[2] * os[2] > p.bound2) continue;
      const ts = intersectLocal(p.kind, p.size, os, dl, -t0);
      const t = ts + t0;
      if (t < hit.t) {
        hit.t = t;
        hit.group = g;
        hit.part = k;
        const w = p.toWorld;
        hit.nx = w[0] * hitNormal[0] + w[1] * hitNormal[1] + w[2] * hitNormal[2];
        hit.ny = w[3] * hitNormal[0] + w[4] * hitNormal[1] + w[5] * hitNormal[2];
        hit.nz = w[6] * hitNormal[0] + w[7] * hitNormal[1] + w[8] * hitNormal[2];
        if (any) return true;
      }
    }
  }
  return hit.group >= 0;
}

/** Colour of one ray into out[0..2]; returns the group index hit (-1: ground or sky). */
function shadeRay(scene: RelationScene, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, out: Float64Array): number {
  let t = Infinity;
  let g = -1;
  if (trace(scene, ox, oy, oz, dx, dy, dz, false)) {
    t = hit.t;
    g = hit.group;
  }
  const tg = dz < 0 ? (scene.groundZ - oz) / dz : Infinity;
  let r: number, gr: number, b: number;
  if (g >= 0 && t <= tg) {
    const nl = Math.hypot(hit.nx, hit.ny, hit.nz);
    const f = nl > 0 ? shade(hit.nx / nl, hit.ny / nl, hit.nz / nl) : shade(0, 0, 1);
    const c = scene.groups[g].parts[hit.part].color;
    r = c[0] * f; gr = c[1] * f; b = c[2] * f;
  } else if (Number.isFinite(tg)) {
    g = -1;
    t = tg;
    const x = ox + t * dx, y = oy + t * dy;
    const alt = (Math.floor(x / TILE) + Math.floor(y / TILE)) & 1;
    const c = alt ? scene.groundAlt : scene.ground;
    let f = shade(0, 0, 1);
    if (trace(scene, x, y, scene.groundZ + 1e-6, LIGHT_DIR[0], LIGHT_DIR[1], LIGHT_DIR[2], true)) f *= SHADOW;
    r = c[0] * f; gr = c[1] * f; b = c[2] * f;
  } else {
    const up = Math.sqrt(Math.max(0, dz));
    out[0] = scene.sky[0] + (scene.zenith[0] - scene.sky[0]) * up;
    out[1] = scene.sky[1] + (scene.zenith[1] - scene.sky[1]) * up;
    out[2] = scene.sky[2] + (scene.zenith[2] - scene.sky[2]) * up;
    return -1;
  }
  const h = 1 - Math.exp(-t / HAZE);
  out[0] = Math.min(1, Math.max(0, r + (scene.sky[0] - r) * h));
  out[1] = Math.min(1, Math.max(0, gr + (scene.sky[1] - gr) * h));
  out[2] = Math.min(1, Math.max(0, b + (scene.sky[2] - b) * h));
  return g;
}

export function renderRelation(scene: RelationScene, camera: Camera, opts: RelationRenderOptions = {}): RelationRender {
  const s = opts.samples ?? 2;
  if (!Number.isInteger(s) || s < 1 || s > 8) throw new Error(`samples must be an integer in [1, 8] (got ${s})`);
  const { width: W, height: H } = camera;
  const frame = rayFrame(camera);
  const [r0, r1, r2] = frame.rows;
  const [ox, oy, oz] = frame.centre;
  const data = new Float32Array(W * H * 3);
  const visible: Partial<Record<Role, number>> = {};
  for (const G of scene.groups) if (G.role) visible[G.role] = 0;
  const px = new Float64Array(3);
  const inv = 1 / (s * s);
  const ray = (u: number, v: number): number => {
    const cx = (u - camera.cx) / camera.fx, cy = (v - camera.cy) / camera.fy;
    let dx = cx * r0[0] + cy * r1[0] + r2[0], dy = cx * r0[1] + cy * r1[1] + r2[1], dz = cx * r0[2] + cy * r1[2] + r2[2];
    const n = Math.hypot(dx, dy, dz);
    dx /= n; dy /= n; dz /= n;
    return shadeRay(scene, ox, oy, oz, dx, dy, dz, px);
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let r = 0, g = 0, b = 0;
      for (let j = 0; j < s; j++) {
        for (let i = 0; i < s; i++) {
          ray(x + (i + 0.5) / s, y + (j + 0.5) / s);
          r += px[0]; g += px[1]; b += px[2];
        }
      }
      const o = 3 * (y * W + x);
      data[o] = r * inv; data[o + 1] = g * inv; data[o + 2] = b * inv;
      const role = scene.groups[ray(x + 0.5, y + 0.5)]?.role;
      if (role) visible[role] = (visible[role] ?? 0) + 1;
    }
  }
  return { rgb: { width: W, height: H, data }, visible };
}

/** Visibility only: pixels per role at a reduced size, one centre ray a pixel (the cheap pre-check). */
export function visibleCounts(scene: RelationScene, camera: Camera): Partial<Record<Role, number>> {
  const { width: W, height: H } = camera;
  const frame = rayFrame(camera);
  const [r0, r1, r2] = frame.rows;
  const [ox, oy, oz] = frame.centre;
  const visible: Partial<Record<Role, number>> = {};
  for (const G of scene.groups) if (G.role) visible[G.role] = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const cx = (x + 0.5 - camera.cx) / camera.fx, cy = (y + 0.5 - camera.cy) / camera.fy;
      let dx = cx * r0[0] + cy * r1[0] + r2[0], dy = cx * r0[1] + cy * r1[1] + r2[1], dz = cx * r0[2] + cy * r1[2] + r2[2];
      const n = Math.hypot(dx, dy, dz);
      dx /= n; dy /= n; dz /= n;
      if (!trace(scene, ox, oy, oz, dx, dy, dz, false)) continue;
      const tg = dz < 0 ? (scene.groundZ - oz) / dz : Infinity;
      if (hit.t > tg) continue;
      const role = scene.groups[hit.group].role;
      if (role) visible[role] = (visible[role] ?? 0) + 1;
    }
  }
  return visible;
}
