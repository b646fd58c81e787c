// Loss plot helpers (ticks, labels, smoothing) and the plot image itself.
import { describe, expect, it } from 'vitest';
import { logTicks, lossPlot, movingAverage, niceStep, PLOT_HEIGHT, PLOT_WIDTH, tickLabel } from '../../../../src/main/authoring/fit/plot';

describe('plot helpers', () => {
  it('chooses 1-2-5 steps and log ticks', () => {
    expect(niceStep(2000, 8)).toBe(500);
    expect(niceStep(60, 8)).toBe(10);
    expect(logTicks(0.004, 0.2)).toEqual([0.005, 0.01, 0.02, 0.05, 0.1, 0.2]);
    expect(logTicks(1e-5, 1)).toEqual([1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1]);
  });

  it('labels ticks compactly', () => {
    expect(tickLabel(0.05)).toBe('0.05');
    expect(tickLabel(0.002)).toBe('2e-3');
    expect(tickLabel(1500)).toBe('1500');
    expect(tickLabel(20000)).toBe('20k');
  });

  it('smooths with a centred window', () => {
    expect(movingAverage([1, 2, 3, 4, 5], 3)).toEqual([1.5, 2, 3, 4, 4.5]);
    expect(movingAverage([7], 9)).toEqual([7]);
  });
});

describe('lossPlot', () => {
  it('draws axes, a curve and labels on white', () => {
    const losses = Array.from({ length: 200 }, (_, i) => 0.05 * Math.exp(-i / 60) + 0.005);
    const img = lossPlot(losses, 'test');
    expect(img.width).toBe(PLOT_WIDTH);
    expect(img.height).toBe(PLOT_HEIGHT);
    let blue = 0;
    let dark = 0;
    for (let i = 0; i < img.width * img.height; i++) {
      const [r, g, b] = [img.data[i * 3], img.data[i * 3 + 1], img.data[i * 3 + 2]];
      if (b > 0.6 && r < 0.4) blue += 1;
      if (r < 0.3 && g < 0.3 && b < 0.3) dark += 1;
    }
    expect(blue).toBeGreaterThan(300); // the moving-average curve
    expect(dark).toBeGreaterThan(500); // axes and text
    // The curve falls: blue pixels on the left sit higher (smaller y) than on the right.
    const meanY = (x0: number, x1: number): number => {
      let s = 0;
      let n = 0;
      for (let y = 0; y < img.height; y++) for (let x = x0; x < x1; x++) {
        const i = y * img.width + x;
        if (img.data[i * 3 + 2] > 0.6 && img.data[i * 3] < 0.4) {
          s += y;
          n += 1;
        }
      }
      return s / n;
    };
    expect(meanY(70, 120)).toBeLessThan(meanY(500, 600));
    expect(() => lossPlot([], 'empty')).not.toThrow();
  });
});
