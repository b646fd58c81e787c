// PLY header parsing and element skipping for 3D Gaussian Splatting files.
// Input: the file bytes. Output: format, elements with their typed properties, and the byte
// offset of the body. Invariant: every problem is one PlyError line (bad magic, unknown format
// or type, header without end_header), never a partial header.

export class PlyError extends Error {
  override name = 'PlyError';
}

export type PlyFormat = 'binary_little_endian' | 'binary_big_endian' | 'ascii';
export type PlyScalar = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'f32' | 'f64';

const TYPE_ALIASES: Record<string, PlyScalar> = {
  char: 'i8', int8: 'i8', uchar: 'u8', uint8: 'u8', short: 'i16', int16: 'i16', ushort: 'u16', uint16: 'u16',
  int: 'i32', int32: 'i32', uint: 'u32', uint32: 'u32', float: 'f32', float32: 'f32', double: 'f64', float64: 'f64',
};

/** Most rows an element may declare (a header claiming more is refused before any allocation). */
export const MAX_PLY_ELEMENT_ROWS = 4 * 1024 * 1024;

export const SCALAR_BYTES: Record<PlyScalar, number> = { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, f32: 4, f64: 8 };

export interface PlyProperty {
  name: string;
  type: PlyScalar;
  /** List properties: the type of the element count before the items. */
  countType?: PlyScalar;
}

export interface PlyElement {
  name: string;
  count: number;
  properties: PlyProperty[];
}

export interface PlyHeader {
  format: PlyFormat;
  elements: PlyElement[];
  bodyOffset: number; // first byte after the "end_header\n" line
  /** Text of the `comment` lines, in order (producers record render modes and axes there). */
  comments: string[];
}

function scalar(word: string | undefined, line: string): PlyScalar {
  const t = word === undefined ? undefined : TYPE_ALIASES[word];
  if (!t) throw new PlyError(`unknown property type '${word ?? ''}' in header line '${line}'`);
  return t;
}

/** Parses the ASCII header at the start of a PLY file. */
export function parsePlyHeader(bytes: Uint8Array): PlyHeader {
  // The header is ASCII; search for its end in the first 64 KiB at most.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 65536)));
  if (!head.startsWith('ply\n') && !head.startsWith('ply\r\n')) throw new PlyError('not a PLY file (it does not start with "ply")');
  const end = /end_header\r?\n/.exec(head);
  if (!end) throw new PlyError('truncated PLY header: no end_header line');
  const lines = head.slice(0, end.index).split(/\r?\n/).slice(1);
  let format: PlyFormat | null = null;
  const elements: PlyElement[] = [];
  const comments: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    const w = line.split(/\s+/);
    if (w[0] === 'comment') comments.push(line.slice('comment'.length).trim());
    if (line === '' || w[0] === 'comment' || w[0] === 'obj_info') continue;
    if (w[0] === 'format') {
      if (w[1] !== 'ascii' && w[1] !== 'binary_little_endian' && w[1] !== 'binary_big_endian') {
        throw new PlyError(`unknown PLY format '${w[1] ?? ''}' (expected ascii, binary_little_endian or binary_big_endian)`);
      }
      if (w[2] !== '1.0') throw new PlyError(`unsupported PLY version '${w[2] ?? ''}' (expected 1.0)`);
      format = w[1];
    } else if (w[0] === 'element') {
      const count = Number(w[2]);
      if (!w[1] || !Number.isInteger(count) || count < 0) throw new PlyError(`bad element line '${line}'`);
      if (count > MAX_PLY_ELEMENT_ROWS) throw new PlyError(`element '${w[1]}' declares ${count} rows, over the limit of ${MAX_PLY_ELEMENT_ROWS}`);
      elements.push({ name: w[1], count, properties: [] });
    } else if (w[0] === 'property') {
      const el = elements[elements.length - 1];
      if (!el) throw new PlyError(`property before any element: '${line}'`);
      const prop: PlyProperty = w[1] === 'list'
        ? { name: w[4] ?? '', type: scalar(w[3], line), countType: scalar(w[2], line) }
        : { name: w[2] ?? '', type: scalar(w[1], line) };
      if (!prop.name) throw new PlyError(`property without a name: '${line}'`);
      el.properties.push(prop);
    } else {
      throw new PlyError(`unknown PLY header line '${line}'`);
    }
  }
  if (!format) throw new PlyError('PLY header has no format line');
  return { format, elements, bodyOffset: end.index + end[0].length, comments };
}

/** Reads one scalar of a binary body. */
export function readScalar(view: DataView, offset: number, type: PlyScalar, little: boolean): number {
  switch (type) {
    case 'i8': return view.getInt8(offset);
    case 'u8': return view.getUint8(offset);
    case 'i16': return view.getInt16(offset, little);
    case 'u16': return view.getUint16(offset, little);
    case 'i32': return view.getInt32(offset, little);
    case 'u32': return view.getUint32(offset, little);
    case 'f32': return view.getFloat32(offset, little);
    case 'f64': return view.getFloat64(offset, little);
  }
}

/** Bytes taken by `count` rows of a binary element starting at `offset` (lists read their counts). */
export function binaryElementBytes(view: DataView, offset: number, el: PlyElement, little: boolean): number {
  const fixed = el.properties.every((p) => !p.countType);
  if (fixed) return el.count * el.properties.reduce((s, p) => s + SCALAR_BYTES[p.type], 0);
  let at = offset;
  for (let i = 0; i < el.count; i++) {
    for (const p of el.properties) {
      if (p.countType) {
        if (at + SCALAR_BYTES[p.countType] > view.byteLength) throw new PlyError(`truncated PLY body in element '${el.name}'`);
        const n = readScalar(view, at, p.countType, little);
        at += SCALAR_BYTES[p.countType] + n * SCALAR_BYTES[p.type];
      } else at += SCALAR_BYTES[p.type];
    }
  }
  return at - offset;
}
