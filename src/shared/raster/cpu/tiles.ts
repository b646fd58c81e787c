// Tile-binned CPU rasterizer: the fast CPU path for large scenes (real captures, millions of
// Gaussians), producing the image of the dense reference (rasterizeForwardDense) to float rounding.
// Stages: projectTileRange (a range of Gaussians -> TileFrame rows, SH evaluated from the camera),
// binTiles (depth order by an LSD radix sort, then per-tile id lists in that order: a stable
// bucket pass by tile, i.e. (tile, depth) keys), compositeTileRange (a range of 16x16 tiles).
// Invariant: projectTileRange and compositeTileRange are self-contained (they reference no
// module-level name, not even each other) so the worker driver (src/main/raster) can ship them to
// worker threads by their source text; their inputs are plain typed arrays, shareable across
// threads. Per pixel they composite the same depth-ordered Gaussians with the same float
// operations as the reference, so only the order of the projection's float operations differs.
import type { Floats, Splats } from '../../scene/splats';
import type { Camera, RasterOptions, RenderControl, RenderOutput } from '../types';
import { cameraMath } from './camera-math';
import { prepareComposite } from './composite-wasm';
import { depthOrderRadix } from './radix';
import { cameraPosition, effectiveDegree, shRestCount } from './sh';
import { TILE_SIZE } from '../../gpu/constants';

/** Scene arrays as the kernels read them; `rest` is null for flat colour. */
export interface TileInput {
  count: number;
  means: Floats;
  scales: Floats;
  quats: Floats;
  colors: Floats;
  opacities: Floats;
  rest: Floats | null;
  restStride: number; // K stored per Gaussian
  degree: number; // SH degree evaluated (0 with rest = null)
  antialiased: boolean;
}

/**
 * One view's projection, compacted: only visible Gaussians get a row. A projected range
 * [start, end) writes its k visible Gaussians, in index order, to rows start .. start + k - 1 and
 * records runs[2 start] = end, runs[2 start + 1] = k; so ranges projected on any threads in any
 * order leave rows in index order range by range, and the arrays' pages past each range's rows
 * are never touched (a culled Gaussian costs no resident memory).
 */
export interface TileFrame {
  count: number; // Gaussians (the row capacity)
  width: number;
  height: number;
  tilesX: number;
  tilesY: number;
  index: Uint32Array; // [rows] the Gaussian of each row
  runs: Uint32Array; // [2 N] per projected range start: its end and its rows written
  xy: Float64Array; // [rows, 2]
  conic: Float64Array; // [rows, 3]
  depth: Float64Array; // [rows]
  radii: Int32Array; // [rows, 2] pixel half-extents (the reference's exactRadii)
  tileBox: Uint16Array; // [rows, 4] tiles x0, x1, y0, y1 of the row's pixel box (x0 > x1 and y0 > y1: none)
  opacity: Float64Array; // [rows] composited opacity
  qlim: Float64Array; // [rows] 2 ln(255 opacity): alpha >= 1/255 needs q at most this (the compositor's row spans)
  color: Float64Array; // [rows, 3] composited colour
}

/** Per-tile lists: ids[offsets[t] .. offsets[t + 1]) are tile t's rows in depth order. */
export interface TileBins {
  order: Uint32Array; // frame rows by depth, ties by Gaussian index
  offsets: Uint32Array; // [tiles + 1]
  ids: Uint32Array; // [total]
}

/** Camera packed for the kernels: W (9), t (3), fx, fy, cx, cy, x/y clamp limits (4), eye (3), width, height. */
export function packTileCamera(camera: Camera): Float64Array {
  const c = cameraMath(camera);
  return Float64Array.from([
    ...c.w, ...c.t, c.fx, c.fy, c.cx, c.cy, c.limXPos, c.limXNeg, c.limYPos, c.limYNeg, ...cameraPosition(camera), c.width, c.height,
  ]);
}

