// Host-side struct layouts in 4-byte words and StructArray, typed views for packing and unpacking
// arrays of one struct. WGSL structs are declared with wgslStruct (struct.ts), which applies WGSL's
// alignment rules and yields a StructLayout; structLayout here only concatenates 4-byte fields.
// Inputs: an ordered field list (name, scalar type, element count). Output: word offsets, the
// stride and typed views. Invariant: offsets are in words, counts in scalars, for both builders.

export type Scalar = 'f32' | 'u32' | 'i32';

export interface StructLayout<F extends string> {
  words: number; // stride of one element in 4-byte words
  bytes: number;
  offset: Record<F, number>; // word offset of each field inside one element
  count: Record<F, number>;
  type: Record<F, Scalar>;
}

/** Builds a layout from fields in declaration order, with an optional trailing pad to `alignWords`. */
export function structLayout<F extends string>(
  fields: ReadonlyArray<{ name: F; type: Scalar; count: number }>,
  alignWords = 1,
): StructLayout<F> {
  const offset = {} as Record<F, number>;
  const count = {} as Record<F, number>;
  const type = {} as Record<F, Scalar>;
  let words = 0;
  for (const f of fields) {
    offset[f.name] = words;
    count[f.name] = f.count;
    type[f.name] = f.type;
    words += f.count;
  }
  words = Math.ceil(words / alignWords) * alignWords;
  return { words, bytes: words * 4, offset, count, type };
}

/** Typed views over one ArrayBuffer holding `n` elements of a layout. */
export class StructArray<F extends string> {
  readonly buffer: ArrayBuffer;
  readonly f32: Float32Array;
  readonly u32: Uint32Array;
  readonly i32: Int32Array;

  constructor(
    readonly layout: StructLayout<F>,
    readonly length: number,
    buffer?: ArrayBuffer,
  ) {
    this.buffer = buffer ?? new ArrayBuffer(Math.max(1, length) * layout.bytes);
    this.f32 = new Float32Array(this.buffer);
    this.u32 = new Uint32Array(this.buffer);
    this.i32 = new Int32Array(this.buffer);
  }

  /** Word index of component `k` of field `field` in element `i`. */
  at(i: number, field: F, k = 0): number {
    return i * this.layout.words + this.layout.offset[field] + k;
  }

  private view(field: F): Float32Array | Uint32Array | Int32Array {
    const t = this.layout.type[field];
    return t === 'f32' ? this.f32 : t === 'u32' ? this.u32 : this.i32;
  }

  /** Writes `width` values of `src` (row i of a [length, width] array) into field of element i. */
  setRow(field: F, src: ArrayLike<number>, width = this.layout.count[field]): void {
    const v = this.view(field);
    for (let i = 0; i < this.length; i++) {
      const base = this.at(i, field);
      for (let k = 0; k < width; k++) v[base + k] = src[i * width + k];
    }
  }

  /** Copies a field of every element into a [length, count] array. */
  getRow<T extends Float32Array | Float64Array | Int32Array>(field: F, dst: T): T {
    const v = this.view(field);
    const width = this.layout.count[field];
    for (let i = 0; i < this.length; i++) {
      const base = this.at(i, field);
      for (let k = 0; k < width; k++) dst[i * width + k] = v[base + k];
    }
    return dst;
  }
}
