// NumPy .npz reader/writer: a zip of .npy (format 1.0) arrays, plus the scene layout of the task
// contract (positions f4 [N,3], scales f4 [N,3], quaternions f4 [N,4] w,x,y,z, colors f4 [N,3],
// opacities f4 [N], groups int32 [N] + group_names <U, or groups as <U strings).
// Input/output: bytes. Invariant: writeNpz output is stored (uncompressed), little-endian, C order,
// and loads with numpy.load; readNpz also accepts deflated members (numpy.savez_compressed).
// The zip layer is fflate (io/zip.ts); the .npy headers are ours. A declared shape is checked
// against the member's real bytes before any array is allocated.
import { checkLimit, MAX_NPZ_MEMBER_BYTES, MAX_NPZ_TOTAL_BYTES, MAX_SCENE_ROWS } from './limits';
import { writeZip, ZipArchive } from './zip';

export type NpyDtype = 'f4' | 'f8' | 'i4' | 'i8' | 'u1' | 'b1' | 'U';

export type NpyArray =
  | { dtype: 'f4'; shape: number[]; data: Float32Array }
  | { dtype: 'f8'; shape: number[]; data: Float64Array }
  | { dtype: 'i4'; shape: number[]; data: Int32Array }
  | { dtype: 'i8' | 'u1' | 'b1'; shape: number[]; data: number[] }
  | { dtype: 'U'; shape: number[]; data: string[] };

export class NpzError extends Error {
  override name = 'NpzError';
}

const BYTES: Record<Exclude<NpyDtype, 'U'>, number> = { f4: 4, f8: 8, i4: 4, i8: 8, u1: 1, b1: 1 };

// ---------------------------------------------------------------------------------------- npy

function descr(a: NpyArray): string {
  if (a.dtype === 'U') return `<U${Math.max(1, ...a.data.map((s) => [...s].length))}`;
  return a.dtype === 'u1' || a.dtype === 'b1' ? `|${a.dtype}` : `<${a.dtype}`;
}