export function tileInput(splats: Splats, opts: RasterOptions = {}): TileInput {
  const degree = effectiveDegree(splats, { maxDegree: opts.shDegree });
  return {
    count: splats.count,
    means: splats.means,
    scales: splats.scales,
    quats: splats.quats,
    colors: splats.colors,
    opacities: splats.opacities,
    rest: splats.sh ? splats.sh.rest : null,
    restStride: splats.sh ? shRestCount(splats.sh.degree) : 0,
    degree,
    antialiased: opts.antialiased === true,
  };
}

/**
 * Allocates a frame with a row for every Gaussian; `shared` puts every array in a
 * SharedArrayBuffer (for worker threads). Fresh buffers are zero pages the OS maps on first
 * write, so a frame costs resident memory for its visible rows only.
 */
export function allocTileFrame(input: TileInput, width: number, height: number, shared = false): TileFrame {
  const n = input.count;
  const buf = (bytes: number): ArrayBuffer | SharedArrayBuffer => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  return {
    count: n,
    width,
    height,
    tilesX: Math.ceil(width / TILE_SIZE),
    tilesY: Math.ceil(height / TILE_SIZE),
    index: new Uint32Array(buf(n * 4)),
    runs: new Uint32Array(buf(n * 8)),
    xy: new Float64Array(buf(n * 16)),
    conic: new Float64Array(buf(n * 24)),
    depth: new Float64Array(buf(n * 8)),
    radii: new Int32Array(buf(n * 8)),
    tileBox: new Uint16Array(buf(n * 8)),
    opacity: new Float64Array(buf(n * 8)),
    qlim: new Float64Array(buf(n * 8)),
    color: new Float64Array(buf(n * 24)),
  };
}

/**
 * Projects Gaussians [start, end) into `f` (the reference's projectGaussian + exactRadii + SH,
 * inlined without allocations), the visible ones into rows start, start + 1, ... (TileFrame).
 * A zero or non-finite quaternion is culled. Before the covariance, a bound on the footprint
 * culls the Gaussians that cannot reach the image: the 2D variance along x is at most
 * |J_x|^2 max(scale)^2 + 0.3 (J_x the Jacobian's row, the rotations orthonormal), the opacity
 * before the antialiasing compensation (at most 1) is at least the one composited (and q_max is
 * at most 2 ln 255 below opacity 1), and the bound is widened by a pixel, so it culls only
 * Gaussians the exact test below would cull too.
 */
