// Which pixels a float32 rasterizer (the WGSL one) can be held to the float64 reference at, and
// which it cannot (docs/DESIGN.md section 3, "Parity with float32").
// Inputs: Splats, a Camera, RasterOptions, as for rasterizeForward. Output: DecisionReport, a
// per-pixel mask of undecidable pixels and, per reason, how many pixels it marked.
// Why this and not a float32 emulation of the reference: WGSL leaves exp() and division accurate
// only to a few ULP and the device may contract or reorder float32 expressions, so no CPU
// emulation can promise the GPU's bits. The compositing rule is discontinuous at four decisions:
// skip alpha < 1/255, stop before T (1 - alpha) <= 1e-4, depth order, and the near-plane cull.
// Everywhere else the image is a smooth function of the Gaussians and float32 stays within about
// 1e-6 of float64 on the test scenes (6.5e-6 at 512 px with sub-pixel Gaussians, the WGSL taking
// pixel offsets from the principal point; docs/PERFORMANCE.md). So this replays the reference's composite (the same decisions, in float64)
// and carries a first-order float32 error bound with every quantity a decision reads; a pixel is
// undecidable when some decision it met lies within that bound of its threshold, two adjacent
// contributors are nearer in depth than their bounds and swapping them would move the pixel
// (depths float32 computes exactly are ordered by index on both sides), or a Gaussian it may
// reach sits on the near plane within its bound, because float32 may legitimately
// take the other branch there and the pixel may then differ by a whole Gaussian's colour.
// Boxes, tile tests and the exp() skip bound are not decisions here: each is widened far beyond
// float32 rounding (pixelRange, touches, alpha_skip_bound), so they can never drop a pixel the
// alpha test would keep. Invariant: decisions are taken exactly as rasterizeForward takes them (the
// same compositing walk, composite.ts, with hooks for the bounds),
// so on a decidable pixel the reference's and this replay's composite lists are the same.
import type { Splats } from '../../scene/splats';
import type { Camera, RasterOptions } from '../types';
import { ALPHA_THRESHOLD, COV2D_DILATION, NEAR_PLANE, T_STOP, cameraMath, pixelRange, type CameraMath } from './camera-math';
import { compositeFrontToBack } from './composite';
import { depthOrder, rawAlpha } from './rasterize-forward';
import { projectGaussian, type ProjectedGaussian } from './project-forward';
import { viewColors } from './sh';

/** Unit roundoff of float32 (2^-24). */
export const F32_EPS = 2 ** -24;

/**
 * Float32 roundings counted along each decision quantity's chain in the WGSL (common.wgsl,
 * project_forward.wgsl, rasterize_forward.wgsl); a bound is count * eps * sensitivity.
 * cov2d: quaternion normalisation, R, R S, W R S, its Gram matrix, J C J^T and the dilation.
 * depth (and x, y in camera space): the uploaded view row (one rounding) and a four-term dot
 * product; the projected mean adds its own (meanError). exp(): WGSL allows
 * 3 + 2|x| ULP. T: one multiply and one subtract per composited Gaussian.
 */
const ROUNDINGS = { cov2d: 32, depth: 5, opacity: 1, compensation: 8, exp: 3, transmittance: 2 } as const;

/**
 * Safety factor on those first-order bounds (second-order terms, FMA contraction and
 * reassociation by the shader compiler). Larger only marks more pixels and never hides a
 * difference; the parity tests check that no pixel outside the mask differs by more than 1e-5.
 */
export const F32_SAFETY = 2;

export interface DecisionOptions {
  /**
   * Override of F32_SAFETY. At 0 float32 flips go unmarked (the tests check that); in probes 0.25
   * still caught every flip, so 2 leaves a margin of about 8.
   */
  safety?: number;
  /** Override of ORDER_TOLERANCE. */
  orderTolerance?: number;
}

/**
 * Two adjacent layers whose depths float32 cannot order move the pixel by T alpha_1 alpha_2
 * |c_1 - c_2| when swapped; below this (a tenth of the parity tolerance) the swap is not a decision.
 */
export const ORDER_TOLERANCE = 1e-6;

export type DecisionReason = 'alpha' | 'stop' | 'order' | 'near';

export interface DecisionReport {
  width: number;
  height: number;
  /** [H, W] 1 where float32 may decide differently from float64, else 0. */
  undecidable: Uint8Array;
  /** Pixels marked, total and by the first reason met (a pixel counts once). */
  count: number;
  byReason: Record<DecisionReason, number>;
}

