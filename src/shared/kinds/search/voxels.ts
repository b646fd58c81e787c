// Voxel occupancy grid built from Gaussians, the collider for captured rooms (no primitives).
// Inputs: Splats, voxel size (default 5 cm), opacity threshold (default 0.1) and extent in
// standard deviations (default 3). Output: a Collider over the occupied voxels.
// Invariant: a voxel is occupied when it overlaps the world AABB of some Gaussian's 3-sigma
// ellipsoid with opacity >= the threshold; a swept sphere collides when its segment comes within
// the radius of an occupied voxel's box, found exactly per voxel by golden-section search
// (distance from a moving point to a box is convex along a segment).
import type { Vec3 } from '../../authoring/primitives';
import type { Splats } from '../../scene/splats';
import { convexMin, localDistance, type Collider } from './collide';

export interface VoxelOptions {
  voxel?: number;
  minOpacity?: number;
  sigmas?: number;
}

export class VoxelGrid implements Collider {
  readonly origin: Vec3;
  readonly dims: Vec3;
  readonly voxel: number;
  private readonly bits: Uint8Array;

  constructor(origin: Vec3, dims: Vec3, voxel: number, bits?: Uint8Array) {
    this.origin = origin;
    this.dims = dims;
    this.voxel = voxel;
    this.bits = bits ?? new Uint8Array(dims[0] * dims[1] * dims[2]);
  }

  static fromSplats(s: Splats, opts: VoxelOptions = {}): VoxelGrid {
    const voxel = opts.voxel ?? 0.05;
    const minOpacity = opts.minOpacity ?? 0.1;
    const k = opts.sigmas ?? 3;
    const boxes: number[] = [];
    const lo: Vec3 = [Infinity, Infinity, Infinity];
    const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < s.count; i++) {
      if (s.opacities[i] < minOpacity) continue;
      const half = sigmaHalfExtents(s, i, k);
      for (let a = 0; a < 3; a++) {
        const c = s.means[i * 3 + a];
        boxes.push(c - half[a], c + half[a]);
        lo[a] = Math.min(lo[a], c - half[a]);
        hi[a] = Math.max(hi[a], c + half[a]);
      }
    }
    if (boxes.length === 0) return new VoxelGrid([0, 0, 0], [1, 1, 1], voxel);
    const dims: Vec3 = [0, 1, 2].map((a) => Math.max(1, Math.ceil((hi[a] - lo[a]) / voxel))) as Vec3;
    const grid = new VoxelGrid(lo, dims, voxel);
    for (let b = 0; b < boxes.length; b += 6) {
      const r = [0, 1, 2].map((a) => [grid.cell(boxes[b + 2 * a], a), grid.cell(boxes[b + 2 * a + 1], a)]);
      for (let z = r[2][0]; z <= r[2][1]; z++) {
        for (let y = r[1][0]; y <= r[1][1]; y++) {
          for (let x = r[0][0]; x <= r[0][1]; x++) grid.bits[(z * dims[1] + y) * dims[0] + x] = 1;
        }
      }
    }
    return grid;
  }

  /** Cell index along axis a of a coordinate, clamped to the grid. */
  private cell(v: number, a: number): number {
    return Math.min(this.dims[a] - 1, Math.max(0, Math.floor((v - this.origin[a]) / this.voxel)));
  }

  occupied(x: number, y: number, z: number): boolean {
    if (x < 0 || y < 0 || z < 0 || x >= this.dims[0] || y >= this.dims[1] || z >= this.dims[2]) return false;
    return this.bits[(z * this.dims[1] + y) * this.dims[0] + x] === 1;
  }

  count(): number {
    let n = 0;
    for (const b of this.bits) n += b;
    return n;
  }

  sweepHits(a: Readonly<Vec3>, b: Readonly<Vec3>, radius: number): boolean {
    const v = this.voxel;
    const range = [0, 1, 2].map((k) => [
      Math.floor((Math.min(a[k], b[k]) - radius - this.origin[k]) / v),
      Math.floor((Math.max(a[k], b[k]) + radius - this.origin[k]) / v),
    ]);
    const half: Vec3 = [v / 2, v / 2, v / 2];
    for (let z = Math.max(0, range[2][0]); z <= Math.min(this.dims[2] - 1, range[2][1]); z++) {
      for (let y = Math.max(0, range[1][0]); y <= Math.min(this.dims[1] - 1, range[1][1]); y++) {
        for (let x = Math.max(0, range[0][0]); x <= Math.min(this.dims[0] - 1, range[0][1]); x++) {
          if (!this.occupied(x, y, z)) continue;
          const cx = this.origin[0] + (x + 0.5) * v, cy = this.origin[1] + (y + 0.5) * v, cz = this.origin[2] + (z + 0.5) * v;
          const d = convexMin((t) => localDistance('box', half,
            a[0] + t * (b[0] - a[0]) - cx, a[1] + t * (b[1] - a[1]) - cy, a[2] + t * (b[2] - a[2]) - cz));
          if (d <= radius) return true;
        }
      }
    }
    return false;
  }
}

/** World AABB half extents of a Gaussian's k-sigma ellipsoid: sqrt(sum_j (R_ij k s_j)^2). */
function sigmaHalfExtents(s: Splats, i: number, k: number): Vec3 {
  const w = s.quats[i * 4], x = s.quats[i * 4 + 1], y = s.quats[i * 4 + 2], z = s.quats[i * 4 + 3];
  const R = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
  const sx = k * s.scales[i * 3], sy = k * s.scales[i * 3 + 1], sz = k * s.scales[i * 3 + 2];
  return [0, 1, 2].map((r) => Math.hypot(R[3 * r] * sx, R[3 * r + 1] * sy, R[3 * r + 2] * sz)) as Vec3;
}
