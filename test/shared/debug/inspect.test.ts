// The per-Gaussian inspector: ranges against direct computation and each finder on planted faults.
import { describe, expect, it } from 'vitest';
import { FINDER_LIMIT, inspectSplats } from '../../../src/shared/debug/inspect';
import { mulberry32 } from '../../../src/shared/math/random';
import { randomCamera, randomSplats, withRandomSh } from '../raster/cpu/random-scene';

describe('inspectSplats', () => {
  it('reports ranges and finds planted NaNs, zero quaternions, huge scales and wild SH', () => {
    const rng = mulberry32(1);
    const s = withRandomSh(rng, randomSplats(rng, 400, randomCamera(rng, 16), { scaleRange: [0.02, 0.1] }), 2);
    s.means[7 * 3 + 1] = NaN;
    s.opacities[9] = Infinity;
    s.quats.fill(0, 11 * 4, 12 * 4);
    s.scales[13 * 3 + 2] = 40;
    (s.sh?.rest as Float64Array)[17 * 24 + 5] = -9;
    const r = inspectSplats(s);
    const f = Object.fromEntries(r.finders.map((h) => [h.name, h.indices]));
    expect(f.nonFinite).toEqual([7, 9]);
    expect(f.zeroQuaternion).toEqual([11]);
    expect(f.hugeScale).toEqual([13]);
    expect(f.wildSh).toEqual([17]);
    const op = r.ranges.find((x) => x.name === 'opacity');
    const finiteOp = Array.from(s.opacities).filter(Number.isFinite);
    expect(op?.max).toBe(Math.max(...finiteOp));
    expect(op?.min).toBe(Math.min(...finiteOp));
    expect(r.ranges.find((x) => x.name === 'pos[1]')?.min).toBe(Math.min(...Array.from({ length: 400 }, (_, i) => s.means[i * 3 + 1]).filter(Number.isFinite)));
    expect(r.shDegree).toBe(2);
  });

  it('lists at most FINDER_LIMIT rows and counts them all', () => {
    const rng = mulberry32(2);
    const s = randomSplats(rng, FINDER_LIMIT + 50, randomCamera(rng, 16));
    s.quats.fill(0);
    const z = inspectSplats(s).finders.find((h) => h.name === 'zeroQuaternion');
    expect(z?.count).toBe(FINDER_LIMIT + 50);
    expect(z?.indices).toHaveLength(FINDER_LIMIT);
  });
});
