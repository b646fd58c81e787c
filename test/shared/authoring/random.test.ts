import { describe, expect, it } from 'vitest';
import { partAabb } from '../../../src/shared/authoring/geometry';
import { validateObject } from '../../../src/shared/authoring/primitives';
import { randomScene } from '../../../src/shared/authoring/random';

describe('randomScene', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(randomScene(42)).toEqual(randomScene(42));
    expect(randomScene(42, { minParts: 3, maxParts: 9 })).toEqual(randomScene(42, { minParts: 3, maxParts: 9 }));
    expect(JSON.stringify(randomScene(42))).not.toBe(JSON.stringify(randomScene(43)));
    expect(randomScene(42).name).toBe('random-42');
  });

  it('keeps the part count, the bounds and separate stacks over many seeds', () => {
    const counts = new Set<number>();
    for (let seed = 0; seed < 120; seed++) {
      const scene = randomScene(seed, { minParts: 3, maxParts: 10 });
      expect(validateObject(scene).ok).toBe(true);
      expect(scene.parts.length).toBeGreaterThanOrEqual(3);
      expect(scene.parts.length).toBeLessThanOrEqual(10);
      counts.add(scene.parts.length);
      // Stacks (groups) occupy disjoint XY boxes.
      const groups = new Map<string, { min: number[]; max: number[] }>();
      for (const part of scene.parts) {
        const box = partAabb(part);
        const g = groups.get(part.group ?? '') ?? { min: [Infinity, Infinity], max: [-Infinity, -Infinity] };
        for (const k of [0, 1]) {
          g.min[k] = Math.min(g.min[k], box.min[k]);
          g.max[k] = Math.max(g.max[k], box.max[k]);
        }
        groups.set(part.group ?? '', g);
      }
      expect(groups.size).toBeGreaterThanOrEqual(Math.min(2, scene.parts.length));
      const boxes = [...groups.values()];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const overlap = [0, 1].every((k) => boxes[i].min[k] < boxes[j].max[k] && boxes[j].min[k] < boxes[i].max[k]);
          expect(overlap).toBe(false);
        }
      }
    }
    expect(counts.size).toBe(8); // every count in [3, 10] occurs
  });

  it('rejects impossible part counts', () => {
    expect(() => randomScene(1, { minParts: 0 })).toThrow(/minParts/);
    expect(() => randomScene(1, { minParts: 5, maxParts: 4 })).toThrow(/minParts <= maxParts/);
    expect(() => randomScene(1, { minParts: 1, maxParts: 1 }).parts).not.toThrow();
  });
});