export function projectTileRange(input: TileInput, cam: Float64Array, start: number, end: number, f: TileFrame): void {
  const { means, scales, quats, colors, opacities, rest, restStride, degree, antialiased } = input;
  const [w0, w1, w2, w3, w4, w5, w6, w7, w8, t0, t1, t2, fx, fy, cx, cy, lxp, lxn, lyp, lyn, ex, ey, ez, width, height] = cam;
  const { index, runs, xy, conic, depth, radii, tileBox, opacity, qlim, color } = f;
  const S = 16; // TILE_SIZE; a literal so this kernel stays self-contained (checked by a test)
  // 3DGS's SH constants (the same values as sh.ts; this kernel must stay self-contained).
  const C1 = 0.4886025119029199;
  const C20 = 1.0925484305920792, C21 = -1.0925484305920792, C22 = 0.31539156525252005, C23 = -1.0925484305920792, C24 = 0.5462742152960396;
  const C30 = -0.5900435899266435, C31 = 2.890611442640554, C32 = -0.4570457994644658, C33 = 0.3731763325901154;
  const C34 = -0.4570457994644658, C35 = 1.445305721320277, C36 = -0.5900435899266435;
  let row = start;
  for (let i = start; i < end; i++) {
    const mx = means[i * 3];
    const my = means[i * 3 + 1];
    const mz = means[i * 3 + 2];
    const z = w6 * mx + w7 * my + w8 * mz + t2;
    if (!(z >= 0.01)) continue;
    const o0 = opacities[i];
    if (!(o0 * 255 > 1)) continue;
    const x = w0 * mx + w1 * my + w2 * mz + t0;
    const y = w3 * mx + w4 * my + w5 * mz + t1;
    // The footprint bound is needed only when the mean's own pixel lies off the image (about
    // half of those in front, in a room seen from inside); it is computed with 1 / z, whose
    // rounding (1e-16 relative) the bound's one-pixel widening covers many times over.
    const iz = 1 / z;
    const pxa = fx * (x * iz) + cx;
    const pya = fy * (y * iz) + cy;
    if (!(pxa >= 0 && pxa <= width && pya >= 0 && pya <= height)) {
      const uca = Math.min(lxp, Math.max(-lxn, x * iz));
      const vca = Math.min(lyp, Math.max(-lyn, y * iz));
      const ja = fx * iz;
      const jb = fx * uca * iz;
      const jc = fy * iz;
      const jd = fy * vca * iz;
      const sa = scales[i * 3], sb = scales[i * 3 + 1], sc = scales[i * 3 + 2];
      const dBound = Math.max(sa * sa, sb * sb, sc * sc);
      // 2 ln(255 o) <= 2 ln 255 = 11.09035 for o <= 1: no log() for the usual opacities.
      const qBound = o0 <= 1 ? 11.0904 : 2 * Math.log(255 * o0);
      const rxBound = Math.sqrt(qBound * ((ja * ja + jb * jb) * dBound + 0.3)) * (1 + 1e-9) + 1;
      const ryBound = Math.sqrt(qBound * ((jc * jc + jd * jd) * dBound + 0.3)) * (1 + 1e-9) + 1;
      if (pxa + rxBound <= 0 || pxa - rxBound >= width || pya + ryBound <= 0 || pya - ryBound >= height) continue;
    }
    const u = x / z;
    const v = y / z;
    const uc = Math.min(lxp, Math.max(-lxn, u));
    const vc = Math.min(lyp, Math.max(-lyn, v));
    const j0 = fx / z;
    const j2 = (-fx * uc) / z;
    const j4 = fy / z;
    const j5 = (-fy * vc) / z;
    const px = fx * u + cx;
    const py = fy * v + cy;
    const d0 = scales[i * 3] * scales[i * 3];
    const d1 = scales[i * 3 + 1] * scales[i * 3 + 1];
    const d2 = scales[i * 3 + 2] * scales[i * 3 + 2];
    let qw = quats[i * 4];
    let qx = quats[i * 4 + 1];
    let qy = quats[i * 4 + 2];
    let qz = quats[i * 4 + 3];
    const qn = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
    if (!(qn > 0) || qn === Infinity) continue;
    qw /= qn;
    qx /= qn;
    qy /= qn;
    qz /= qn;
    const r0 = 1 - 2 * (qy * qy + qz * qz), r1 = 2 * (qx * qy - qw * qz), r2 = 2 * (qx * qz + qw * qy);
    const r3 = 2 * (qx * qy + qw * qz), r4 = 1 - 2 * (qx * qx + qz * qz), r5 = 2 * (qy * qz - qw * qx);
    const r6 = 2 * (qx * qz - qw * qy), r7 = 2 * (qy * qz + qw * qx), r8 = 1 - 2 * (qx * qx + qy * qy);
    // Sigma = R diag(d) R^T (symmetric: six entries).
    const s00 = r0 * d0 * r0 + r1 * d1 * r1 + r2 * d2 * r2;
    const s01 = r0 * d0 * r3 + r1 * d1 * r4 + r2 * d2 * r5;
    const s02 = r0 * d0 * r6 + r1 * d1 * r7 + r2 * d2 * r8;
    const s11 = r3 * d0 * r3 + r4 * d1 * r4 + r5 * d2 * r5;
    const s12 = r3 * d0 * r6 + r4 * d1 * r7 + r5 * d2 * r8;
    const s22 = r6 * d0 * r6 + r7 * d1 * r7 + r8 * d2 * r8;
    // WS = W Sigma, then covCam = WS W^T.
    const a00 = w0 * s00 + w1 * s01 + w2 * s02, a01 = w0 * s01 + w1 * s11 + w2 * s12, a02 = w0 * s02 + w1 * s12 + w2 * s22;
    const a10 = w3 * s00 + w4 * s01 + w5 * s02, a11 = w3 * s01 + w4 * s11 + w5 * s12, a12 = w3 * s02 + w4 * s12 + w5 * s22;
    const a20 = w6 * s00 + w7 * s01 + w8 * s02, a21 = w6 * s01 + w7 * s11 + w8 * s12, a22 = w6 * s02 + w7 * s12 + w8 * s22;
    const c00 = a00 * w0 + a01 * w1 + a02 * w2;
    const c01 = a00 * w3 + a01 * w4 + a02 * w5;
    const c02 = a00 * w6 + a01 * w7 + a02 * w8;
    const c11 = a10 * w3 + a11 * w4 + a12 * w5;
    const c12 = a10 * w6 + a11 * w7 + a12 * w8;
    const c22 = a20 * w6 + a21 * w7 + a22 * w8;
    const p0 = j0 * c00 + j2 * c02;
    const p1 = j0 * c01 + j2 * c12;
    const p2 = j0 * c02 + j2 * c22;
    const q1 = j4 * c11 + j5 * c12;
    const q2 = j4 * c12 + j5 * c22;
    const cxx = p0 * j0 + p2 * j2 + 0.3;
    const cxy = p1 * j4 + p2 * j5;
    const cyy = q1 * j4 + q2 * j5 + 0.3;
    const det = cxx * cyy - cxy * cxy;
    if (!(det > 0)) continue;
    let o = o0;
    if (antialiased) o *= Math.sqrt(Math.max(0, ((cxx - 0.3) * (cyy - 0.3) - cxy * cxy) / det));
    if (!(o * 255 > 1)) continue;
    const qMax = 2 * Math.log(255 * o);
    const rx = Math.min(Math.ceil(Math.sqrt(qMax * cxx)), 1 << 30);
    const ry = Math.min(Math.ceil(Math.sqrt(qMax * cyy)), 1 << 30);
    if (!(rx > 0 && ry > 0)) continue;
    if (px + rx <= 0 || px - rx >= width || py + ry <= 0 || py - ry >= height) continue;
    index[row] = i;
    xy[row * 2] = px;
    xy[row * 2 + 1] = py;
    conic[row * 3] = cyy / det;
    conic[row * 3 + 1] = -cxy / det;
    conic[row * 3 + 2] = cxx / det;
    depth[row] = z;
    radii[row * 2] = rx;
    radii[row * 2 + 1] = ry;
    // The tiles of the pixel box the compositor visits (the reference's pixelRange).
    const bx0 = Math.max(0, Math.floor(px - rx - 0.5));
    const bx1 = Math.min(width - 1, Math.ceil(px + rx - 0.5));
    const by0 = Math.max(0, Math.floor(py - ry - 0.5));
    const by1 = Math.min(height - 1, Math.ceil(py + ry - 0.5));
    const empty = bx0 > bx1 || by0 > by1;
    tileBox[row * 4] = empty ? 1 : Math.floor(bx0 / S);
    tileBox[row * 4 + 1] = empty ? 0 : Math.floor(bx1 / S);
    tileBox[row * 4 + 2] = empty ? 1 : Math.floor(by0 / S);
    tileBox[row * 4 + 3] = empty ? 0 : Math.floor(by1 / S);
    opacity[row] = o;
    qlim[row] = qMax;
    const r = row++;
    color[r * 3] = colors[i * 3];
    color[r * 3 + 1] = colors[i * 3 + 1];
    color[r * 3 + 2] = colors[i * 3 + 2];
  }
  runs[start * 2] = end;
  runs[start * 2 + 1] = row - start;
  if (rest === null) return;
  // The SH of the visible rows, a second pass, by blocks: a short loop first touches each cache
  // line of the block's coefficients (45 floats per Gaussian at degree 3, far apart in memory),
  // so their misses overlap instead of one Gaussian's waiting for the next; the sum is stored
  // only so the reads cannot be dropped.
  const touched = new Float64Array(1);
  const span = restStride * 3;
  for (let r = start; r < row; r++) {
    if ((r - start) % 32 === 0) {
      let t = 0;
      for (let q = r, qe = Math.min(row, r + 32); q < qe; q++) {
        const qi = index[q];
        const qb = qi * span;
        t += means[qi * 3];
        for (let k = 0; k < span; k += 16) t += rest[qb + k];
        t += rest[qb + span - 1];
      }
      touched[0] = t;
    }
    const i = index[r];
    let dx = means[i * 3] - ex;
    let dy = means[i * 3 + 1] - ey;
    let dz = means[i * 3 + 2] - ez;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (len > 0) {
      dx /= len;
      dy /= len;
      dz /= len;
    }
    // Basis values in locals and the coefficients read in sequence, band by band: the same
    // products summed in the same order as the reference's loop over k (viewColors), so the
    // colours are bit for bit its own.
    const base = i * restStride * 3;
    let cr = color[r * 3];
    let cg = color[r * 3 + 1];
    let cb = color[r * 3 + 2];
    if (degree >= 1) {
      const b0 = -C1 * dy, b1 = C1 * dz, b2 = -C1 * dx;
      cr += b0 * rest[base];
      cg += b0 * rest[base + 1];
      cb += b0 * rest[base + 2];
      cr += b1 * rest[base + 3];
      cg += b1 * rest[base + 4];
      cb += b1 * rest[base + 5];
      cr += b2 * rest[base + 6];
      cg += b2 * rest[base + 7];
      cb += b2 * rest[base + 8];
      if (degree >= 2) {
        const xx = dx * dx, yy = dy * dy, zz = dz * dz;
        const b3 = C20 * dx * dy, b4 = C21 * dy * dz, b5 = C22 * (2 * zz - xx - yy), b6 = C23 * dx * dz, b7 = C24 * (xx - yy);
        cr += b3 * rest[base + 9];
        cg += b3 * rest[base + 10];
        cb += b3 * rest[base + 11];
        cr += b4 * rest[base + 12];
        cg += b4 * rest[base + 13];
        cb += b4 * rest[base + 14];
        cr += b5 * rest[base + 15];
        cg += b5 * rest[base + 16];
        cb += b5 * rest[base + 17];
        cr += b6 * rest[base + 18];
        cg += b6 * rest[base + 19];
        cb += b6 * rest[base + 20];
        cr += b7 * rest[base + 21];
        cg += b7 * rest[base + 22];
        cb += b7 * rest[base + 23];
        if (degree >= 3) {
          const b8 = C30 * dy * (3 * xx - yy), b9 = C31 * dx * dy * dz, b10 = C32 * dy * (4 * zz - xx - yy);
          const b11 = C33 * dz * (2 * zz - 3 * xx - 3 * yy), b12 = C34 * dx * (4 * zz - xx - yy);
          const b13 = C35 * dz * (xx - yy), b14 = C36 * dx * (xx - 3 * yy);
          cr += b8 * rest[base + 24];
          cg += b8 * rest[base + 25];
          cb += b8 * rest[base + 26];
          cr += b9 * rest[base + 27];
          cg += b9 * rest[base + 28];
          cb += b9 * rest[base + 29];
          cr += b10 * rest[base + 30];
          cg += b10 * rest[base + 31];
          cb += b10 * rest[base + 32];
          cr += b11 * rest[base + 33];
          cg += b11 * rest[base + 34];
          cb += b11 * rest[base + 35];
          cr += b12 * rest[base + 36];
          cg += b12 * rest[base + 37];
          cb += b12 * rest[base + 38];
          cr += b13 * rest[base + 39];
          cg += b13 * rest[base + 40];
          cb += b13 * rest[base + 41];
          cr += b14 * rest[base + 42];
          cg += b14 * rest[base + 43];
          cb += b14 * rest[base + 44];
        }
      }
    }
    color[r * 3] = cr > 0 ? cr : 0;
    color[r * 3 + 1] = cg > 0 ? cg : 0;
    color[r * 3 + 2] = cb > 0 ? cb : 0;
  }
}

