// Silhouette masks and their IoU (docs/DESIGN.md section 4: render coverage > 0.5 vs the photo's mask).
// Inputs: coverage planes [H, W] or images [H, W, 3|4]. Outputs: Uint8Array masks [H, W] of 0/1.
// Invariant: a photo's mask is its alpha > 0.5 when it has alpha, else its non-white pixels.

/** Threshold on coverage (1 - T_final of a render). */
export function maskFromCoverage(coverage: ArrayLike<number>, threshold = 0.5): Uint8Array {
  const out = new Uint8Array(coverage.length);
  for (let i = 0; i < coverage.length; i++) out[i] = coverage[i] > threshold ? 1 : 0;
  return out;
}

export interface MaskOptions {
  /** A pixel is background when every channel is >= 1 - whiteTolerance. Default 1.5 / 255. */
  whiteTolerance?: number;
  /** Alpha above this counts as object. Default 0.5. */
  alphaThreshold?: number;
}

/**
 * Object mask of a photo on white. `channels` defaults to data.length / (width * height); with
 * 2 or 4 channels the last one is alpha and decides, otherwise any non-white channel does.
 */
export function maskFromImage(
  img: { width: number; height: number; data: ArrayLike<number>; channels?: number },
  options: MaskOptions = {},
): Uint8Array {
  const n = img.width * img.height;
  const channels = img.channels ?? img.data.length / n;
  if (!Number.isInteger(channels) || channels < 1 || channels > 4 || img.data.length !== n * channels) {
    throw new Error(`maskFromImage: ${img.data.length} values do not fit ${img.width}x${img.height} pixels`);
  }
  const tol = options.whiteTolerance ?? 1.5 / 255;
  const alphaThreshold = options.alphaThreshold ?? 0.5;
  const hasAlpha = channels === 2 || channels === 4;
  const colour = hasAlpha ? channels - 1 : channels;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (hasAlpha) {
      out[i] = img.data[i * channels + colour] > alphaThreshold ? 1 : 0;
      continue;
    }
    let object = 0;
    for (let c = 0; c < colour; c++) if (img.data[i * channels + c] < 1 - tol) object = 1;
    out[i] = object;
  }
  return out;
}

/** Intersection over union of two 0/1 masks; two empty masks agree perfectly (1). */
export function iou(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`mask sizes differ: ${a.length} vs ${b.length}`);
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    inter += a[i] & b[i];
    union += a[i] | b[i];
  }
  return union === 0 ? 1 : inter / union;
}
