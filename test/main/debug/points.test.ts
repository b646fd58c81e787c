// The 3D view's sample of a large scene: none for small scenes, an even sample of at most
// DEBUG_POINT_LIMIT centres and colours for large ones, the first Gaussian included.
import { describe, expect, it } from 'vitest';
import { splatPoints } from '../../../src/main/debug/points';
import { packRecords } from '../../../src/shared/scene/records';
import { DEBUG_POINT_LIMIT, DEBUG_SCENE_LIMIT } from '../../../src/shared/api/debug';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const records = (n: number): GaussianRecord[] =>
  Array.from({ length: n }, (_, i) => ({ id: i, pos: [i, -i, 2 * i], scale: [0.1, 0.1, 0.1], quat: [1, 0, 0, 0], color: [i % 2, 0.5, 1], opacity: 1 }) as GaussianRecord);

describe('splatPoints', () => {
  it('sends nothing extra for a scene small enough to send whole', () => {
    expect(splatPoints(packRecords(records(DEBUG_SCENE_LIMIT)))).toBeNull();
  });

  it('samples a large scene evenly under the point limit', () => {
    const n = 3 * DEBUG_POINT_LIMIT + 7;
    const p = splatPoints(packRecords(records(n)));
    expect(p?.of).toBe(n);
    const m = (p?.positions.length ?? 0) / 3;
    expect(m).toBeLessThanOrEqual(DEBUG_POINT_LIMIT);
    expect(m).toBeGreaterThan(DEBUG_POINT_LIMIT / 2);
    expect(p?.positions.slice(0, 6)).toEqual([0, -0, 0, 4, -4, 8]);
    expect(p?.colors.length).toBe(p?.positions.length);
  });
});