/** One Gaussian as the replay needs it: its reference values and its float32 error bounds. */
interface Candidate {
  g: number;
  mx: number;
  my: number;
  conic: [number, number, number];
  opacity: number;
  /** Relative float32 error of the opacity (after the antialiasing compensation). */
  relOpacity: number;
  /** Relative float32 error of q per unit q (conic conditioning). */
  relQ: number;
  /** Absolute float32 error of the pixel offset d = centre - mean, px. */
  absD: number;
  /** Largest eigenvalue of the conic, px^-2 (|conic d| <= sqrt(lambda q)). */
  conicMax: number;
  depth: number;
  absDepth: number;
  /** The depth float32 computes when that is exact whatever the evaluation order, else null. */
  depth32: number | null;
  rx: number;
  ry: number;
}

/** Eigenvalues (max, min) of a symmetric 2x2 [[a, b], [b, c]]. */
function eig2(a: number, b: number, c: number): [number, number] {
  const mid = 0.5 * (a + c);
  const r = Math.sqrt(0.25 * (a - c) * (a - c) + b * b);
  return [mid + r, mid - r];
}

function candidate(splats: Splats, g: number, p: ProjectedGaussian, cam: CameraMath, antialiased: boolean, e: number): Candidate | null {
  const [cxx, cxy, cyy] = p.cov2d;
  const [lmax, lmin] = eig2(cxx, cxy, cyy);
  // q = d^T cov^-1 d: a relative error r in the covariance moves q by r * kappa * q at most.
  const relQ = ROUNDINGS.cov2d * e * (lmax / lmin + 1);
  let relOpacity = ROUNDINGS.opacity * e;
  let opacity = splats.opacities[g];
  if (antialiased) {
    // sqrt(detRaw / det): detRaw = (cxx - 0.3)(cyy - 0.3) - cxy^2 cancels; half its relative error.
    const rx = cxx - COV2D_DILATION;
    const ry = cyy - COV2D_DILATION;
    const detRaw = rx * ry - cxy * cxy;
    const relCov = ROUNDINGS.cov2d * e;
    relOpacity += detRaw > 0 ? 0.5 * relCov * ((Math.abs(rx * ry) + cxy * cxy) / detRaw + 1) + ROUNDINGS.compensation * e : 1;
    opacity *= p.compensation;
  }
  // Only pixels where alpha may reach 1/255 within the bound matter: the exact box, widened.
  const slack = 1 + 1e-3;
  if (!(opacity * 255 * slack > 1)) return null;
  const qMax = 2 * Math.log(255 * opacity * slack) + 1e-3;
  const rx = Math.ceil(Math.sqrt(qMax * cxx)) + 1;
  const ry = Math.ceil(Math.sqrt(qMax * cyy)) + 1;
  const [mx, my] = p.mean2d;
  if (mx + rx <= 0 || mx - rx >= cam.width || my + ry <= 0 || my - ry >= cam.height) return null;
  const [x, y, z] = p.tc;
  const terms = cameraTerms(splats, g, cam);
  const ex = meanError(x / z, cam.fx, mx, terms.x, terms.z, z);
  const ey = meanError(y / z, cam.fy, my, terms.y, terms.z, z);
  const absD = e * Math.hypot(ex, ey);
  return { g, mx, my, conic: p.conic, opacity, relOpacity, relQ, absD, conicMax: 1 / lmin, depth: z, absDepth: ROUNDINGS.depth * e * terms.z, depth32: exactDepth32(splats, g, cam), rx, ry };
}

/**
 * Camera depth of Gaussian g as float32 computes it from the float32 view row, when every product
 * and every partial sum (in any order, FMA or not) is a float32 value, so the GPU's depth is
 * exactly this; null otherwise. Axis-aligned cameras and walls of equal depth are the usual case.
 */
function exactDepth32(splats: Splats, g: number, cam: CameraMath): number | null {
  const m = splats.means;
  const terms = [0, 1, 2].map((k) => Math.fround(cam.w[6 + k]) * m[g * 3 + k]);
  terms.push(Math.fround(cam.t[2]));
  // sums[subset]: built by adding its highest term to the sum of the rest; each addition must be
  // exact in float64 (checked by subtracting back) and its result a float32 value.
  const sums = new Float64Array(16);
  for (let subset = 1; subset < 16; subset++) {
    const top = 31 - Math.clz32(subset);
    const rest = sums[subset & ~(1 << top)];
    const sum = rest + terms[top];
    if (!Number.isFinite(sum) || Math.fround(sum) !== sum || sum - rest !== terms[top] || sum - terms[top] !== rest) return null;
    sums[subset] = sum;
  }
  return sums[15];
}

