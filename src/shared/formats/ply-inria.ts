// INRIA 3D Gaussian Splatting .ply bodies (the layout of the reference trainer and most tools):
// `vertex` rows with x y z, f_dc_0..2, f_rest_* (SH degree 0-3, channel-major), opacity (logit),
// scale_0..2 (log; 2DGS files carry only scale_0..1 and the third is flat), rot_0..3 (w x y z).
// Inputs: a parsed header, then body bytes row-aligned chunk by chunk (streaming) or whole.
// Output: SplatFileData. Invariant: the row layout is checked against the header before any
// allocation, and a body that ends early is refused with the rows it held (no partial scene).
import { type PlyHeader, type PlyScalar, readScalar, SCALAR_BYTES } from './ply-header';
import { checkedRows, frameFromComments, modelFromComments } from './ply-common';
import { FORMAT_LABELS, FormatError, shDegreeOfRest, SplatsBuilder, type BodySegment, type DecodeLimits, type SplatFileData, type StreamDecoder } from './types';

const LABEL = FORMAT_LABELS['inria-ply'];
const REQUIRED = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'rot_0', 'rot_1', 'rot_2', 'rot_3'] as const;

/** Streaming decoder of the vertex element of an INRIA-layout PLY. */
export class InriaPlyDecoder implements StreamDecoder {
  readonly count: number;
  readonly rowBytes: number;
  /** Byte offset of the first vertex row from the start of the file. */
  readonly vertexOffset: number;
  readonly shDegree: 0 | 1 | 2 | 3;
  readonly flat2d: boolean;
  private readonly builder: SplatsBuilder;
  private readonly types: PlyScalar[];
  private readonly offsets: number[];
  private readonly col: Record<string, number>;
  private readonly restCols: number[];
  private readonly allF32: boolean;
  private readonly little: boolean;
  private readonly row: Float64Array;
  private filled = 0;

  constructor(readonly header: PlyHeader, limits: DecodeLimits) {
    const vi = header.elements.findIndex((e) => e.name === 'vertex');
    if (vi < 0) throw new FormatError("INRIA .ply: the file has no 'vertex' element");
    const vertex = header.elements[vi];
    const index = new Map(vertex.properties.map((p, k) => [p.name, k]));
    const missing = REQUIRED.filter((n) => !index.has(n));
    if (missing.length) throw new FormatError(`not a 3D Gaussian Splatting PLY: missing vertex properties ${missing.join(', ')} (neither the ${LABEL} nor the PlayCanvas compressed layout)`);
    if (vertex.properties.some((p) => p.countType)) throw new FormatError("INRIA .ply: list properties in the 'vertex' element are not supported");
    this.count = checkedRows(LABEL, vertex.count, limits.maxRows);
    const rest = vertex.properties.filter((p) => /^f_rest_\d+$/.test(p.name));
    const degree = rest.length % 3 === 0 ? shDegreeOfRest(rest.length / 3) : -1;
    if (degree === -1) throw new FormatError(`${LABEL}: ${rest.length} f_rest properties match no SH degree (0, 9, 24 or 45 expected)`);
    this.shDegree = degree;
    this.restCols = Array.from({ length: rest.length }, (_, j) => {
      const k = index.get(`f_rest_${j}`);
      if (k === undefined) throw new FormatError(`${LABEL}: f_rest_${j} is missing (the f_rest properties must be numbered 0..${rest.length - 1})`);
      return k;
    });
    this.flat2d = !index.has('scale_2');
    this.col = Object.fromEntries([...REQUIRED, 'scale_2'].map((n) => [n, index.get(n) ?? -1]));
    this.types = vertex.properties.map((p) => p.type);
    this.offsets = [];
    let stride = 0;
    for (const t of this.types) {
      this.offsets.push(stride);
      stride += SCALAR_BYTES[t];
    }
    this.rowBytes = stride;
    let offset = header.bodyOffset;
    for (const el of header.elements.slice(0, vi)) {
      if (el.properties.some((p) => p.countType)) throw new FormatError(`${LABEL}: element '${el.name}' before 'vertex' has list properties (not supported)`);
      offset += el.count * el.properties.reduce((s, p) => s + SCALAR_BYTES[p.type], 0);
    }
    this.vertexOffset = offset;
    this.little = header.format === 'binary_little_endian';
    this.allF32 = this.little && this.types.every((t) => t === 'f32');
    this.row = new Float64Array(this.types.length);
    this.builder = new SplatsBuilder(this.count, this.shDegree, limits.precision);
  }

