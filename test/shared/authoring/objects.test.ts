import { describe, expect, it } from 'vitest';
import { partAabb } from '../../../src/shared/authoring/geometry';
import { getObject, PROCEDURAL_OBJECT_NAMES, PROCEDURAL_OBJECTS } from '../../../src/shared/authoring/objects/index';
import { objectWarnings, colorRgb, validateObject } from '../../../src/shared/authoring/primitives';

describe('the six procedural objects', () => {
  it('are the seed objects, keyed by their names', () => {
    expect([...PROCEDURAL_OBJECT_NAMES].sort()).toEqual(['mushroom', 'robot', 'rocket', 'snowman', 'table', 'tree']);
    for (const name of PROCEDURAL_OBJECT_NAMES) expect(getObject(name).name).toBe(name);
  });

  it.each(PROCEDURAL_OBJECT_NAMES)('%s is valid, visible, centred and stands on the ground', (name) => {
    const obj = PROCEDURAL_OBJECTS[name];
    expect(validateObject(obj).ok).toBe(true);
    expect(objectWarnings(obj)).toEqual([]);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (const part of obj.parts) {
      const box = partAabb(part);
      for (let k = 0; k < 3; k++) {
        expect(box.min[k]).toBeGreaterThanOrEqual(-1);
        expect(box.max[k]).toBeLessThanOrEqual(1);
        lo[k] = Math.min(lo[k], box.min[k]);
        hi[k] = Math.max(hi[k], box.max[k]);
      }
    }
    expect(lo[2]).toBeGreaterThanOrEqual(-1);
    expect(lo[2]).toBeLessThanOrEqual(-0.9); // standing on the floor of the cube
    expect(hi[2] - lo[2]).toBeGreaterThan(1.4); // fills most of the height (the table is the lowest)
    expect(Math.max(hi[0] - lo[0], hi[1] - lo[1])).toBeGreaterThan(0.8);
    for (const k of [0, 1]) expect(Math.abs(hi[k] + lo[k]) / 2).toBeLessThan(0.15); // centred
    const colours = new Set(obj.parts.map((p) => colorRgb(p.color).join(',')));
    expect(colours.size).toBeGreaterThanOrEqual(4);
  });

  it('gives distinct objects distinct main colours', () => {
    const main = PROCEDURAL_OBJECT_NAMES.map((n) => colorRgb(PROCEDURAL_OBJECTS[n].parts[0].color).join(','));
    expect(new Set(main).size).toBe(main.length);
  });

  it('names the known objects when asked for an unknown one', () => {
    expect(() => getObject('teapot')).toThrow("unknown procedural object 'teapot' (known: snowman, mushroom, table, rocket, tree, robot)");
    expect(() => getObject('toString')).toThrow(/unknown procedural object/);
  });
});
