// PlayCanvas compressed .ply (SuperSplat / splat-transform): a `chunk` element of per-256-row
// float bounds, a `vertex` element of four packed uint32 (position 11-10-11, rotation
// largest-three 2-10-10-10, log scale 11-10-11, colour RGBA 8-8-8-8) and an optional `sh`
// element of uint8 f_rest_* (value = (byte / 256 - 0.5) * 8, 0 and 255 exact ends).
// Inputs: a parsed header, body rows streamed element by element. Output: SplatFileData.
// Invariant: element sizes and order are checked against the header before any allocation.
import { SCALAR_BYTES, type PlyElement, type PlyHeader } from './ply-header';
import { checkedRows, frameFromComments, modelFromComments } from './ply-common';
import { FORMAT_LABELS, FormatError, shDegreeOfRest, SplatsBuilder, type BodySegment, type DecodeLimits, type SplatFileData, type StreamDecoder } from './types';

const LABEL = FORMAT_LABELS['compressed-ply'];
const CHUNK_ROWS = 256;
const BOUNDS = ['min_x', 'min_y', 'min_z', 'max_x', 'max_y', 'max_z', 'min_scale_x', 'min_scale_y', 'min_scale_z', 'max_scale_x', 'max_scale_y', 'max_scale_z'] as const;
const COLOUR_BOUNDS = ['min_r', 'min_g', 'min_b', 'max_r', 'max_g', 'max_b'] as const;
const PACKED = ['packed_position', 'packed_rotation', 'packed_scale', 'packed_color'] as const;

/** A compressed PLY is recognised by its `chunk` element and packed vertex words. */
export function isCompressedPly(header: PlyHeader): boolean {
  const v = header.elements.find((e) => e.name === 'vertex');
  return header.elements.some((e) => e.name === 'chunk') && !!v?.properties.some((p) => p.name === 'packed_position');
}

const unorm = (v: number, bits: number): number => (v & ((1 << bits) - 1)) / ((1 << bits) - 1);
const lerp = (a: number, b: number, t: number): number => a * (1 - t) + b * t;
const ROT_NORM = Math.SQRT2; // the three stored components lie in [-1/sqrt2, 1/sqrt2]

function propertyIndex(el: PlyElement, names: readonly string[], type: 'f32' | 'u32' | 'u8'): number[] {
  return names.map((n) => {
    const k = el.properties.findIndex((p) => p.name === n);
    if (k < 0) throw new FormatError(`${LABEL}: element '${el.name}' has no property ${n}`);
    if (el.properties[k].type !== type) throw new FormatError(`${LABEL}: ${el.name}.${n} is ${el.properties[k].type}, expected ${type}`);
    return k;
  });
}

export class CompressedPlyDecoder implements StreamDecoder {
  readonly count: number;
  readonly shDegree: 0 | 1 | 2 | 3;
  readonly segments: BodySegment[] = [];
  private readonly builder: SplatsBuilder;
  private bounds: Float32Array | null = null;
  private boundsWidth = 0;
  private readonly hasColourBounds: boolean;
  private readonly arrived = new Map<string, number>();

  constructor(readonly header: PlyHeader, limits: DecodeLimits) {
    const byName = new Map(header.elements.map((e) => [e.name, e]));
    const chunk = byName.get('chunk');
    const vertex = byName.get('vertex');
    if (!chunk || !vertex) throw new FormatError(`${LABEL}: needs 'chunk' and 'vertex' elements`);
    this.count = checkedRows(LABEL, vertex.count, limits.maxRows);
    if (chunk.count !== Math.ceil(this.count / CHUNK_ROWS)) throw new FormatError(`${LABEL}: ${chunk.count} chunks for ${this.count} vertices (expected ${Math.ceil(this.count / CHUNK_ROWS)})`);
    const sh = byName.get('sh');
    const restCount = sh ? sh.properties.length : 0;
    const degree = restCount % 3 === 0 ? shDegreeOfRest(restCount / 3) : -1;
    if (degree === -1) throw new FormatError(`${LABEL}: ${restCount} SH properties match no SH degree (9, 24 or 45 expected)`);
    if (sh && sh.count !== this.count) throw new FormatError(`${LABEL}: ${sh.count} SH rows for ${this.count} vertices`);
    this.shDegree = degree;
    this.builder = new SplatsBuilder(this.count, degree, limits.precision);
    this.hasColourBounds = chunk.properties.some((p) => p.name === 'min_r');
    const boundCols = propertyIndex(chunk, this.hasColourBounds ? [...BOUNDS, ...COLOUR_BOUNDS] : BOUNDS, 'f32');
    const packedCols = propertyIndex(vertex, PACKED, 'u32');
    const shCols = sh ? propertyIndex(sh, Array.from({ length: restCount }, (_, j) => `f_rest_${j}`), 'u8') : [];
    if (header.format !== 'binary_little_endian') throw new FormatError(`${LABEL}: expected binary_little_endian, got ${header.format}`);
    let offset = header.bodyOffset;
    const order: string[] = [];
    for (const el of header.elements) {
      if (el.properties.some((p) => p.countType)) throw new FormatError(`${LABEL}: element '${el.name}' has list properties`);
      const rowBytes = el.properties.reduce((s, p) => s + SCALAR_BYTES[p.type], 0);
      const at = offset;
      offset += el.count * rowBytes;
      if (el === chunk) this.segments.push({ name: 'chunk', offset: at, rowBytes, count: el.count, decode: (b, f, n) => this.decodeBounds(b, f, n, boundCols, chunk.properties.length) });
      else if (el === vertex) this.segments.push({ name: 'vertex', offset: at, rowBytes, count: el.count, decode: (b, f, n) => this.decodeVertices(b, f, n, packedCols, vertex.properties.length) });
      else if (el === sh) this.segments.push({ name: 'sh', offset: at, rowBytes, count: el.count, decode: (b, f, n) => this.decodeSh(b, f, n, shCols, rowBytes) });
      else continue;
      order.push(el.name);
    }
    if (order.indexOf('chunk') > order.indexOf('vertex')) throw new FormatError(`${LABEL}: the 'chunk' element must come before 'vertex'`);
  }