/**
 * Per-tile lists in depth order: the visible Gaussians sorted by depth (radix), then bucketed by
 * every tile their pixel box (the reference's pixelRange) touches, keeping that order.
 */
export function binTiles(f: TileFrame): TileBins {
  return binTilesInOrder(f, depthOrderOfFrame(f));
}

/** The frame's rows in Gaussian index order (range by range, as projectTileRange wrote them). */
export function frameRows(f: TileFrame): Uint32Array {
  const { count, runs } = f;
  let total = 0;
  for (let s = 0; s < count; s = runs[s * 2]) {
    if (!(runs[s * 2] > s && runs[s * 2] <= count)) throw new Error(`tile frame: the Gaussians from ${s} on were not projected`);
    total += runs[s * 2 + 1];
  }
  const rows = new Uint32Array(total);
  let k = 0;
  for (let s = 0; s < count; s = runs[s * 2]) for (let r = s, e = s + runs[s * 2 + 1]; r < e; r++) rows[k++] = r;
  return rows;
}

/** The sort stage alone: the frame's rows by depth, ties by Gaussian index. */
export function depthOrderOfFrame(f: TileFrame): Uint32Array {
  return depthOrderRadix(f.depth, frameRows(f));
}

/**
 * The binning stage alone: per-tile lists of `order` (depthOrderOfFrame), keeping that order;
 * `shared` puts offsets and ids in SharedArrayBuffers (the pool's bin job: no copy to hand over).
 */
