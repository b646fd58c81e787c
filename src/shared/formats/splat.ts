// antimatter15 .splat: no header, 32-byte rows of position float32 x3, linear scale float32 x3,
// colour RGBA uint8 (alpha = opacity) and rotation uint8 x4 (w x y z, (byte - 128) / 128).
// Inputs: the file size (the row count follows from it), rows streamed. Output: SplatFileData.
// Invariant: a size that is not a whole number of rows is refused before decoding.
import { checkedRows, PLY_CONVENTION } from './ply-common';
import { FORMAT_LABELS, FormatError, SplatsBuilder, type BodySegment, type DecodeLimits, type SplatFileData, type StreamDecoder } from './types';

export const SPLAT_ROW_BYTES = 32;
const LABEL = FORMAT_LABELS.splat;

export class SplatDecoder implements StreamDecoder {
  readonly count: number;
  readonly segments: BodySegment[];
  private readonly builder: SplatsBuilder;
  private filled = 0;

  constructor(fileBytes: number, limits: DecodeLimits) {
    if (fileBytes % SPLAT_ROW_BYTES !== 0) {
      throw new FormatError(`${LABEL}: ${fileBytes} bytes is not a whole number of 32-byte rows (truncated, or not a .splat file)`);
    }
    this.count = checkedRows(LABEL, fileBytes / SPLAT_ROW_BYTES, limits.maxRows);
    this.builder = new SplatsBuilder(this.count, 0, limits.precision);
    this.segments = [{ name: 'splat', offset: 0, rowBytes: SPLAT_ROW_BYTES, count: this.count, decode: (b, f, n) => this.decode(b, f, n) }];
  }

  private decode(bytes: Uint8Array, first: number, rows: number): void {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const b = this.builder;
    for (let r = 0; r < rows; r++) {
      const o = r * SPLAT_ROW_BYTES;
      const i = first + r;
      const f = (k: number): number => view.getFloat32(o + 4 * k, true);
      b.position(i, f(0), f(1), f(2));
      b.scale(i, f(3), f(4), f(5));
      b.rgb(i, bytes[o + 24] / 255, bytes[o + 25] / 255, bytes[o + 26] / 255);
      b.opacity(i, bytes[o + 27] / 255);
      b.quat(i, (bytes[o + 28] - 128) / 128, (bytes[o + 29] - 128) / 128, (bytes[o + 30] - 128) / 128, (bytes[o + 31] - 128) / 128);
    }
    this.filled = Math.max(this.filled, first + rows);
  }

  finish(): SplatFileData {
    if (this.filled < this.count) throw new FormatError(`${LABEL}: truncated: ${this.count} rows expected, ${this.filled} arrived`);
    return {
      format: 'splat',
      detected: `${LABEL} (${this.count} rows, SH degree 0)`,
      splats: this.builder.splats,
      shDegree: 0,
      antialiased: false,
      flat2d: false,
      frame: { convention: PLY_CONVENTION, up: '-y', source: 'guess' },
      warnings: this.builder.notes(),
    };
  }
}