  private note(name: string, upTo: number): void {
    this.arrived.set(name, Math.max(this.arrived.get(name) ?? 0, upTo));
  }

  private decodeBounds(bytes: Uint8Array, first: number, rows: number, cols: number[], width: number): void {
    const seg = this.segments.find((s) => s.name === 'chunk') as BodySegment;
    this.boundsWidth = cols.length;
    this.bounds ??= new Float32Array(seg.count * cols.length);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let r = 0; r < rows; r++) {
      for (let k = 0; k < cols.length; k++) this.bounds[(first + r) * cols.length + k] = view.getFloat32((r * width + cols[k]) * 4, true);
    }
    this.note('chunk', first + rows);
  }

  private decodeVertices(bytes: Uint8Array, first: number, rows: number, cols: number[], width: number): void {
    const bounds = this.bounds;
    if (!bounds) throw new FormatError(`${LABEL}: vertex rows before the chunk bounds`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const b = this.builder;
    const bw = this.boundsWidth;
    for (let r = 0; r < rows; r++) {
      const i = first + r;
      const base = r * width * 4;
      const o = Math.floor(i / CHUNK_ROWS) * bw;
      const pp = view.getUint32(base + cols[0] * 4, true);
      b.position(i, lerp(bounds[o], bounds[o + 3], unorm(pp >>> 21, 11)), lerp(bounds[o + 1], bounds[o + 4], unorm(pp >>> 11, 10)), lerp(bounds[o + 2], bounds[o + 5], unorm(pp, 11)));
      const ps = view.getUint32(base + cols[2] * 4, true);
      b.logScale(i, lerp(bounds[o + 6], bounds[o + 9], unorm(ps >>> 21, 11)), lerp(bounds[o + 7], bounds[o + 10], unorm(ps >>> 11, 10)), lerp(bounds[o + 8], bounds[o + 11], unorm(ps, 11)));
      const pr = view.getUint32(base + cols[1] * 4, true);
      const a = (unorm(pr >>> 20, 10) - 0.5) * ROT_NORM;
      const bb = (unorm(pr >>> 10, 10) - 0.5) * ROT_NORM;
      const c = (unorm(pr, 10) - 0.5) * ROT_NORM;
      const m = Math.sqrt(Math.max(0, 1 - (a * a + bb * bb + c * c)));
      // The 2-bit tag is the index, in rot_0..rot_3 = (w, x, y, z) order, of the dropped largest component.
      switch (pr >>> 30) {
        case 0: b.quat(i, m, a, bb, c); break;
        case 1: b.quat(i, a, m, bb, c); break;
        case 2: b.quat(i, a, bb, m, c); break;
        default: b.quat(i, a, bb, c, m);
      }
      const pc = view.getUint32(base + cols[3] * 4, true);
      const cr = unorm(pc >>> 24, 8);
      const cg = unorm(pc >>> 16, 8);
      const cb = unorm(pc >>> 8, 8);
      if (this.hasColourBounds) b.rgb(i, lerp(bounds[o + 12], bounds[o + 15], cr), lerp(bounds[o + 13], bounds[o + 16], cg), lerp(bounds[o + 14], bounds[o + 17], cb));
      else b.rgb(i, cr, cg, cb);
      b.opacity(i, unorm(pc, 8));
    }
    this.note('vertex', first + rows);
  }

  private decodeSh(bytes: Uint8Array, first: number, rows: number, cols: number[], rowBytes: number): void {
    const b = this.builder;
    const k = b.k;
    for (let r = 0; r < rows; r++) {
      for (let j = 0; j < cols.length; j++) {
        const byte = bytes[r * rowBytes + cols[j]];
        const t = byte === 0 ? 0 : byte === 255 ? 1 : (byte + 0.5) / 256;
        b.rest(first + r, j % k, Math.floor(j / k), (t - 0.5) * 8);
      }
    }
    this.note('sh', first + rows);
  }

  finish(): SplatFileData {
    for (const s of this.segments) {
      const got = this.arrived.get(s.name) ?? 0;
      if (got < s.count) throw new FormatError(`${LABEL}: truncated: ${s.count} ${s.name} rows declared, ${got} arrived`);
    }
    const model = modelFromComments(this.header.comments);
    return {
      format: 'compressed-ply',
      detected: `${LABEL} (SH degree ${this.shDegree}${model === 'antialiased' ? ', antialiased' : ''})`,
      splats: this.builder.splats,
      shDegree: this.shDegree,
      antialiased: model === 'antialiased',
      flat2d: model === '2dgs',
      frame: frameFromComments(this.header.comments),
      warnings: this.builder.notes(),
    };
  }
}

