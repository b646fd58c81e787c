// Area (box) resampling of float images: each output pixel is the exact area-weighted mean of
// the source pixels it covers, so downscaling 800 -> 256 averages 3.125 x 3.125 source pixels.
// Input: [H, W, C] floats. Output: [outH, outW, C]. Invariant: a constant image stays constant
// and the mean over the whole image is preserved (weights per output pixel sum to 1).

interface Tap {
  index: number;
  weight: number;
}

/** Source taps of each output sample along one axis of `n` samples resized to `m`. */
export function areaTaps(n: number, m: number): Tap[][] {
  const step = n / m;
  return Array.from({ length: m }, (_, o) => {
    const a = o * step;
    const b = (o + 1) * step;
    const taps: Tap[] = [];
    for (let i = Math.floor(a); i < Math.min(n, Math.ceil(b)); i++) {
      const w = Math.min(b, i + 1) - Math.max(a, i);
      if (w > 0) taps.push({ index: i, weight: w / step });
    }
    return taps;
  });
}

/** Area-resamples a [h, w, channels] image to [outH, outW, channels]. */
export function resizeArea(src: ArrayLike<number>, w: number, h: number, channels: number, outW: number, outH: number): Float32Array {
  if (src.length !== w * h * channels) throw new Error(`resizeArea: ${src.length} values for ${w}x${h}x${channels}`);
  const tx = areaTaps(w, outW);
  const ty = areaTaps(h, outH);
  // Horizontal pass: [h, outW, C] in float64 to keep the sums exact enough for mean preservation.
  const mid = new Float64Array(h * outW * channels);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < outW; x++) {
      for (const { index, weight } of tx[x]) {
        const s = (y * w + index) * channels;
        const d = (y * outW + x) * channels;
        for (let c = 0; c < channels; c++) mid[d + c] += weight * src[s + c];
      }
    }
  }
  const out = new Float32Array(outH * outW * channels);
  for (let y = 0; y < outH; y++) {
    for (const { index, weight } of ty[y]) {
      for (let x = 0; x < outW; x++) {
        const s = (index * outW + x) * channels;
        const d = (y * outW + x) * channels;
        for (let c = 0; c < channels; c++) out[d + c] += weight * mid[s + c];
      }
    }
  }
  return out;
}