/**
 * True when float32 composites `a` before `b` for certain, as the reference does (a is the
 * earlier in the reference's order): both depths exact in float32 and in the same order (ties by
 * index), or the float64 gap wider than both depth error bounds.
 */
function orderedAlike(a: Candidate, b: Candidate): boolean {
  if (a.depth32 !== null && b.depth32 !== null) return a.depth32 < b.depth32 || (a.depth32 === b.depth32 && a.g < b.g);
  return b.depth - a.depth > a.absDepth + b.absDepth;
}

/** Sums of |terms| of the camera-space dot products of Gaussian g: the scale of their float32 error. */
function cameraTerms(splats: Splats, g: number, cam: CameraMath): { x: number; y: number; z: number } {
  const m = splats.means;
  const w = cam.w;
  const terms = (r: number) => Math.abs(w[r * 3] * m[g * 3]) + Math.abs(w[r * 3 + 1] * m[g * 3 + 1]) + Math.abs(w[r * 3 + 2] * m[g * 3 + 2]) + Math.abs(cam.t[r]);
  return { x: terms(0), y: terms(1), z: terms(2) };
}

/**
 * Float32 error of one coordinate of the projected mean, in units of eps: p = f u + c with
 * u = t / z. t and z carry ROUNDINGS.depth eps times their terms (the dot products), u one more
 * rounding, f u two (f itself rounded, the product), the sum p one.
 */
function meanError(u: number, f: number, p: number, tTerms: number, zTerms: number, z: number): number {
  const au = Math.abs(u);
  const du = (ROUNDINGS.depth * (tTerms + au * zTerms)) / z + au;
  return f * du + 2 * f * au + Math.abs(p);
}

/**
 * Replays the reference composite of every pixel with float32 error bounds on each decision; see
 * the header. Cost: the reference's (each Gaussian visits its box once).
 */