  /** Decodes `rows` complete rows from `bytes` (which starts at a row boundary) as rows firstRow.. . */
  decodeBinary(bytes: Uint8Array, firstRow: number, rows: number): void {
    if (bytes.byteLength < rows * this.rowBytes) throw new FormatError(`${LABEL}: internal error: chunk shorter than its rows`);
    if (this.allF32 && bytes.byteOffset % 4 === 0) {
      const w = this.types.length;
      const f = new Float32Array(bytes.buffer, bytes.byteOffset, rows * w);
      for (let r = 0; r < rows; r++) {
        for (let k = 0; k < w; k++) this.row[k] = f[r * w + k];
        this.setRow(firstRow + r);
      }
    } else {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let r = 0; r < rows; r++) {
        const base = r * this.rowBytes;
        for (let k = 0; k < this.types.length; k++) this.row[k] = readScalar(view, base + this.offsets[k], this.types[k], this.little);
        this.setRow(firstRow + r);
      }
    }
    this.filled = Math.max(this.filled, firstRow + rows);
  }

  /** One row of values in property order (the ASCII path). */
  decodeValues(values: ArrayLike<number>, rowIndex: number): void {
    for (let k = 0; k < this.types.length; k++) this.row[k] = values[k];
    this.setRow(rowIndex);
    this.filled = Math.max(this.filled, rowIndex + 1);
  }

  get segments(): BodySegment[] {
    if (this.header.format === 'ascii') throw new FormatError(`${LABEL}: an ASCII body is read whole, not streamed`);
    return [{ name: 'vertex', offset: this.vertexOffset, rowBytes: this.rowBytes, count: this.count, decode: (b, f, n) => this.decodeBinary(b, f, n) }];
  }

  get width(): number {
    return this.types.length;
  }

  private setRow(i: number): void {
    const v = this.row;
    const c = this.col;
    const b = this.builder;
    b.position(i, v[c.x], v[c.y], v[c.z]);
    b.dc(i, v[c.f_dc_0], v[c.f_dc_1], v[c.f_dc_2]);
    b.logitOpacity(i, v[c.opacity]);
    // 2DGS surfels are flat along their normal: a zero third standard deviation.
    b.scale(i, Math.exp(v[c.scale_0]), Math.exp(v[c.scale_1]), c.scale_2 < 0 ? 0 : Math.exp(v[c.scale_2]));
    b.quat(i, v[c.rot_0], v[c.rot_1], v[c.rot_2], v[c.rot_3]);
    const k = b.k;
    for (let j = 0; j < this.restCols.length; j++) b.rest(i, j % k, Math.floor(j / k), v[this.restCols[j]]);
  }

  finish(): SplatFileData {
    if (this.filled < this.count) throw new FormatError(`${LABEL}: truncated: ${this.count} vertices declared, the body holds ${this.filled}`);
    const model = modelFromComments(this.header.comments);
    const tags = [this.header.format, `SH degree ${this.shDegree}`, ...(this.flat2d || model === '2dgs' ? ['2DGS'] : []), ...(model === 'antialiased' ? ['antialiased'] : [])];
    return {
      format: 'inria-ply',
      detected: `${FORMAT_LABELS['inria-ply']} (${tags.join(', ')})`,
      splats: this.builder.splats,
      shDegree: this.shDegree,
      antialiased: model === 'antialiased',
      flat2d: this.flat2d || model === '2dgs',
      frame: frameFromComments(this.header.comments),
      warnings: this.builder.notes(),
    };
  }
}

/** Decodes an ASCII body (whole text after the header). */
export function decodeAsciiBody(decoder: InriaPlyDecoder, text: string): void {
  const header = decoder.header;
  const tokens = text.split(/\s+/).filter((t) => t !== '');
  let at = 0;
  const take = (where: string): number => {
    if (at >= tokens.length) throw new FormatError(`${LABEL}: truncated ASCII body: ran out of values in ${where}`);
    const t = tokens[at++];
    const v = Number(t);
    if (Number.isNaN(v) && t.toLowerCase() !== 'nan') throw new FormatError(`${LABEL}: bad number '${t}' in ${where}`);
    return v;
  };
  const values = new Float64Array(decoder.width);
  for (const el of header.elements) {
    const isVertex = el.name === 'vertex';
    for (let i = 0; i < el.count; i++) {
      el.properties.forEach((p, k) => {
        if (p.countType) {
          const n = take(`element '${el.name}' row ${i}`);
          for (let j = 0; j < n; j++) take(`element '${el.name}' row ${i}`);
        } else {
          const v = take(`element '${el.name}' row ${i}`);
          if (isVertex) values[k] = v;
        }
      });
      if (isVertex) decoder.decodeValues(values, i);
    }
    if (isVertex) return;
  }
}
