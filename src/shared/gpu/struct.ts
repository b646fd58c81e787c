// Host-side layouts of WGSL structs, computed with WGSL's alignment rules (WGSL spec, "Memory
// Layout": scalars align 4, vec2 8, vec3 and vec4 16; array<T, n> has the stride of T; a struct
// aligns to its widest member and its size rounds up to that), and writers that fill a struct's
// fields by name. Inputs: a struct name and its members in declaration order, spelled as in WGSL.
// Outputs: a StructLayout (word offsets for StructArray) plus byte offsets and sizes per field.
// Invariant: each layout equals the WGSL declaration of the same name in shaders/ field by field
// (names, offsets, sizes); test/shared/gpu/wgsl-structs.test.ts parses the shaders and checks it.
import type { Scalar, StructLayout } from './layout';

/** A member type this helper lays out: a 4-byte scalar, a vector of one, or a fixed array of one. */
export type WgslType =
  | Scalar
  | `vec${2 | 3 | 4}<${Scalar}>`
  | `array<${Scalar}, ${number}>`
  | 'atomic<u32>'
  | 'atomic<i32>';

export interface WgslField {
  name: string;
  type: WgslType;
  scalar: Scalar;
  count: number; // scalars in the member (1, vector width or array length)
  byteOffset: number;
  byteSize: number;
  align: number;
}

export interface WgslStruct<F extends string> extends StructLayout<F> {
  name: string; // the WGSL struct name
  align: number; // alignment of the struct in bytes
  fields: readonly WgslField[]; // in declaration order
  field: Record<F, WgslField>;
}

const VECTOR = /^vec([234])<(f32|u32|i32)>$/;
const ARRAY = /^array<(f32|u32|i32),\s*(\d+)>$/;
const ATOMIC = /^atomic<(u32|i32)>$/;

/** Alignment, size, scalar type and scalar count of one member type. */
export function wgslTypeLayout(type: string): { align: number; size: number; scalar: Scalar; count: number } {
  if (type === 'f32' || type === 'u32' || type === 'i32') return { align: 4, size: 4, scalar: type, count: 1 };
  const atomic = ATOMIC.exec(type);
  if (atomic) return { align: 4, size: 4, scalar: atomic[1] as Scalar, count: 1 };
  const vec = VECTOR.exec(type);
  if (vec) {
    const n = Number(vec[1]);
    return { align: n === 2 ? 8 : 16, size: 4 * n, scalar: vec[2] as Scalar, count: n };
  }
  const arr = ARRAY.exec(type);
  if (arr) {
    const n = Number(arr[2]);
    if (!(n >= 1)) throw new Error(`WGSL array type '${type}' needs a length of at least 1`);
    return { align: 4, size: 4 * n, scalar: arr[1] as Scalar, count: n };
  }
  throw new Error(`WGSL type '${type}' is not supported by the struct helper (4-byte scalars, vectors and arrays of them)`);
}

const roundUp = (n: number, to: number): number => Math.ceil(n / to) * to;

/**
 * The layout of `struct name { members }`. Members are given in WGSL declaration order, e.g.
 * wgslStruct('Params', { width: 'u32', shift: 'vec4<f32>' }). Names starting with '_' are padding.
 */
export function wgslStruct<const M extends Record<string, WgslType>>(name: string, members: M): WgslStruct<Extract<keyof M, string>> {
  type F = Extract<keyof M, string>;
  const fields: WgslField[] = [];
  const field = {} as Record<F, WgslField>;
  const offset = {} as Record<F, number>;
  const count = {} as Record<F, number>;
  const type = {} as Record<F, Scalar>;
  let end = 0;
  let align = 4;
  for (const key of Object.keys(members) as F[]) {
    const t = wgslTypeLayout(members[key]);
    const byteOffset = roundUp(end, t.align);
    const f: WgslField = { name: key, type: members[key], scalar: t.scalar, count: t.count, byteOffset, byteSize: t.size, align: t.align };
    fields.push(f);
    field[key] = f;
    offset[key] = byteOffset / 4;
    count[key] = t.count;
    type[key] = t.scalar;
    end = byteOffset + t.size;
    align = Math.max(align, t.align);
  }
  if (fields.length === 0) throw new Error(`WGSL struct '${name}' needs at least one member`);
  const bytes = roundUp(end, align);
  return { name, align, fields, field, offset, count, type, bytes, words: bytes / 4 };
}

/** A value for one field: a number for a scalar member, numbers for a vector or array member. */
export type FieldValue = number | ArrayLike<number>;

/** Values of every field of a struct by name; padding fields ('_' names) may be left out. */
export type StructValues<F extends string> = { [K in F as K extends `_${string}` ? never : K]: FieldValue } & Partial<Record<F, FieldValue>>;

/**
 * One struct's bytes with every field written by name. Every field must be given except padding
 * ('_' names), which stays zero; a vector or array value must have exactly the member's length.
 */
export function writeStruct<F extends string>(layout: WgslStruct<F>, values: StructValues<F>): ArrayBuffer {
  const buffer = new ArrayBuffer(layout.bytes);
  const views = { f32: new Float32Array(buffer), u32: new Uint32Array(buffer), i32: new Int32Array(buffer) };
  const given = values as Partial<Record<F, FieldValue>>;
  for (const key of Object.keys(given)) {
    if (!(key in layout.field)) throw new Error(`${layout.name} has no field '${key}'`);
  }
  for (const f of layout.fields) {
    const v = given[f.name as F];
    if (v === undefined) {
      if (f.name.startsWith('_')) continue;
      throw new Error(`${layout.name}.${f.name} was not given`);
    }
    const list: ArrayLike<number> = typeof v === 'number' ? [v] : v;
    if (list.length !== f.count) throw new Error(`${layout.name}.${f.name} takes ${f.count} value(s), got ${list.length}`);
    const view = views[f.scalar];
    for (let k = 0; k < f.count; k++) view[f.byteOffset / 4 + k] = list[k];
  }
  return buffer;
}