/** Serialises one array as .npy v1.0 (header padded so the data starts on a 64-byte boundary). */
export function encodeNpy(a: NpyArray): Uint8Array {
  const count = a.shape.reduce((p, d) => p * d, 1);
  if (a.data.length !== count) throw new NpzError(`array of shape [${a.shape}] needs ${count} values, got ${a.data.length}`);
  const d = descr(a);
  const shape = a.shape.length === 1 ? `(${a.shape[0]},)` : `(${a.shape.join(', ')})`;
  let header = `{'descr': '${d}', 'fortran_order': False, 'shape': ${shape}, }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header = header + ' '.repeat(pad % 64) + '\n';
  const width = a.dtype === 'U' ? Number(d.slice(2)) * 4 : BYTES[a.dtype];
  const out = new Uint8Array(10 + header.length + count * width);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  const view = new DataView(out.buffer, 10 + header.length);
  for (let i = 0; i < count; i++) {
    const o = i * width;
    switch (a.dtype) {
      case 'f4': view.setFloat32(o, a.data[i], true); break;
      case 'f8': view.setFloat64(o, a.data[i], true); break;
      case 'i4': view.setInt32(o, a.data[i], true); break;
      case 'i8': view.setBigInt64(o, BigInt(a.data[i]), true); break;
      case 'u1': case 'b1': view.setUint8(o, a.data[i]); break;
      case 'U': [...a.data[i]].forEach((ch, k) => view.setUint32(o + 4 * k, ch.codePointAt(0) as number, true)); break;
    }
  }
  return out;
}

/** Parses one .npy file (versions 1.0-3.0, little-endian or single-byte dtypes, C order). */
export function decodeNpy(bytes: Uint8Array, name = 'array'): NpyArray {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 10 || bytes[0] !== 0x93 || String.fromCharCode(...bytes.subarray(1, 6)) !== 'NUMPY') {
    throw new NpzError(`${name}: not a .npy array`);
  }
  const major = bytes[6];
  const hlen = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  const header = new TextDecoder().decode(bytes.subarray(start, start + hlen));
  const descrM = /'descr':\s*'([^']+)'/.exec(header);
  const fortranM = /'fortran_order':\s*(True|False)/.exec(header);
  const shapeM = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descrM || !fortranM || !shapeM) throw new NpzError(`${name}: unreadable .npy header`);
  const shape = shapeM[1].split(',').map((s) => s.trim()).filter((s) => s.length > 0).map(Number);
  if (shape.some((d) => !Number.isSafeInteger(d) || d < 0)) throw new NpzError(`${name}: bad shape (${shapeM[1]})`);
  const count = shape.reduce((p, d) => p * d, 1);
  if (!Number.isSafeInteger(count) || start + hlen > bytes.length) throw new NpzError(`${name}: truncated data`);
  if (fortranM[1] === 'True' && shape.length > 1) throw new NpzError(`${name}: Fortran-ordered arrays are not supported`);
  const body = new DataView(bytes.buffer, bytes.byteOffset + start + hlen);
  const dt = descrM[1];
  const need = (w: number): void => {
    if (body.byteLength < count * w) throw new NpzError(`${name}: truncated data`);
  };
  const uni = /^[<|=]U(\d+)$/.exec(dt);
  if (uni) {
    const chars = Number(uni[1]);
    need(chars * 4);
    const data: string[] = [];
    for (let i = 0; i < count; i++) {
      let s = '';
      for (let k = 0; k < chars; k++) {
        const cp = body.getUint32((i * chars + k) * 4, true);
        if (cp === 0) break;
        s += String.fromCodePoint(cp);
      }
      data.push(s);
    }
    return { dtype: 'U', shape, data };
  }
  const read = <T>(w: number, get: (o: number) => T): T[] => {
    need(w);
    const out = new Array<T>(count);
    for (let i = 0; i < count; i++) out[i] = get(i * w);
    return out;
  };
  // Typed dtypes fill their array directly (no intermediate JS array), after the size check.
  const typed = <A extends Float32Array | Float64Array | Int32Array>(out: A, w: number, get: (o: number) => number): A => {
    for (let i = 0; i < count; i++) out[i] = get(i * w);
    return out;
  };
  if (dt === '<f4' || dt === '<f8' || dt === '<i4') need(BYTES[dt.slice(1) as 'f4' | 'f8' | 'i4']);
  switch (dt) {
    case '<f4': return { dtype: 'f4', shape, data: typed(new Float32Array(count), 4, (o) => body.getFloat32(o, true)) };
    case '<f8': return { dtype: 'f8', shape, data: typed(new Float64Array(count), 8, (o) => body.getFloat64(o, true)) };
    case '<i4': return { dtype: 'i4', shape, data: typed(new Int32Array(count), 4, (o) => body.getInt32(o, true)) };
    case '<i8': return { dtype: 'i8', shape, data: read(8, (o) => Number(body.getBigInt64(o, true))) };
    case '|u1': return { dtype: 'u1', shape, data: read(1, (o) => body.getUint8(o)) };
    case '|b1': return { dtype: 'b1', shape, data: read(1, (o) => body.getUint8(o)) };
    default: throw new NpzError(`${name}: unsupported dtype '${dt}' (use float32, float64, int32, int64, uint8, bool or unicode)`);
  }
}

// ---------------------------------------------------------------------------------------- zip

/** Writes a stored zip of `name.npy` members, in insertion order (io/zip: fflate). */
export function writeNpz(arrays: Record<string, NpyArray>): Uint8Array {
  return writeZip(Object.fromEntries(Object.entries(arrays).map(([key, arr]) => [`${key}.npy`, encodeNpy(arr)])));
}

/** Reads every `*.npy` member of a zip (stored or deflated), each within the zip limits. */
export function readNpz(bytes: Uint8Array): Record<string, NpyArray> {
  let zip: ZipArchive;
  try {
    zip = new ZipArchive(bytes, { maxMemberBytes: MAX_NPZ_MEMBER_BYTES, maxTotalBytes: MAX_NPZ_TOTAL_BYTES });
  } catch (err) {
    throw new NpzError(`not a readable .npz file: ${(err as Error).message}`);
  }
  const out: Record<string, NpyArray> = {};
  for (const name of zip.names()) {
    if (!name.endsWith('.npy')) continue;
    const key = name.slice(0, -4);
    let member: Uint8Array;
    try {
      member = zip.read(name);
    } catch (err) {
      throw new NpzError(`${key}: ${(err as Error).message}`);
    }
    out[key] = decodeNpy(member, key);
  }
  return out;
}

// -------------------------------------------------------------------------------- scene layout

/** A scene as the task contract stores it in an .npz (float32 rows, group label per row). */
export interface NpzScene {
  count: number;
  positions: Float32Array; // [N, 3]
  scales: Float32Array; // [N, 3] standard deviations
  quaternions: Float32Array; // [N, 4] (w, x, y, z)
  colors: Float32Array; // [N, 3] in [0, 1]
  opacities: Float32Array; // [N]
  groups: (string | null)[]; // [N]; null = no group
}

/** Writes the contract layout: groups as int32 indices into `group_names` (-1 = no group). */
export function writeSceneNpz(scene: NpzScene): Uint8Array {
  const n = scene.count;
  const names = [...new Set(scene.groups.filter((g): g is string => g !== null))];
  const index = new Map(names.map((g, i) => [g, i]));
  const labels = Int32Array.from(scene.groups, (g) => (g === null ? -1 : (index.get(g) as number)));
  return writeNpz({
    positions: { dtype: 'f4', shape: [n, 3], data: scene.positions },
    scales: { dtype: 'f4', shape: [n, 3], data: scene.scales },
    quaternions: { dtype: 'f4', shape: [n, 4], data: scene.quaternions },
    colors: { dtype: 'f4', shape: [n, 3], data: scene.colors },
    opacities: { dtype: 'f4', shape: [n], data: scene.opacities },
    groups: { dtype: 'i4', shape: [n], data: labels },
    group_names: { dtype: 'U', shape: [names.length], data: names },
  });
}

function floatRows(arrays: Record<string, NpyArray>, key: string, n: number | null, width: number): Float32Array {
  const a = arrays[key];
  if (!a) throw new NpzError(`missing array '${key}'`);
  if (a.dtype === 'U') throw new NpzError(`'${key}' must be numeric`);
  const rows = a.shape[0];
  const ok = width === 1 ? a.shape.length === 1 : a.shape.length === 2 && a.shape[1] === width;
  if (!ok || (n !== null && rows !== n)) {
    throw new NpzError(`'${key}' has shape [${a.shape}], expected [${n ?? 'N'}${width === 1 ? '' : `, ${width}`}]`);
  }
  return Float32Array.from(a.data as ArrayLike<number>);
}

/** Reads the contract layout; groups may be int32 labels (+ group_names) or unicode strings. */
export function readSceneNpz(bytes: Uint8Array): NpzScene {
  const arrays = readNpz(bytes);
  const declared = arrays.positions?.shape[0] ?? 0;
  try {
    checkLimit("the scene's 'positions' rows", declared, MAX_SCENE_ROWS);
  } catch (err) {
    throw new NpzError((err as Error).message);
  }
  const positions = floatRows(arrays, 'positions', null, 3);
  const n = positions.length / 3;
  const scene: NpzScene = {
    count: n,
    positions,
    scales: floatRows(arrays, 'scales', n, 3),
    quaternions: floatRows(arrays, 'quaternions', n, 4),
    colors: floatRows(arrays, 'colors', n, 3),
    opacities: floatRows(arrays, 'opacities', n, 1),
    groups: new Array<string | null>(n).fill(null),
  };
  const g = arrays.groups;
  if (!g) return scene;
  if (g.shape.length !== 1 || g.shape[0] !== n) throw new NpzError(`'groups' has shape [${g.shape}], expected [${n}]`);
  if (g.dtype === 'U') {
    scene.groups = g.data.map((s) => (s === '' ? null : s));
    return scene;
  }
  const names = arrays.group_names;
  if (names && names.dtype !== 'U') throw new NpzError(`'group_names' must be a unicode array`);
  scene.groups = Array.from(g.data as ArrayLike<number>, (v) => {
    if (v < 0) return null;
    if (!names) return String(v);
    const name = names.data[v];
    if (name === undefined) throw new NpzError(`group label ${v} has no entry in 'group_names'`);
    return name;
  });
  return scene;
}
