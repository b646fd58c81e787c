// The WebAssembly emitter: LEB128 encodings against known byte strings, and small modules that
// must validate and compute the right values (scalar loop, memory, SIMD lanes).
import { describe, expect, it } from 'vitest';
import { emitModule, F32, F64, FunctionBuilder, I32, sleb, uleb, V128 } from '../../../src/shared/wasm/emitter';
import { instantiateWasm, validateWasm } from '../../../src/shared/wasm/runtime';

describe('LEB128', () => {
  it.each([
    [0, [0x00]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [624485, [0xe5, 0x8e, 0x26]],
  ])('uleb(%i)', (n, bytes) => expect(uleb(n)).toEqual(bytes));

  it.each([
    [0, [0x00]],
    [63, [0x3f]],
    [64, [0xc0, 0x00]],
    [-1, [0x7f]],
    [-64, [0x40]],
    [-65, [0xbf, 0x7f]],
    [-123456, [0xc0, 0xbb, 0x78]],
  ])('sleb(%i)', (n, bytes) => expect(sleb(n)).toEqual(bytes));

  it('rejects non-integers', () => {
    expect(() => uleb(-1)).toThrow();
    expect(() => sleb(0.5)).toThrow();
  });
});

describe('emitModule', () => {
  it('builds a valid module whose functions compute', async () => {
    // sum(n) = 0 + 1 + ... + (n - 1) with a do-while loop (n >= 1).
    const sum = new FunctionBuilder('sum', [I32], [I32]);
    const [i, acc] = [sum.local(I32), sum.local(I32)];
    sum.loop().get(acc).get(i).i32Add().set(acc).inc(i, 1).get(i).get(0).i32LtS().brIf(0).end().get(acc);
    // half(x) = f32(x / 2) via f64, stored at address 8 and read back.
    const half = new FunctionBuilder('half', [F64], [F64]);
    half.i32(8).get(0).f64(2).f64Div().f32DemoteF64().f32Store();
    half.i32(8).f32Load().f64PromoteF32();
    // lanes(a, b) = lane 2 of max(0, splat(a) * [1, 2, 3, 4] + splat(b)), vectors through memory.
    const lanes = new FunctionBuilder('lanes', [F32, F32], [F64]);
    const v = lanes.local(V128);
    for (let k = 0; k < 4; k++) lanes.i32(16 + 4 * k).f64(k + 1).f32DemoteF64().f32Store();
    lanes.get(0).f32x4Splat().i32(16).v128Load().f32x4Mul().get(1).f32x4Splat().f32x4Add().set(v);
    lanes.i32(32).v128Zero().get(v).f32x4Pmax().v128Store();
    // Lane 2 (byte offset 8) splatted by the load, read back from lane 3.
    lanes.i32(32).v128Load32Splat(8).f32x4ExtractLane(3).f64PromoteF32();
    const bytes = emitModule([sum, half, lanes], 1);
    expect(validateWasm(bytes)).toBe(true);
    const ex = await instantiateWasm(bytes);
    expect((ex.sum as (n: number) => number)(10)).toBe(45);
    expect((ex.half as (x: number) => number)(3)).toBe(1.5);
    expect((ex.half as (x: number) => number)(0.1)).toBe(Math.fround(0.05));
    expect((ex.lanes as (a: number, b: number) => number)(2, -1)).toBe(5);
    expect((ex.lanes as (a: number, b: number) => number)(-2, 1)).toBe(0);
  });

  it('refuses unbalanced bodies', () => {
    const f = new FunctionBuilder('bad', [], []);
    f.block();
    expect(() => emitModule([f], 1)).toThrow(/unclosed/);
    expect(() => new FunctionBuilder('worse', [], []).end()).toThrow(/without an open block/);
  });
});
