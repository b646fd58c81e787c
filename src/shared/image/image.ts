// In-memory image types used by the rasterizer, metrics, photos and contact sheets.
// Invariant: `data` is row-major [H, W, C] float in [0, 1]; sRGB values are used as plain numbers.

export interface RgbImage {
  width: number;
  height: number;
  data: Float32Array; // [H, W, 3]
}

export interface RgbaImage {
  width: number;
  height: number;
  data: Float32Array; // [H, W, 4], straight (not premultiplied) alpha
}

export function createRgb(width: number, height: number, fill = 1): RgbImage {
  return { width, height, data: new Float32Array(width * height * 3).fill(fill) };
}
