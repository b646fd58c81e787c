// A tiny WebAssembly binary emitter: enough of the MVP and 128-bit SIMD encodings to write the
// LPIPS and SSIM kernels (src/shared/metrics/wasm/) and the tile compositing kernel
// (src/shared/raster/cpu/composite-kernel.ts) at runtime with no toolchain; in the bottom tier
// beside math so that the rasterizer and the metrics may both use it (docs/ARCHITECTURE.md). Input: function bodies built op by op with
// FunctionBuilder, plus one memory. Output: module bytes for WebAssembly.instantiate.
// Invariant: every immediate is LEB128-encoded as the spec requires (unsigned for indices and
// memargs, signed for i32/i64 constants); a body is only valid if its block structure balances,
// which finish() checks.

export const I32 = 0x7f;
export const F32 = 0x7d;
export const F64 = 0x7c;
export const V128 = 0x7b;
export type ValType = typeof I32 | typeof F32 | typeof F64 | typeof V128;
/** Block type "no result". */
const EMPTY_BLOCK = 0x40;

export function uleb(n: number, out: number[] = []): number[] {
  if (!Number.isInteger(n) || n < 0) throw new Error(`uleb: ${n} is not a non-negative integer`);
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

export function sleb(n: number, out: number[] = []): number[] {
  if (!Number.isInteger(n)) throw new Error(`sleb: ${n} is not an integer`);
  for (;;) {
    const byte = n & 0x7f;
    n = Math.floor(n / 128);
    const signBit = (byte & 0x40) !== 0;
    if ((n === 0 && !signBit) || (n === -1 && signBit)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

function utf8(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c > 0x7f) throw new Error(`emitter: export names are ASCII, got ${JSON.stringify(s)}`);
    out.push(c);
  }
  return [...uleb(out.length), ...out];
}

/** Builds one function body; methods append opcodes and return `this` for chaining. */
export class FunctionBuilder {
  readonly bytes: number[] = [];
  private readonly locals: ValType[] = [];
  private depth = 0;

  constructor(
    readonly name: string,
    readonly params: ValType[],
    readonly results: ValType[],
  ) {}

  /** Declares a local; returns its index (params come first). */
  local(type: ValType): number {
    this.locals.push(type);
    return this.params.length + this.locals.length - 1;
  }

  private op(...b: number[]): this {
    this.bytes.push(...b);
    return this;
  }

  private simd(code: number, ...imm: number[]): this {
    return this.op(0xfd, ...uleb(code), ...imm);
  }

  private memarg(alignLog2: number, offset: number): number[] {
    return [...uleb(alignLog2), ...uleb(offset)];
  }

  // Control. `block`/`loop` open a label; `end` closes the innermost; br depth 0 = innermost.
  block(): this {
    this.depth++;
    return this.op(0x02, EMPTY_BLOCK);
  }
  loop(): this {
    this.depth++;
    return this.op(0x03, EMPTY_BLOCK);
  }
  if_(): this {
    this.depth++;
    return this.op(0x04, EMPTY_BLOCK);
  }
  /** The else arm of the innermost `if_` (the block stays open until `end`). */
  else_(): this {
    return this.op(0x05);
  }
  end(): this {
    if (this.depth === 0) throw new Error(`${this.name}: end without an open block`);
    this.depth--;
    return this.op(0x0b);
  }
  br(depth: number): this {
    return this.op(0x0c, ...uleb(depth));
  }
  brIf(depth: number): this {
    return this.op(0x0d, ...uleb(depth));
  }
  call(index: number): this {
    return this.op(0x10, ...uleb(index));
  }
  drop(): this {
    return this.op(0x1a);
  }

  // Locals.
  get(i: number): this {
    return this.op(0x20, ...uleb(i));
  }
  set(i: number): this {
    return this.op(0x21, ...uleb(i));
  }
  tee(i: number): this {
    return this.op(0x22, ...uleb(i));
  }

  // i32.
  i32(v: number): this {
    return this.op(0x41, ...sleb(v | 0));
  }
  i32Add(): this {
    return this.op(0x6a);
  }
  i32Sub(): this {
    return this.op(0x6b);
  }
  i32Mul(): this {
    return this.op(0x6c);
  }
  i32LtU(): this {
    return this.op(0x49);
  }
  i32LtS(): this {
    return this.op(0x48);
  }
  i32Eqz(): this {
    return this.op(0x45);
  }
  i32Ne(): this {
    return this.op(0x47);
  }
  i32GeS(): this {
    return this.op(0x4e);
  }
  i32GtS(): this {
    return this.op(0x4a);
  }
  i32And(): this {
    return this.op(0x71);
  }
  i32Or(): this {
    return this.op(0x72);
  }
  i32Eq(): this {
    return this.op(0x46);
  }
  i32LeS(): this {
    return this.op(0x4c);
  }
  i32RemU(): this {
    return this.op(0x70);
  }
  i32DivU(): this {
    return this.op(0x6e);
  }
  i32Shl(): this {
    return this.op(0x74);
  }
  i32Store(offset = 0): this {
    return this.op(0x36, ...this.memarg(2, offset));
  }
  /** i32 from f64 toward zero, saturating (NaN -> 0) instead of trapping. */
  i32TruncSatF64S(): this {
    return this.op(0xfc, ...uleb(2));
  }
  /** select: a b cond -> cond ? a : b. */
  select(): this {
    return this.op(0x1b);
  }
  i32WrapI64(): this {
    return this.op(0xa7);
  }
  i64ExtendI32S(): this {
    return this.op(0xac);
  }
  i64(v: number): this {
    return this.op(0x42, ...sleb(v));
  }
  i64Shl(): this {
    return this.op(0x86);
  }
  i64ReinterpretF64(): this {
    return this.op(0xbd);
  }
  f64ReinterpretI64(): this {
    return this.op(0xbf);
  }
  /** local[i] += delta (i32). */
  inc(i: number, delta: number): this {
    return this.get(i).i32(delta).i32Add().set(i);
  }

  // Scalar memory (natural alignment hints).
  f32Load(offset = 0): this {
    return this.op(0x2a, ...this.memarg(2, offset));
  }
  f64Load(offset = 0): this {
    return this.op(0x2b, ...this.memarg(3, offset));
  }
  f32Store(offset = 0): this {
    return this.op(0x38, ...this.memarg(2, offset));
  }
  f64Store(offset = 0): this {
    return this.op(0x39, ...this.memarg(3, offset));
  }
  i32Load(offset = 0): this {
    return this.op(0x28, ...this.memarg(2, offset));
  }
  i32Load8U(offset = 0): this {
    return this.op(0x2d, ...this.memarg(0, offset));
  }
  i32Store8(offset = 0): this {
    return this.op(0x3a, ...this.memarg(0, offset));
  }

  // Floats.
  f32Max(): this {
    return this.op(0x97);
  }
  f32(v: number): this {
    const b = new Uint8Array(new Float32Array([v]).buffer);
    return this.op(0x43, ...b);
  }
  f32Eq(): this {
    return this.op(0x5b);
  }
  f64(v: number): this {
    const b = new Uint8Array(new Float64Array([v]).buffer);
    return this.op(0x44, ...b);
  }
  f64Add(): this {
    return this.op(0xa0);
  }
  f64Sub(): this {
    return this.op(0xa1);
  }
  f64Mul(): this {
    return this.op(0xa2);
  }
  f64Div(): this {
    return this.op(0xa3);
  }
  f64Sqrt(): this {
    return this.op(0x9f);
  }
  f64Abs(): this {
    return this.op(0x99);
  }
  f64Neg(): this {
    return this.op(0x9a);
  }
  f64Ceil(): this {
    return this.op(0x9b);
  }
  f64Floor(): this {
    return this.op(0x9c);
  }
  f64Ne(): this {
    return this.op(0x62);
  }
  f64Lt(): this {
    return this.op(0x63);
  }
  f64Gt(): this {
    return this.op(0x64);
  }
  f64Le(): this {
    return this.op(0x65);
  }
  f64Ge(): this {
    return this.op(0x66);
  }
  f64ConvertI32S(): this {
    return this.op(0xb7);
  }
  f64PromoteF32(): this {
    return this.op(0xbb);
  }
  f32DemoteF64(): this {
    return this.op(0xb6);
  }

  // SIMD (0xFD prefix). Alignment hint 4 = 16 bytes for v128, 2 = 4 bytes for a splat load.
  v128Load(offset = 0): this {
    return this.simd(0x00, ...this.memarg(4, offset));
  }
  v128Load32Splat(offset = 0): this {
    return this.simd(0x09, ...this.memarg(2, offset));
  }
  v128Store(offset = 0): this {
    return this.simd(0x0b, ...this.memarg(4, offset));
  }
  v128Zero(): this {
    return this.simd(0x0c, ...new Array<number>(16).fill(0));
  }
  f32x4Splat(): this {
    return this.simd(0x13);
  }
  f32x4ExtractLane(lane: number): this {
    return this.simd(0x1f, lane);
  }
  f32x4Add(): this {
    return this.simd(0xe4);
  }
  f32x4Sub(): this {
    return this.simd(0xe5);
  }
  f32x4Mul(): this {
    return this.simd(0xe6);
  }
  f64x2Splat(): this {
    return this.simd(0x14);
  }
  f64x2ExtractLane(lane: number): this {
    return this.simd(0x21, lane);
  }
  f64x2Add(): this {
    return this.simd(0xf0);
  }
  f64x2Sub(): this {
    return this.simd(0xf1);
  }
  f64x2Mul(): this {
    return this.simd(0xf2);
  }
  f64x2Div(): this {
    return this.simd(0xf3);
  }
  /** Pseudo-max b < a ? a : b (one maxps on x86); with a = 0 it is torch's ReLU (NaN -> 0). */
  f32x4Pmax(): this {
    return this.simd(0xeb);
  }

  /** The code-section entry: locals declaration + body + end. */
  finish(): number[] {
    if (this.depth !== 0) throw new Error(`${this.name}: ${this.depth} unclosed blocks`);
    const groups: [number, ValType][] = [];
    for (const t of this.locals) {
      const last = groups[groups.length - 1];
      if (last && last[1] === t) last[0]++;
      else groups.push([1, t]);
    }
    const body = [...uleb(groups.length), ...groups.flatMap(([n, t]) => [...uleb(n), t]), ...this.bytes, 0x0b];
    return [...uleb(body.length), ...body];
  }
}

function section(id: number, payload: number[]): number[] {
  return [id, ...uleb(payload.length), ...payload];
}

function vector(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

/**
 * A module of the given functions (all exported by name) and one memory of `pages` 64 KiB
 * pages, exported as "memory". Function i has index i (there are no imports).
 */
export function emitModule(functions: FunctionBuilder[], pages: number): Uint8Array {
  const types = functions.map((f) => [0x60, ...uleb(f.params.length), ...f.params, ...uleb(f.results.length), ...f.results]);
  const exportsList = [
    [...utf8('memory'), 0x02, ...uleb(0)],
    ...functions.map((f, i) => [...utf8(f.name), 0x00, ...uleb(i)]),
  ];
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, vector(types)),
    ...section(3, vector(functions.map((_, i) => uleb(i)))),
    ...section(5, vector([[0x00, ...uleb(pages)]])),
    ...section(7, vector(exportsList)),
    ...section(10, vector(functions.map((f) => f.finish()))),
  ];
  return Uint8Array.from(bytes);
}
