// Answerability of a viewpoint by visibility (docs/DESIGN.md section 9): a view answers a question
// when every object the question needs is in the frame, large enough and mostly unoccluded.
// Inputs: a room (its exact primitives), a Pose, the ids of the needed nodes, thresholds.
// Output: per-node measures and the verdict. Invariant: measured on exact geometry (surface
// samples ray-cast against the primitives), never on rendered pixels, so it is the ground truth.
import { intersectLocal, prepareParts, type PreparedPart } from '../../authoring/intersect';
import type { Part, Vec3 } from '../../authoring/primitives';
import { poseCamera, type Pose } from './pose';
import type { RoomSpec } from './room';
import { sampleSurface, type SurfaceSample } from './surface';

export interface VisibilityRule {
  /** Share of the node's surface samples that must project inside the image. */
  minInFrame: number;
  /** Larger side of the projected box over the image side. */
  minBoxFraction: number;
  /** Share of the camera-facing in-frame samples whose ray from the camera is unblocked. */
  minVisible: number;
}
export const DEFAULT_RULE: VisibilityRule = { minInFrame: 0.9, minBoxFraction: 0.1, minVisible: 0.6 };

export interface NodeVisibility {
  id: string;
  inFrame: number;
  boxFraction: number;
  visible: number;
  ok: boolean;
}

/** Samples per node are capped so that one verdict costs a few hundred rays. */
const MAX_SAMPLES = 96;
/** A ray that hits within this of its sample point (metres) reached the point. */
const HIT_SLACK = 2e-3;

export class RoomVisibility {
  private readonly parts: PreparedPart[];
  /** Each prepared part's colour, for colourShare. */
  private readonly colours: string[];
  private readonly samples = new Map<string, SurfaceSample[]>();
  private readonly spheres = new Map<string, { c: Vec3; r: number }>();

  constructor(private readonly room: RoomSpec, private readonly size = 512, private readonly hfov = 90) {
    const all: Part[] = [];
    for (const n of room.nodes) for (const p of n.parts) all.push(p as Part);
    this.parts = prepareParts({ name: room.name, parts: all });
    this.colours = all.map((p) => JSON.stringify(p.color ?? null));
  }

  private nodeSamples(id: string): SurfaceSample[] {
    let s = this.samples.get(id);
    if (s) return s;
    const node = this.room.nodes.find((n) => n.id === id);
    if (!node) throw new Error(`room ${this.room.name} has no node '${id}'`);
    const raw = node.parts.flatMap((p) => sampleSurface(p as Part, 0.02));
    const stride = Math.max(1, Math.ceil(raw.length / MAX_SAMPLES));
    s = raw.filter((_, i) => i % stride === 0);
    this.samples.set(id, s);
    let c: Vec3 = [0, 0, 0];
    for (const q of s) c = [c[0] + q.p[0] / s.length, c[1] + q.p[1] / s.length, c[2] + q.p[2] / s.length];
    const r = Math.max(...s.map((q) => Math.hypot(q.p[0] - c[0], q.p[1] - c[1], q.p[2] - c[2])));
    this.spheres.set(id, { c, r });
    return s;
  }

  /**
   * Cheap necessary condition of the rule from the node's bounding sphere: some of it in front
   * of the camera, not wholly outside a side of the frustum, and a projected size that can reach
   * the box fraction. Rejects most poses of a BFS before any sample is projected.
   */
  private mayPass(pose: Pose, id: string, rule: VisibilityRule): boolean {
    this.nodeSamples(id);
    const { c, r } = this.spheres.get(id)!;
    const cam = poseCamera(pose, this.size, this.hfov);
    const m = cam.world_to_camera;
    const xc = m[0] * c[0] + m[1] * c[1] + m[2] * c[2] + m[3];
    const yc = m[4] * c[0] + m[5] * c[1] + m[6] * c[2] + m[7];
    const zc = m[8] * c[0] + m[9] * c[1] + m[10] * c[2] + m[11];
    if (zc + r <= 0.01) return false;
    // Side planes of a square frustum with half-angle a: |x| <= z tan a; distance of the centre
    // beyond a plane, measured along its unit normal.
    const t = cam.cx / cam.fx;
    const k = 1 / Math.sqrt(1 + t * t);
    if ((Math.abs(xc) - zc * t) * k > r || (Math.abs(yc) - zc * t) * k > r) return false;
    if (zc > r) {
      const span = Math.max(spanBound(xc, zc, r), spanBound(yc, zc, r)) * cam.fx;
      if (span < rule.minBoxFraction * cam.width) return false;
    }
    return true;
  }

  measure(pose: Pose, id: string, rule: VisibilityRule = DEFAULT_RULE): NodeVisibility {
    const cam = poseCamera(pose, this.size, this.hfov);
    const m = cam.world_to_camera;
    const c: Vec3 = [pose.x, pose.y, pose.z];
    const pts = this.nodeSamples(id);
    let inside = 0, facing = 0, seen = 0;
    let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
    for (const s of pts) {
      const [x, y, z] = s.p;
      const zc = m[8] * x + m[9] * y + m[10] * z + m[11];
      if (zc <= 0.01) continue;
      const u = cam.fx * (m[0] * x + m[1] * y + m[2] * z + m[3]) / zc + cam.cx;
      const v = cam.fy * (m[4] * x + m[5] * y + m[6] * z + m[7]) / zc + cam.cy;
      if (u < 0 || v < 0 || u > cam.width || v > cam.height) continue;
      inside++;
      u0 = Math.min(u0, u); u1 = Math.max(u1, u); v0 = Math.min(v0, v); v1 = Math.max(v1, v);
      const to: Vec3 = [c[0] - x, c[1] - y, c[2] - z];
      if (to[0] * s.n[0] + to[1] * s.n[1] + to[2] * s.n[2] <= 0) continue;
      facing++;
      if (this.unblocked(c, s.p)) seen++;
    }
    const inFrame = pts.length ? inside / pts.length : 0;
    const boxFraction = inside ? Math.max(u1 - u0, v1 - v0) / Math.max(cam.width, cam.height) : 0;
    const visible = facing ? seen / facing : 0;
    // A sign is read, not merely seen: its node may ask for a larger share of the image.
    const minBox = Math.max(rule.minBoxFraction, this.room.nodes.find((n) => n.id === id)?.read_box ?? 0);
    const ok = inFrame >= rule.minInFrame && boxFraction >= minBox && visible >= rule.minVisible;
    return { id, inFrame, boxFraction, visible, ok };
  }

