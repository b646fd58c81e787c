// Camera quantities shared by the CPU projection stages (forward and backward).
// Input: an explicit Camera. Output: its view rotation W (row-major 3x3), translation and the
// Jacobian clamp limits of docs/DESIGN.md section 3. Invariant: lim_x_pos = (width - cx) / fx + 0.3 *
// tan_fovx with tan_fovx = 0.5 * width / fx (gsplat's classic mode; similarly for y), so the
// Jacobian is evaluated at most 1.3 * tan(fov/2) off axis for a centred principal point.
import type { Camera } from '../types';
import type { Mat3, Vec3 } from '../../math/vec3';

/** Near plane in camera-space z: Gaussians with z < NEAR_PLANE are culled. */
export const NEAR_PLANE = 0.01;
/** Low-pass dilation added to the 2D covariance diagonal, px^2. */
export const COV2D_DILATION = 0.3;
/** Smallest alpha that is composited. */
export const ALPHA_THRESHOLD = 1 / 255;
/** Largest alpha after the clamp. */
export const ALPHA_MAX = 0.99;
/** Compositing stops before a Gaussian that would bring transmittance to this or below. */
export const T_STOP = 1e-4;

export interface CameraMath {
  w: Mat3; // view rotation (row-major), camera = w * world + t
  t: Vec3;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  width: number;
  height: number;
  limXPos: number; // clamp bounds on x / z
  limXNeg: number;
  limYPos: number;
  limYNeg: number;
}

export function cameraMath(camera: Camera): CameraMath {
  const m = camera.world_to_camera;
  const { fx, fy, cx, cy, width, height } = camera;
  const tanFovX = (0.5 * width) / fx;
  const tanFovY = (0.5 * height) / fy;
  return {
    w: [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]],
    t: [m[3], m[7], m[11]],
    fx,
    fy,
    cx,
    cy,
    width,
    height,
    limXPos: (width - cx) / fx + 0.3 * tanFovX,
    limXNeg: cx / fx + 0.3 * tanFovX,
    limYPos: (height - cy) / fy + 0.3 * tanFovY,
    limYNeg: cy / fy + 0.3 * tanFovY,
  };
}

/**
 * Pixel range visited for a projected Gaussian with half-extents (rx, ry): every pixel whose
 * centre lies within the box, widened by one pixel on each side so that rounding at the exact
 * alpha = 1/255 boundary can never drop a pixel the dense definition would keep. Clipped to the image.
 */
export function pixelRange(
  mx: number,
  my: number,
  rx: number,
  ry: number,
  width: number,
  height: number,
): { x0: number; x1: number; y0: number; y1: number } {
  return {
    x0: Math.max(0, Math.floor(mx - rx - 0.5)),
    x1: Math.min(width - 1, Math.ceil(mx + rx - 0.5)),
    y0: Math.max(0, Math.floor(my - ry - 0.5)),
    y1: Math.min(height - 1, Math.ceil(my + ry - 0.5)),
  };
}

/** Margin (in q = d^T conic d) added to a row span's cut-off: far above the rounding of q, exp and o * exp. */
const SPAN_MARGIN_Q = 1e-3;

/**
 * The pixels of row `py` (within [x0, x1]) that a Gaussian may composite: those whose
 * q = a dx^2 + 2 b dx dy + c dy^2 is at most 2 ln(255 o) (alpha >= 1/255), solved as a quadratic
 * in dx, the cut-off raised by SPAN_MARGIN_Q and the interval widened by one pixel on each side,
 * so every pixel outside it certainly has alpha < 1/255 (a skip the walk would make anyway after
 * its exp). Returns [lo, hi] (empty when lo > hi) into `out`; the whole row when the conic is
 * not positive definite or the opacity not positive and finite (no shortcut is taken then).
 * Why: a rotated, elongated ellipse fills a fraction of its box; the walks skip the rest without
 * evaluating exp, and make the same decisions with the same floats on every pixel they visit.
 */
export function rowSpan(a: number, b: number, c: number, o: number, mx: number, dy: number, x0: number, x1: number, out: Int32Array): void {
  out[0] = x0;
  out[1] = x1;
  if (!(a > 0 && a * c - b * b > 0 && o > 0 && o < Infinity)) return;
  const qCut = 2 * Math.log(255 * o) + SPAN_MARGIN_Q;
  const bdy = b * dy;
  const disc = bdy * bdy - a * (c * dy * dy - qCut);
  if (!(disc >= 0)) {
    if (disc < 0) out[1] = x0 - 1;
    return;
  }
  const s = Math.sqrt(disc);
  // dx = px + 0.5 - mx, so px = dx + mx - 0.5.
  const lo = Math.floor((-bdy - s) / a + mx - 0.5) - 1;
  const hi = Math.ceil((-bdy + s) / a + mx - 0.5) + 1;
  if (lo > x0) out[0] = lo;
  if (hi < x1) out[1] = hi;
}
