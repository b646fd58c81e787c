// wgslStruct / writeStruct: WGSL alignment rules on hand-worked examples (the WGSL spec's own
// struct A, vec3 followed by a scalar, vec2 after a vec3) and writing fields by name.
import { describe, expect, it } from 'vitest';
import { StructArray } from '../../../src/shared/gpu/layout';
import { wgslStruct, writeStruct } from '../../../src/shared/gpu/struct';

const offsets = (s: { fields: readonly { name: string; byteOffset: number; byteSize: number }[] }): [string, number, number][] =>
  s.fields.map((f) => [f.name, f.byteOffset, f.byteSize]);

describe('wgslStruct', () => {
  it("lays out the WGSL spec's example struct A (vec2 aligned to 8, size rounded to 8)", () => {
    const a = wgslStruct('A', { u: 'f32', v: 'f32', w: 'vec2<f32>', x: 'f32' });
    expect(offsets(a)).toEqual([['u', 0, 4], ['v', 4, 4], ['w', 8, 8], ['x', 16, 4]]);
    expect(a.align).toBe(8);
    expect(a.bytes).toBe(24);
  });

  it('packs a scalar into the last four bytes of a vec3 and aligns the next vector to 16', () => {
    const s = wgslStruct('S', { a: 'f32', p: 'vec3<f32>', q: 'f32', c: 'vec3<f32>', r: 'vec2<i32>' });
    expect(offsets(s)).toEqual([['a', 0, 4], ['p', 16, 12], ['q', 28, 4], ['c', 32, 12], ['r', 48, 8]]);
    expect(s.bytes).toBe(64);
    expect(s.offset.r).toBe(12); // word offsets for StructArray
  });

  it('gives scalar arrays a stride of 4 and no extra alignment', () => {
    const s = wgslStruct('T', { m: 'array<f32, 9>', k: 'u32', a: 'atomic<u32>' });
    expect(offsets(s)).toEqual([['m', 0, 36], ['k', 36, 4], ['a', 40, 4]]);
    expect(s.bytes).toBe(44);
  });

  it('refuses member types it cannot lay out', () => {
    expect(() => wgslStruct('Bad', { m: 'mat3x3<f32>' as 'f32' })).toThrow(/not supported/);
  });
});

describe('writeStruct', () => {
  const P = wgslStruct('P', { width: 'u32', height: 'u32', _pad0: 'u32', _pad1: 'u32', shift: 'vec4<f32>', offset: 'i32' });

  it('writes each field at its offset with its scalar type and leaves padding zero', () => {
    const bytes = writeStruct(P, { width: 7, height: 3, shift: [0.5, -1, 2, 0], offset: -4 });
    expect(bytes.byteLength).toBe(P.bytes);
    const u = new Uint32Array(bytes);
    const f = new Float32Array(bytes);
    const i = new Int32Array(bytes);
    expect([u[0], u[1], u[2], u[3]]).toEqual([7, 3, 0, 0]);
    expect(Array.from(f.subarray(4, 8))).toEqual([0.5, -1, 2, 0]);
    expect(i[8]).toBe(-4);
  });

  it('reads back through StructArray with the same offsets', () => {
    const a = new StructArray(P, 1, writeStruct(P, { width: 1, height: 2, shift: [1, 2, 3, 4], offset: 5 }));
    expect(Array.from(a.getRow('shift', new Float32Array(4)))).toEqual([1, 2, 3, 4]);
  });

  it('rejects a missing field, a wrong length and an unknown name', () => {
    expect(() => writeStruct(P, { width: 1, shift: [0, 0, 0, 0], offset: 0 } as unknown as Parameters<typeof writeStruct<keyof typeof P.field>>[1])).toThrow(/P.height was not given/);
    expect(() => writeStruct(P, { width: 1, height: 1, shift: [0, 0, 0], offset: 0 })).toThrow(/P.shift takes 4 value\(s\), got 3/);
    expect(() => writeStruct(P, { width: 1, height: 1, shift: [0, 0, 0, 0], offset: 0, nope: 1 } as Parameters<typeof writeStruct<keyof typeof P.field>>[1])).toThrow(/P has no field 'nope'/);
  });
});