export function binTilesInOrder(f: TileFrame, order: Uint32Array, shared = false): TileBins {
  const { tileBox, tilesX, tilesY } = f;
  const tiles = tilesX * tilesY;
  const u32 = (n: number): Uint32Array => (shared ? new Uint32Array(new SharedArrayBuffer(Math.max(4, n * 4)), 0, n) : new Uint32Array(n));
  const offsets = u32(tiles + 1);
  // Counting needs no order: rows in memory order, sequential reads.
  const rows = frameRows(f);
  for (let j = 0; j < rows.length; j++) {
    const g = rows[j] * 4;
    const nx = tileBox[g + 1] - tileBox[g];
    let t = tileBox[g + 2] * tilesX + tileBox[g] + 1;
    for (let ty = tileBox[g + 2], ty1 = tileBox[g + 3]; ty <= ty1; ty++, t += tilesX) for (let k = 0; k <= nx; k++) offsets[t + k]++;
  }
  for (let t = 0; t < tiles; t++) offsets[t + 1] += offsets[t];
  const ids = u32(offsets[tiles]);
  const fill = offsets.slice(0, tiles);
  for (let j = 0; j < order.length; j++) {
    const r = order[j];
    const g = r * 4;
    const nx = tileBox[g + 1] - tileBox[g];
    let t = tileBox[g + 2] * tilesX + tileBox[g];
    // Each tile row's first tile outside the inner loop: most boxes span one or two tiles a row.
    for (let ty = tileBox[g + 2], ty1 = tileBox[g + 3]; ty <= ty1; ty++, t += tilesX) {
      ids[fill[t]++] = r;
      for (let k = 1; k <= nx; k++) ids[fill[t + k]++] = r;
    }
  }
  return { order, offsets, ids };
}

