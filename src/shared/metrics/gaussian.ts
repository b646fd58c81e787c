// Separable Gaussian blur with scipy.ndimage's 'reflect' border (d c b a | a b c d | d c b a),
// and its adjoint, as SSIM and its gradient need. Planes are [H, W] float64, row-major.
// Invariant: the kernel is scipy's gaussian_filter kernel for (sigma, truncate): radius
// int(truncate * sigma + 0.5), weights exp(-x^2 / 2 sigma^2) normalised to sum 1.

export function gaussianKernel(sigma: number, truncate: number): Float64Array {
  const radius = Math.floor(truncate * sigma + 0.5);
  const k = new Float64Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    k[i + radius] = Math.exp((-0.5 * i * i) / (sigma * sigma));
    sum += k[i + radius];
  }
  for (let i = 0; i < k.length; i++) k[i] /= sum;
  return k;
}

/** Index of sample `i` of an `n`-long line under scipy's 'reflect' (half-sample symmetric). */
export function reflectIndex(i: number, n: number): number {
  const period = 2 * n;
  let j = ((i % period) + period) % period;
  if (j >= n) j = period - 1 - j;
  return j;
}

/** Blurs one axis: out[y][x] = sum_k w[k] in[reflect(pos + k - r)] along x (axis 1) or y (axis 0). */
function pass(src: Float64Array, h: number, w: number, k: Float64Array, axis: 0 | 1, adjoint: boolean): Float64Array {
  const out = new Float64Array(h * w);
  const r = (k.length - 1) / 2;
  const n = axis === 1 ? w : h;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const pos = axis === 1 ? x : y;
      const v = src[y * w + x];
      let acc = 0;
      for (let t = 0; t < k.length; t++) {
        const q = reflectIndex(pos + t - r, n);
        const idx = axis === 1 ? y * w + q : q * w + x;
        if (adjoint) out[idx] += k[t] * v;
        else acc += k[t] * src[idx];
      }
      if (!adjoint) out[y * w + x] = acc;
    }
  }
  return out;
}

/** scipy.ndimage.gaussian_filter(plane, sigma, mode='reflect', truncate) for an [H, W] plane. */
export function blur(plane: Float64Array, h: number, w: number, k: Float64Array): Float64Array {
  return pass(pass(plane, h, w, k, 0, false), h, w, k, 1, false);
}

/** Adjoint (transpose) of `blur`: <blur(x), g> = <x, blurAdjoint(g)> for all x, g. */
export function blurAdjoint(plane: Float64Array, h: number, w: number, k: Float64Array): Float64Array {
  return pass(pass(plane, h, w, k, 1, true), h, w, k, 0, true);
}
