// Collisions against a triangle mesh through a bounding volume hierarchy, the collider of a
// captured room that comes with a mesh (docs/DESIGN.md section 9).
// Inputs: a TriangleMesh; per query the segment's ends and the camera radius. Output: whether the
// sphere swept along the whole segment touches a triangle.
// Invariant: exact up to the golden-section tolerance: the distance from a point moving along a
// segment to a triangle (a convex set) is convex in the segment parameter, so its minimum is found
// by convexMin; the BVH only skips triangles whose boxes lie farther than the radius.
import type { Vec3 } from '../../authoring/primitives';
import { convexMin, type Collider } from './collide';
import type { TriangleMesh } from './obj';

interface BvhNode {
  lo: Vec3;
  hi: Vec3;
  /** Children (inner node) or a range of `order` (leaf). */
  left: number;
  right: number;
  first: number;
  count: number;
}

const LEAF_SIZE = 4;

export class MeshCollider implements Collider {
  private readonly nodes: BvhNode[] = [];
  private readonly order: Uint32Array;
  private readonly boxes: Float64Array; // lo xyz, hi xyz per triangle

  constructor(private readonly mesh: TriangleMesh) {
    const n = mesh.triangles.length / 3;
    this.order = Uint32Array.from({ length: n }, (_, i) => i);
    this.boxes = new Float64Array(n * 6);
    for (let t = 0; t < n; t++) {
      for (let a = 0; a < 3; a++) {
        let lo = Infinity, hi = -Infinity;
        for (let c = 0; c < 3; c++) {
          const v = mesh.positions[mesh.triangles[t * 3 + c] * 3 + a];
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
        this.boxes[t * 6 + a] = lo;
        this.boxes[t * 6 + 3 + a] = hi;
      }
    }
    if (n > 0) this.build(0, n);
  }

  get triangleCount(): number {
    return this.order.length;
  }

  /** Builds the node over order[first, first + count) and returns its index. */
  private build(first: number, count: number): number {
    const lo: Vec3 = [Infinity, Infinity, Infinity];
    const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let i = first; i < first + count; i++) {
      const t = this.order[i];
      for (let a = 0; a < 3; a++) {
        lo[a] = Math.min(lo[a], this.boxes[t * 6 + a]);
        hi[a] = Math.max(hi[a], this.boxes[t * 6 + 3 + a]);
      }
    }
    const index = this.nodes.length;
    const node: BvhNode = { lo, hi, left: -1, right: -1, first, count };
    this.nodes.push(node);
    if (count <= LEAF_SIZE) return index;
    // Median split along the longest axis of the node's box (by triangle box centres).
    const axis = [0, 1, 2].reduce((b, a) => (hi[a] - lo[a] > hi[b] - lo[b] ? a : b), 0);
    const part = Array.from(this.order.subarray(first, first + count));
    const centre = (t: number) => this.boxes[t * 6 + axis] + this.boxes[t * 6 + 3 + axis];
    part.sort((p, q) => centre(p) - centre(q));
    this.order.set(part, first);
    const half = count >> 1;
    node.left = this.build(first, half);
    node.right = this.build(first + half, count - half);
    node.count = 0;
    return index;
  }

  sweepHits(a: Readonly<Vec3>, b: Readonly<Vec3>, radius: number): boolean {
    if (this.nodes.length === 0) return false;
    const lo = [0, 1, 2].map((k) => Math.min(a[k], b[k]) - radius);
    const hi = [0, 1, 2].map((k) => Math.max(a[k], b[k]) + radius);
    const stack = [0];
    while (stack.length) {
      const node = this.nodes[stack.pop()!];
      if (node.lo[0] > hi[0] || node.hi[0] < lo[0] || node.lo[1] > hi[1] || node.hi[1] < lo[1] || node.lo[2] > hi[2] || node.hi[2] < lo[2]) continue;
      if (node.left >= 0) {
        stack.push(node.left, node.right);
        continue;
      }
      for (let i = node.first; i < node.first + node.count; i++) {
        const t = this.order[i];
        const bx = this.boxes;
        if (bx[t * 6] > hi[0] || bx[t * 6 + 3] < lo[0] || bx[t * 6 + 1] > hi[1] || bx[t * 6 + 4] < lo[1] || bx[t * 6 + 2] > hi[2] || bx[t * 6 + 5] < lo[2]) continue;
        const v = this.vertices(t);
        const d = convexMin((s) => pointTriangleDistance(a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]), a[2] + s * (b[2] - a[2]), v));
        if (d <= radius) return true;
      }
    }
    return false;
  }

  private vertices(t: number): number[] {
    const m = this.mesh;
    const out: number[] = [];
    for (let c = 0; c < 3; c++) {
      const k = m.triangles[t * 3 + c] * 3;
      out.push(m.positions[k], m.positions[k + 1], m.positions[k + 2]);
    }
    return out;
  }
}

/**
 * Euclidean distance from (px, py, pz) to the triangle v = [ax ay az bx by bz cx cy cz]: the
 * closest point by the Voronoi regions of the vertices, edges and face.
 */
export function pointTriangleDistance(px: number, py: number, pz: number, v: readonly number[]): number {
  const [ax, ay, az, bx, by, bz, cx, cy, cz] = v;
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  const at = (qx: number, qy: number, qz: number) => Math.hypot(px - qx, py - qy, pz - qz);
  if (d1 <= 0 && d2 <= 0) return at(ax, ay, az);
  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return at(bx, by, bz);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const s = d1 / (d1 - d3);
    return at(ax + s * abx, ay + s * aby, az + s * abz);
  }
  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return at(cx, cy, cz);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const s = d2 / (d2 - d6);
    return at(ax + s * acx, ay + s * acy, az + s * acz);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const s = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return at(bx + s * (cx - bx), by + s * (cy - by), bz + s * (cz - bz));
  }
  const denom = 1 / (va + vb + vc);
  const s = vb * denom, w = vc * denom;
  return at(ax + abx * s + acx * w, ay + aby * s + acy * w, az + abz * s + acz * w);
}
