// Deterministic random images for metric tests (mulberry32; same seed, same image).
import type { RgbImage } from '../../../src/shared/image/image';

export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomImage(width: number, height: number, rand: () => number): RgbImage {
  return { width, height, data: Float32Array.from({ length: width * height * 3 }, rand) };
}
