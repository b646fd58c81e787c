// Silhouette masks from coverage and from photos, and their IoU.
import { describe, expect, it } from 'vitest';
import { iou, maskFromCoverage, maskFromImage } from '../../../src/shared/metrics/mask';

describe('masks and iou', () => {
  it('thresholds coverage strictly above 0.5', () => {
    expect(Array.from(maskFromCoverage(Float32Array.of(0, 0.5, 0.51, 1)))).toEqual([0, 0, 1, 1]);
  });

  it('takes non-white pixels of RGB photos', () => {
    const data = Float32Array.of(1, 1, 1, 1, 1, 0.9, 254.5 / 255, 1, 1, 0, 0, 0);
    expect(Array.from(maskFromImage({ width: 4, height: 1, data }))).toEqual([0, 1, 0, 1]);
  });

  it('uses alpha when present, whatever the colour', () => {
    const data = Float32Array.of(1, 1, 1, 0.9, 0, 0, 0, 0.2);
    expect(Array.from(maskFromImage({ width: 2, height: 1, data, channels: 4 }))).toEqual([1, 0]);
  });

  it('computes intersection over union', () => {
    expect(iou(Uint8Array.of(1, 1, 0, 0), Uint8Array.of(0, 1, 1, 0))).toBeCloseTo(1 / 3, 12);
    expect(iou(Uint8Array.of(0, 0), Uint8Array.of(0, 0))).toBe(1);
    expect(iou(Uint8Array.of(1, 0), Uint8Array.of(0, 1))).toBe(0);
    expect(() => iou(Uint8Array.of(1), Uint8Array.of(1, 0))).toThrow(/sizes differ/);
  });
});