export function undecidablePixels(splats: Splats, camera: Camera, opts: RasterOptions = {}, dopts: DecisionOptions = {}): DecisionReport {
  const e = F32_EPS * (dopts.safety ?? F32_SAFETY);
  const { width, height } = camera;
  const npix = width * height;
  const cam = cameraMath(camera);
  const antialiased = opts.antialiased === true;
  const report: DecisionReport = { width, height, undecidable: new Uint8Array(npix), count: 0, byReason: { alpha: 0, stop: 0, order: 0, near: 0 } };
  const mark = (p: number, why: DecisionReason): void => {
    if (report.undecidable[p]) return;
    report.undecidable[p] = 1;
    report.count++;
    report.byReason[why]++;
  };

  const cands: Candidate[] = [];
  const straddlers: number[] = [];
  for (let g = 0; g < splats.count; g++) {
    const p = projectGaussian(splats, g, cam, antialiased);
    if (straddlesNear(splats, g, cam, e)) straddlers.push(g);
    if (!p) continue;
    const c = candidate(splats, g, p, cam, antialiased, e);
    if (c) cands[g] = c;
  }

  const order = depthOrder(
    cands.map((c) => c?.depth ?? 0),
    (i) => cands[i] !== undefined,
    splats.count,
  );
  const relT = new Float64Array(npix);
  const done = new Uint8Array(npix);
  for (const g of straddlers) {
    // Float32 may keep or cull this one at the near plane: every pixel it may reach is undecidable.
    const c = cands[g] ?? nearCandidate(splats, g, cam, antialiased, e);
    if (!c) continue;
    const box = pixelRange(c.mx, c.my, c.rx, c.ry, width, height);
    for (let py = box.y0; py <= box.y1; py++) {
      for (let px = box.x0; px <= box.x1; px++) {
        const p = py * width + px;
        const raw = rawAlpha(c.opacity, c.conic[0], c.conic[1], c.conic[2], px + 0.5 - c.mx, py + 0.5 - c.my);
        if (raw * 255 * (1 + 1e-3) < 1) continue;
        mark(p, 'near');
        done[p] = 1;
      }
    }
  }
  // The last Gaussian composited at each pixel, its alpha and the transmittance in front of it.
  const last = new Int32Array(npix).fill(-1);
  const lastAlpha = new Float64Array(npix);
  const tBeforeLast = new Float64Array(npix);
  const colors = viewColors(splats, camera, { maxDegree: opts.shDegree });
  const orderTol = dopts.orderTolerance ?? ORDER_TOLERANCE;

  // The candidates as the compositing walk reads them: reference values, widened boxes.
  const n = splats.count;
  const means2d = new Float64Array(n * 2);
  const conics = new Float64Array(n * 3);
  const radii = new Float64Array(n * 2);
  const opacities = new Float64Array(n);
  for (const g of order) {
    const c = cands[g];
    means2d.set([c.mx, c.my], g * 2);
    conics.set(c.conic, g * 3);
    radii.set([c.rx, c.ry], g * 2);
    opacities[g] = c.opacity;
  }
  // The error bounds of the (pixel, Gaussian) pair being decided, from evaluate to composite.
  let relAlpha = 0;
  let relNext = 0;
  compositeFrontToBack(
    { width, height, order, means2d, conics, radii, opacities },
    {
      evaluate: (p, rank, raw, dx, dy) => {
        const c = cands[order[rank]];
        const [a, b, cc] = c.conic;
        const q = a * dx * dx + 2 * b * dx * dy + cc * dy * dy;
        // Relative error of alpha: opacity, q (conditioning and the offset's error through |dq/dd|), exp (3 + 2|x| ULP).
        relAlpha = c.relOpacity + 0.5 * (c.relQ * q + 2 * Math.sqrt(c.conicMax * Math.max(q, 0)) * c.absD) + e * (ROUNDINGS.exp + q);
        if (Math.abs(raw - ALPHA_THRESHOLD) > relAlpha * raw) return false;
        mark(p, 'alpha');
        return true;
      },
      admit: (p, rank, alpha, _t, next) => {
        const g = order[rank];
        const prev = last[p];
        if (prev >= 0 && !orderedAlike(cands[prev], cands[g])) {
          // Float32 may composite these two adjacent layers the other way round: the pixel then
          // moves by T_before alpha_prev alpha (c_prev - c), and a stop at this one may move.
          let dc = 0;
          for (let k = 0; k < 3; k++) dc = Math.max(dc, Math.abs(colors[prev * 3 + k] - colors[g * 3 + k]));
          if (next <= T_STOP || tBeforeLast[p] * lastAlpha[p] * alpha * dc > orderTol) {
            mark(p, 'order');
            return true;
          }
        }
        relNext = relT[p] + (relAlpha * alpha) / (1 - alpha) + ROUNDINGS.transmittance * e;
        if (Math.abs(next - T_STOP) > relNext * next) return false;
        mark(p, 'stop');
        return true;
      },
      composite: (p, rank, alpha, t) => {
        relT[p] = relNext;
        last[p] = order[rank];
        lastAlpha[p] = alpha;
        tBeforeLast[p] = t;
      },
    },
    done,
  );
  return report;
}

/**
 * The candidate of a Gaussian float64 culls at the near plane, as float32 would see it if kept:
 * its mean moved along the camera axis to just in front of the plane (the projection is
 * continuous there, so this is its float32 footprint up to rounding).
 */
function nearCandidate(splats: Splats, g: number, cam: CameraMath, antialiased: boolean, e: number): Candidate | null {
  const m = splats.means;
  const w = cam.w;
  const z = w[6] * m[g * 3] + w[7] * m[g * 3 + 1] + w[8] * m[g * 3 + 2] + cam.t[2];
  const shift = NEAR_PLANE * (1 + 1e-9) - z;
  const one: Splats = {
    count: 1,
    means: Float64Array.from([0, 1, 2].map((k) => m[g * 3 + k] + shift * w[6 + k])),
    scales: splats.scales.slice(g * 3, g * 3 + 3),
    quats: splats.quats.slice(g * 4, g * 4 + 4),
    colors: splats.colors.slice(g * 3, g * 3 + 3),
    opacities: splats.opacities.slice(g, g + 1),
  };
  const p = projectGaussian(one, 0, cam, antialiased);
  return p ? candidate(one, 0, p, cam, antialiased, e) : null;
}

/** True when Gaussian g's camera depth is within its float32 error of the near plane (kept or culled by chance). */
function straddlesNear(splats: Splats, g: number, cam: CameraMath, e: number): boolean {
  const m = splats.means;
  const w = cam.w;
  const z = w[6] * m[g * 3] + w[7] * m[g * 3 + 1] + w[8] * m[g * 3 + 2] + cam.t[2];
  return Math.abs(z - NEAR_PLANE) <= ROUNDINGS.depth * e * cameraTerms(splats, g, cam).z;
}
