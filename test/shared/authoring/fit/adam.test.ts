// Adam against the update rule written out by hand, and convergence on a quadratic.
import { describe, expect, it } from 'vitest';
import { Adam } from '../../../../src/shared/authoring/fit/adam';

describe('Adam', () => {
  it('takes exactly the textbook steps on a quadratic', () => {
    // f(x) = sum a_i (x_i - c_i)^2, gradient 2 a_i (x_i - c_i).
    const a = [1, 10, 0.1];
    const c = [0.5, -2, 3];
    const x = new Float64Array([0, 0, 0]);
    const lr = 0.1;
    const b1 = 0.9;
    const b2 = 0.999;
    const eps = 1e-8;
    const adam = new Adam([{ name: 'x', params: x, lr }], { eps });
    const ref = [0, 0, 0];
    const m = [0, 0, 0];
    const v = [0, 0, 0];
    for (let t = 1; t <= 5; t++) {
      const g = x.map((xi, i) => 2 * a[i] * (xi - c[i]));
      adam.step({ x: g });
      for (let i = 0; i < 3; i++) {
        const gi = 2 * a[i] * (ref[i] - c[i]);
        m[i] = b1 * m[i] + (1 - b1) * gi;
        v[i] = b2 * v[i] + (1 - b2) * gi * gi;
        const mh = m[i] / (1 - b1 ** t);
        const vh = v[i] / (1 - b2 ** t);
        ref[i] -= (lr * mh) / (Math.sqrt(vh) + eps);
      }
      for (let i = 0; i < 3; i++) expect(x[i]).toBeCloseTo(ref[i], 14);
      // The first step moves every coordinate by lr towards its minimum, whatever the curvature.
      if (t === 1) for (let i = 0; i < 3; i++) expect(x[i]).toBeCloseTo(lr * Math.sign(c[i]), 6);
    }
    expect(adam.steps).toBe(5);
  });

  it('converges on a quadratic and honours per-group learning rates', () => {
    const x = new Float64Array([4, -3]);
    const y = new Float64Array([1]);
    const adam = new Adam([
      { name: 'x', params: x, lr: 0.05 },
      { name: 'y', params: y, lr: 0 },
    ]);
    for (let t = 0; t < 3000; t++) adam.step({ x: [2 * (x[0] - 1), 2 * (x[1] - 2)], y: [2 * y[0]] });
    expect(x[0]).toBeCloseTo(1, 3);
    expect(x[1]).toBeCloseTo(2, 3);
    expect(y[0]).toBe(1);
    adam.setLr('y', 0.5);
    adam.step({ x: [0, 0], y: [1] });
    expect(y[0]).toBeLessThan(1);
  });

  it('rejects a missing or mis-sized gradient', () => {
    const adam = new Adam([{ name: 'x', params: new Float64Array(2), lr: 1 }]);
    expect(() => adam.step({})).toThrow(/'x'/);
    expect(() => adam.step({ x: [1] })).toThrow(/expected 2/);
    expect(() => adam.setLr('nope', 1)).toThrow(/no parameter group/);
  });
});