/**
 * Composites tiles [t0, t1) (row-major tile index) into rgb [H, W, 3] over white and alpha [H, W].
 * Gaussian-major inside a tile, each pixel sees its Gaussians in depth order exactly as the
 * reference; a tile stops early once every pixel has hit the 1e-4 transmittance stop.
 * Written for the JIT (docs/PERFORMANCE.md, "compositing against its C port"): loop bounds are
 * int32 (`| 0`, after clamping to the tile, so typed-array indices need no float conversion),
 * exp(-a) once per Gaussian, the log of the span bound from the projection (TileFrame.qlim), a
 * stopped pixel marked by a negated T (no second array to read), colour in three planes. The same
 * float operations in the same order as before, so the image is bit for bit the same. The lab
 * composites on its wasm twin where wasm runs (compositeTileRangeFast; composite-kernel.ts: these
 * operations with the kernel's own exp), of which test/bench/composite.c is the line-for-line C port.
 */
export function compositeTileRange(
  f: TileFrame,
  bins: TileBins,
  t0: number,
  t1: number,
  rgb: Float32Array,
  alphaOut: Float32Array,
  evaluated?: Int32Array,
): void {
  const S = 16; // TILE_SIZE; a literal so this kernel stays self-contained (checked by a test)
  const { width, height, tilesX, xy, conic, radii, opacity, qlim, color } = f;
  const { offsets, ids } = bins;
  // T of each pixel of the tile; -T once the pixel has stopped (T > 1e-4 > 0 until then).
  const T = new Float64Array(S * S);
  const accR = new Float64Array(S * S);
  const accG = new Float64Array(S * S);
  const accB = new Float64Array(S * S);
  // Pixels not yet stopped in each row of the tile: a row with none is skipped whole.
  const rowLive = new Int32Array(S);
  // Overdraw (the debugger's): Gaussians evaluated per pixel of the tile, when asked for.
  const cnt = evaluated ? new Int32Array(S * S) : null;
  for (let tile = t0; tile < t1; tile++) {
    const tx = tile % tilesX;
    const ty = (tile - tx) / tilesX;
    const x0 = tx * S;
    const y0 = ty * S;
    const x1 = Math.min(width, x0 + S) - 1;
    const y1 = Math.min(height, y0 + S) - 1;
    let live = (x1 - x0 + 1) * (y1 - y0 + 1);
    rowLive.fill(x1 - x0 + 1);
    T.fill(1);
    accR.fill(0);
    accG.fill(0);
    accB.fill(0);
    if (cnt) cnt.fill(0);
    const end = offsets[tile + 1];
    for (let k = offsets[tile]; k < end && live > 0; k++) {
      const g = ids[k];
      const mx = xy[g * 2];
      const my = xy[g * 2 + 1];
      // The box clamped to the tile: the Gaussian is binned here, so the bounds lie within a
      // radius (at most 2^30) of the tile and fit an int32.
      const bx0 = Math.max(x0, Math.floor(mx - radii[g * 2] - 0.5)) | 0;
      const bx1 = Math.min(x1, Math.ceil(mx + radii[g * 2] - 0.5)) | 0;
      const by0 = Math.max(y0, Math.floor(my - radii[g * 2 + 1] - 0.5)) | 0;
      const by1 = Math.min(y1, Math.ceil(my + radii[g * 2 + 1] - 0.5)) | 0;
      const a = conic[g * 3];
      const b = conic[g * 3 + 1];
      const c = conic[g * 3 + 2];
      const o = opacity[g];
      const cr = color[g * 3];
      const cg = color[g * 3 + 1];
      const cb = color[g * 3 + 2];
      // alpha >= 1/255 needs q <= 2 ln(255 o) (qlim); qs widens that far beyond float rounding,
      // so the pixels skipped by it (row by row: outside the ellipse's x interval, one pixel
      // wider) all have alpha < 1/255, and the alpha test below still decides every other pixel.
      const qs = qlim[g] * 1.0001 + 1e-6;
      const k2 = Math.exp(-a);
      for (let py = by0; py <= by1; py++) {
        // Every pixel of the row stopped: nothing here reads e or r, so the row's values of the
        // pixels still live elsewhere are unchanged.
        if (rowLive[py - y0] === 0) continue;
        const dy = py + 0.5 - my;
        const disc = b * b * dy * dy - a * (c * dy * dy - qs);
        if (disc < 0) continue;
        const root = Math.sqrt(disc);
        const fa = Math.max(bx0, Math.floor(mx - 0.5 + (-b * dy - root) / a) - 1);
        const fb = Math.min(bx1, Math.ceil(mx - 0.5 + (-b * dy + root) / a) + 1);
        if (!(fa <= fb)) continue;
        const xa = fa | 0;
        const row = (py - y0) * S - x0;
        // exp(-q/2) along the row by recurrence (q is quadratic in dx): e = exp(-q(dx)/2),
        // r = e(dx + 1) / e(dx), r(dx + 1) = r(dx) exp(-a). Two exp() per row instead of one per
        // pixel; the relative error after n steps is about n * 1e-16, far inside the 1e-5 parity.
        const dx0 = xa + 0.5 - mx;
        let e = Math.exp(-0.5 * (a * dx0 * dx0 + 2 * b * dx0 * dy + c * dy * dy));
        let r = Math.exp(-0.5 * (a * (2 * dx0 + 1) + 2 * b * dy));
        for (let l = row + xa, le = row + (fb | 0); l <= le; l++) {
          const vis = e;
          e *= r;
          r *= k2;
          const t = T[l];
          if (cnt && t >= 0) cnt[l]++;
          const ov = o * vis;
          const alpha = ov < 0.99 ? ov : 0.99;
          if (alpha < 1 / 255 || t < 0) continue;
          const next = t * (1 - alpha);
          if (next <= 1e-4) {
            T[l] = -t;
            live--;
            rowLive[py - y0]--;
            continue;
          }
          const wgt = alpha * t;
          accR[l] += cr * wgt;
          accG[l] += cg * wgt;
          accB[l] += cb * wgt;
          T[l] = next;
        }
      }
    }
    for (let py = y0; py <= y1; py++) {
      for (let px = x0; px <= x1; px++) {
        const l = (py - y0) * S + px - x0;
        const p = py * width + px;
        const t = T[l] < 0 ? -T[l] : T[l];
        rgb[p * 3] = accR[l] + t;
        rgb[p * 3 + 1] = accG[l] + t;
        rgb[p * 3 + 2] = accB[l] + t;
        alphaOut[p] = 1 - t;
        if (cnt && evaluated) evaluated[p] = cnt[l];
      }
    }
  }
}

