// Difference image for render_views: per-channel |a - b| multiplied by a gain so small errors
// stay visible, clipped to [0, 1]; black means the two images agree. Inputs: two RgbImages of the
// same size. Output: a new RgbImage. Invariant: the gain is fixed (DIFFERENCE_GAIN) so every
// label can state it, and identical inputs give an all-black image.
import type { RgbImage } from './image';

export const DIFFERENCE_GAIN = 4;

export function differenceImage(a: RgbImage, b: RgbImage, gain = DIFFERENCE_GAIN): RgbImage {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`differenceImage: sizes differ (${a.width}x${a.height} vs ${b.width}x${b.height})`);
  }
  const data = new Float32Array(a.data.length);
  for (let i = 0; i < data.length; i++) data[i] = Math.min(1, Math.abs(a.data[i] - b.data[i]) * gain);
  return { width: a.width, height: a.height, data };
}
