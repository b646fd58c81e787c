// structLayout / StructArray: offsets follow declaration order, padding, typed packing round trips.
import { describe, expect, it } from 'vitest';
import { StructArray, structLayout } from '../../../src/shared/gpu/layout';
import { PROJECTED, SPLAT, VIEW_PARAMS } from '../../../src/shared/raster/gpu/layouts';

describe('structLayout', () => {
  it('assigns consecutive word offsets and pads the stride', () => {
    const l = structLayout([
      { name: 'a', type: 'f32', count: 3 },
      { name: 'b', type: 'u32', count: 1 },
      { name: 'c', type: 'i32', count: 2 },
    ] as const, 4);
    expect(l.offset).toEqual({ a: 0, b: 3, c: 4 });
    expect(l.words).toBe(8);
    expect(l.bytes).toBe(32);
  });

  it('matches the WGSL struct sizes of the rasterizer', () => {
    expect(SPLAT.bytes).toBe(56);
    expect(PROJECTED.bytes).toBe(64);
    expect(VIEW_PARAMS.bytes).toBe(144); // 6 vec4 + 9 u32 (eye and the SH/antialiasing fields of issue #12), rounded to 16 bytes
  });

  it('packs rows into fields and reads them back, keeping integer fields exact', () => {
    const a = new StructArray(PROJECTED, 2);
    a.setRow('xy', [1.5, 2.5, 3.5, 4.5]);
    a.setRow('radii', [7, -8, 9, 10]);
    expect(a.f32[a.at(1, 'xy', 1)]).toBe(4.5);
    expect(Array.from(a.getRow('radii', new Int32Array(4)))).toEqual([7, -8, 9, 10]);
    expect(Array.from(a.getRow('xy', new Float64Array(4)))).toEqual([1.5, 2.5, 3.5, 4.5]);
  });
});