/**
 * compositeTileRange on the fast path: the wasm kernel (composite-wasm.ts; its image equals this
 * loop's to the kernel exp's last bits) where it runs, else compositeTileRange itself, which also
 * counts the overdraw (`evaluated`: the JS loop only). Each call copies the frame into the
 * kernel's memory: a loop over many ranges prepares it once instead (prepareComposite).
 */
export function compositeTileRangeFast(f: TileFrame, bins: TileBins, t0: number, t1: number, rgb: Float32Array, alphaOut: Float32Array, evaluated?: Int32Array): void {
  const fast = evaluated ? null : prepareComposite(f, bins);
  if (fast) fast(t0, t1, rgb, alphaOut);
  else compositeTileRange(f, bins, t0, t1, rgb, alphaOut, evaluated);
}

/**
 * The whole tile pipeline on the calling thread (tests, small scenes, the pool's fallback, the
 * debugger's capture overdraw), compositing on the fast path (compositeTileRangeFast). `evaluated`
 * [H, W] receives each pixel's overdraw: the Gaussians the compositor evaluated there (inside
 * their ellipse's row span, up to the pixel's stop); it is counted by the JS loop.
 */
export function rasterizeTiles(splats: Splats, camera: Camera, opts: RasterOptions & Pick<RenderControl, 'onTimings'> & { evaluated?: Int32Array } = {}): RenderOutput {
  const clock = (): number => performance.now();
  const t0 = clock();
  const input = tileInput(splats, opts);
  const f = allocTileFrame(input, camera.width, camera.height);
  projectTileRange(input, packTileCamera(camera), 0, input.count, f);
  const t1 = clock();
  const order = depthOrderOfFrame(f);
  const t2 = clock();
  const bins = binTilesInOrder(f, order);
  const t3 = clock();
  const rgb = new Float32Array(camera.width * camera.height * 3);
  const alpha = new Float32Array(camera.width * camera.height);
  compositeTileRangeFast(f, bins, 0, f.tilesX * f.tilesY, rgb, alpha, opts.evaluated);
  opts.onTimings?.({ project: t1 - t0, sort: t2 - t1, bin: t3 - t2, composite: clock() - t3, threads: 1, intersections: bins.ids.length, visible: order.length });
  return { width: camera.width, height: camera.height, rgb, alpha };
}
