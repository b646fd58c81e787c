// The splat rendering option of the relation images: each actor (reference, target, person) is
// turned into flat 3D Gaussians sampled on its primitives' surfaces (lighting baked in with the
// ray caster's shading) and rasterized with the lab's CPU reference rasterizer over the exact
// ray-cast environment (ground, sky, structures, scenery; without the actors' ground shadows).
// Inputs: a RelationScene's actor groups, a camera. Output: RGB [H, W, 3].
// Invariant: surface samples are spaced at most SPACING apart (or sparser, to stay under
// MAX_SPLATS per actor); every Gaussian's thin axis is the surface normal.
import type { Camera } from '../../raster/types';
import type { RgbImage } from '../../image/image';
import type { Vec3 } from '../../authoring/primitives';
import type { PreparedPart } from '../../authoring/intersect';
import { shade } from '../../authoring/raycast';
import { rasterizeForward } from '../../raster/cpu/rasterize-forward';
import { packSplats, type GaussianRecord } from '../../scene/gaussian';
import type { RelationScene } from './scene';

const SPACING = 0.05; // metres
const MAX_SPLATS = 12_000;

interface Surfel { p: Vec3; n: Vec3 }

function partArea(p: PreparedPart): number {
  const [a, b, c] = p.size;
  if (p.kind === 0) return 4 * Math.PI * Math.pow((Math.pow(a * b, 1.6) + Math.pow(a * c, 1.6) + Math.pow(b * c, 1.6)) / 3, 1 / 1.6);
  if (p.kind === 1) return 8 * (a * b + b * c + a * c);
  if (p.kind === 2) return 2 * Math.PI * a * (2 * b) + 2 * Math.PI * a * a;
  return Math.PI * a * Math.hypot(a, 2 * b) + Math.PI * a * a;
}

/** Surface samples of one primitive in its own frame at spacing d. */
function surfels(p: PreparedPart, d: number): Surfel[] {
  const out: Surfel[] = [];
  const [a, b, c] = p.size;
  if (p.kind === 0) {
    const n = Math.max(8, Math.ceil(partArea(p) / (d * d)));
    for (let i = 0; i < n; i++) {
      // Fibonacci sphere, stretched to the ellipsoid.
      const z = 1 - (2 * (i + 0.5)) / n, r = Math.sqrt(1 - z * z), phi = i * 2.399963229728653;
      const u: Vec3 = [r * Math.cos(phi), r * Math.sin(phi), z];
      out.push({ p: [a * u[0], b * u[1], c * u[2]], n: [u[0] / a, u[1] / b, u[2] / c] });
    }
  } else if (p.kind === 1) {
    const e = [a, b, c];
    for (let axis = 0; axis < 3; axis++) {
      const i = (axis + 1) % 3, j = (axis + 2) % 3;
      const ni = Math.max(1, Math.ceil((2 * e[i]) / d)), nj = Math.max(1, Math.ceil((2 * e[j]) / d));
      for (const side of [-1, 1]) {
        for (let u = 0; u < ni; u++) {
          for (let v = 0; v < nj; v++) {
            const q: Vec3 = [0, 0, 0], n: Vec3 = [0, 0, 0];
            q[axis] = side * e[axis];
            q[i] = -e[i] + ((u + 0.5) * 2 * e[i]) / ni;
            q[j] = -e[j] + ((v + 0.5) * 2 * e[j]) / nj;
            n[axis] = side;
            out.push({ p: q, n });
          }
        }
      }
    }
  } else {
    const r = a, h = b, cone = p.kind === 3;
    const rings = Math.max(1, Math.ceil((2 * h) / d));
    for (let k = 0; k < rings; k++) {
      const z = -h + ((k + 0.5) * 2 * h) / rings;
      const rz = cone ? (r * (h - z)) / (2 * h) : r;
      const around = Math.max(3, Math.ceil((2 * Math.PI * rz) / d));
      for (let m = 0; m < around; m++) {
        const t = (2 * Math.PI * (m + (k % 2) * 0.5)) / around;
        out.push({ p: [rz * Math.cos(t), rz * Math.sin(t), z], n: [Math.cos(t), Math.sin(t), cone ? r / (2 * h) : 0] });
      }
    }
    for (const zc of cone ? [-h] : [-h, h]) {
      for (let ring = 0; ring * d < r; ring++) {
        const rr = Math.min(r, (ring + 0.5) * d);
        const around = Math.max(1, Math.ceil((2 * Math.PI * rr) / d));
        for (let m = 0; m < around; m++) {
          const t = (2 * Math.PI * m) / around;
          out.push({ p: [rr * Math.cos(t), rr * Math.sin(t), zc], n: [0, 0, Math.sign(zc)] });
        }
      }
    }
  }
  return out;
}

/** Unit quaternion (w, x, y, z) turning +Z onto the unit vector n. */
function quatFromZ(n: Vec3): [number, number, number, number] {
  const w = 1 + n[2];
  if (w < 1e-9) return [0, 1, 0, 0];
  const q: [number, number, number, number] = [w, -n[1], n[0], 0];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** The actors of a scene as surface Gaussians (world space, lighting baked in). */
export function actorSplats(scene: RelationScene): GaussianRecord[] {
  const out: GaussianRecord[] = [];
  for (const g of scene.groups) {
    if (!g.role) continue;
    const area = g.parts.reduce((s, p) => s + partArea(p), 0);
    const d = Math.max(SPACING, Math.sqrt(area / MAX_SPLATS));
    for (const p of g.parts) {
      const w = p.toWorld;
      for (const s of surfels(p, d)) {
        const pos: Vec3 = [
          p.pos[0] + w[0] * s.p[0] + w[1] * s.p[1] + w[2] * s.p[2],
          p.pos[1] + w[3] * s.p[0] + w[4] * s.p[1] + w[5] * s.p[2],
          p.pos[2] + w[6] * s.p[0] + w[7] * s.p[1] + w[8] * s.p[2],
        ];
        const nw: Vec3 = [w[0] * s.n[0] + w[1] * s.n[1] + w[2] * s.n[2], w[3] * s.n[0] + w[4] * s.n[1] + w[5] * s.n[2], w[6] * s.n[0] + w[7] * s.n[1] + w[8] * s.n[2]];
        const l = Math.hypot(...nw);
        const n: Vec3 = [nw[0] / l, nw[1] / l, nw[2] / l];
        const f = shade(n[0], n[1], n[2]);
        out.push({
          id: out.length, pos, scale: [0.6 * d, 0.6 * d, 0.1 * d], quat: quatFromZ(n),
          color: [Math.min(1, p.color[0] * f), Math.min(1, p.color[1] * f), Math.min(1, p.color[2] * f)], opacity: 0.95,
        });
      }
    }
  }
  return out;
}

/** Actor splats rasterized over a background image (the ray-cast environment). */
export function renderSplatsOver(background: RgbImage, splats: readonly GaussianRecord[], camera: Camera): RgbImage {
  const r = rasterizeForward(packSplats(splats), camera);
  const data = new Float32Array(background.data.length);
  for (let i = 0; i < r.alpha.length; i++) {
    // r.rgb is composited over white: rgb = C + (1 - alpha); put the background there instead.
    const t = 1 - r.alpha[i];
    for (let k = 0; k < 3; k++) data[3 * i + k] = Math.min(1, Math.max(0, r.rgb[3 * i + k] + t * (background.data[3 * i + k] - 1)));
  }
  return { width: background.width, height: background.height, data };
}