  /** Every needed node passes the rule. */
  answerable(pose: Pose, ids: readonly string[], rule: VisibilityRule = DEFAULT_RULE): boolean {
    return ids.every((id) => this.mayPass(pose, id, rule)) && ids.every((id) => this.measure(pose, id, rule).ok);
  }

  /**
   * The largest share of an n x n grid of pixel-centre rays whose first hit has one colour (a
   * part's colour; nothing hit counts as one more colour): near 1 for a view of a blank wall or
   * the ceiling. A textured part counts as one colour too, so the measure errs towards blank.
   */
  colourShare(pose: Pose, n = 12): number {
    const cam = poseCamera(pose, n, this.hfov);
    const m = cam.world_to_camera;
    const c: Vec3 = [pose.x, pose.y, pose.z];
    const counts = new Map<string, number>();
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        // Camera-space ray through the pixel centre, to world by the rotation's transpose.
        const x = (i + 0.5 - cam.cx) / cam.fx, y = (j + 0.5 - cam.cy) / cam.fy;
        const d: Vec3 = [m[0] * x + m[4] * y + m[8], m[1] * x + m[5] * y + m[9], m[2] * x + m[6] * y + m[10]];
        const k = this.firstHit(c, d);
        const key = k < 0 ? 'none' : this.colours[k];
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    return Math.max(...counts.values()) / (n * n);
  }

  /** Index of the first part the ray from c along d hits, or -1. */
  private firstHit(c: Vec3, dir: Vec3): number {
    const len = Math.hypot(dir[0], dir[1], dir[2]);
    const d: Vec3 = [dir[0] / len, dir[1] / len, dir[2] / len];
    let best = Infinity, hit = -1;
    this.parts.forEach((part, k) => {
      const o: Vec3 = [c[0] - part.pos[0], c[1] - part.pos[1], c[2] - part.pos[2]];
      const t0 = o[0] * d[0] + o[1] * d[1] + o[2] * d[2];
      const px = o[0] - t0 * d[0], py = o[1] - t0 * d[1], pz = o[2] - t0 * d[2];
      if (px * px + py * py + pz * pz > part.bound2 || -t0 - Math.sqrt(part.bound2) > best) return;
      const m = part.toLocal;
      const ol: Vec3 = [m[0] * o[0] + m[1] * o[1] + m[2] * o[2], m[3] * o[0] + m[4] * o[1] + m[5] * o[2], m[6] * o[0] + m[7] * o[1] + m[8] * o[2]];
      const dl: Vec3 = [m[0] * d[0] + m[1] * d[1] + m[2] * d[2], m[3] * d[0] + m[4] * d[1] + m[5] * d[2], m[6] * d[0] + m[7] * d[1] + m[8] * d[2]];
      const t = intersectLocal(part.kind, part.size, ol, dl, 0);
      if (t < best) { best = t; hit = k; }
    });
    return hit;
  }

  /** True when the first surface on the ray from c towards p is at p. */
  private unblocked(c: Vec3, p: Vec3): boolean {
    const d: Vec3 = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    const dist = Math.hypot(d[0], d[1], d[2]);
    d[0] /= dist; d[1] /= dist; d[2] /= dist;
    const limit = dist - HIT_SLACK;
    for (const part of this.parts) {
      const o: Vec3 = [c[0] - part.pos[0], c[1] - part.pos[1], c[2] - part.pos[2]];
      const t0 = o[0] * d[0] + o[1] * d[1] + o[2] * d[2];
      const px = o[0] - t0 * d[0], py = o[1] - t0 * d[1], pz = o[2] - t0 * d[2];
      if (px * px + py * py + pz * pz > part.bound2) continue;
      // Sphere of the part entirely beyond the point: cannot block.
      if (-t0 - Math.sqrt(part.bound2) > limit) continue;
      const m = part.toLocal;
      const ol: Vec3 = [m[0] * o[0] + m[1] * o[1] + m[2] * o[2], m[3] * o[0] + m[4] * o[1] + m[5] * o[2], m[6] * o[0] + m[7] * o[1] + m[8] * o[2]];
      const dl: Vec3 = [m[0] * d[0] + m[1] * d[1] + m[2] * d[2], m[3] * d[0] + m[4] * d[1] + m[5] * d[2], m[6] * d[0] + m[7] * d[1] + m[8] * d[2]];
      if (intersectLocal(part.kind, part.size, ol, dl, 0) < limit) return false;
    }
    return true;
  }
}

/** Upper bound of the spread of x / z over a sphere (centre x, z; radius r; z > r). */
function spanBound(x: number, z: number, r: number): number {
  const hi = x + r > 0 ? (x + r) / (z - r) : (x + r) / (z + r);
  const lo = x - r < 0 ? (x - r) / (z - r) : (x - r) / (z + r);
  return hi - lo;
}
