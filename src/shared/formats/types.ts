// The common result of every splat-file decoder (docs/FORMATS.md): the format named, the Splats,
// and what the file says about its frame. Inputs: none (types, the error class, the builder
// the decoders fill). Invariant: a decoder either returns a complete SplatFileData or throws one
// FormatError line naming the format; it never returns a partly filled scene.
import { emptySplats, type Splats } from '../scene/splats';

/** What a decoder is given: the row limit and the float width of the scene it builds. */
export interface DecodeLimits {
  maxRows: number;
  precision?: 'f32' | 'f64';
}

export const SPLAT_FORMATS = ['inria-ply', 'compressed-ply', 'spz', 'sog', 'splat'] as const;
export type SplatFormat = (typeof SPLAT_FORMATS)[number];

export const FORMAT_LABELS: Record<SplatFormat, string> = {
  'inria-ply': 'INRIA 3DGS .ply',
  'compressed-ply': 'PlayCanvas compressed .ply',
  spz: 'Niantic SPZ',
  sog: 'PlayCanvas SOG v2',
  splat: 'antimatter15 .splat',
};

/** One signed axis: the lab's world is Z up (docs/DESIGN.md section 2). */
export const AXES = ['+x', '-x', '+y', '-y', '+z', '-z'] as const;
export type Axis = (typeof AXES)[number];

/**
 * What the file says about its axes. `up` is where the capture's up points in the file's own
 * coordinates; `source` says how it is known: written in the file (a SplatLab header comment),
 * the format's documented convention, or a guess from what tools usually write (the importer
 * shows it and the user confirms or changes it).
 */
export interface FrameHint {
  convention: string;
  up: Axis | null;
  source: 'file' | 'convention' | 'guess';
}

export interface SplatFileData {
  format: SplatFormat;
  /** e.g. "Niantic SPZ v3" or "INRIA 3DGS .ply (binary_little_endian, SH degree 3, 2DGS)". */
  detected: string;
  splats: Splats;
  shDegree: 0 | 1 | 2 | 3;
  /** Trained with the antialiased (mip) filter, where the file records it. */
  antialiased: boolean;
  /** 2DGS surfels: the third scale is flat (a file with two scale columns). */
  flat2d: boolean;
  frame: FrameHint;
  warnings: string[];
}

export class FormatError extends Error {
  override name = 'FormatError';
}

/** Coefficients per colour channel beyond the DC term, by SH degree. */
export const SH_REST_PER_CHANNEL = [0, 3, 8, 15] as const;
export const SH_C0 = 0.28209479177387814;

export function shDegreeOfRest(perChannel: number): 0 | 1 | 2 | 3 | -1 {
  const d = SH_REST_PER_CHANNEL.indexOf(perChannel as 0 | 3 | 8 | 15);
  return d < 0 ? -1 : (d as 0 | 1 | 2 | 3);
}

/** Float32 bytes one decoded Gaussian takes (means, scales, quats, colours, opacity, SH rest). */
export function decodedBytesPerGaussian(shDegree: number): number {
  return 4 * (3 + 3 + 4 + 3 + 1 + 3 * (SH_REST_PER_CHANNEL[shDegree] ?? 0));
}

/**
 * Fills a Splats row by row from the stored (pre-activation) values most formats keep: log
 * scales, logit opacity, f_dc, quaternion in any length. Counts the rows it had to repair.
 */
export class SplatsBuilder {
  readonly k: number;
  zeroQuats = 0;
  nonFinite = 0;
  private value: Splats | null = null;

  constructor(
    readonly count: number,
    readonly shDegree: 0 | 1 | 2 | 3,
    readonly precision: 'f32' | 'f64' = 'f32',
  ) {
    this.k = SH_REST_PER_CHANNEL[shDegree];
  }

  /** Allocated on first use, so a reader can refuse a truncated file before the scene exists. */
  get splats(): Splats {
    if (!this.value) {
      // Shared memory (where the runtime has it): the tile rasterizer's threads then read the
      // decoded scene itself, so a capture is held once, not once more for the workers.
      const s = emptySplats(this.count, this.precision, true);
      const n = this.count * this.k * 3;
      const share = typeof SharedArrayBuffer === 'function';
      const bytes = n * (this.precision === 'f32' ? 4 : 8);
      const rest = this.precision === 'f32' ? (share ? new Float32Array(new SharedArrayBuffer(bytes)) : new Float32Array(n)) : share ? new Float64Array(new SharedArrayBuffer(bytes)) : new Float64Array(n);
      if (this.shDegree > 0) s.sh = { degree: this.shDegree as 1 | 2 | 3, rest };
      this.value = s;
    }
    return this.value;
  }

  position(i: number, x: number, y: number, z: number): void {
    const m = this.splats.means;
    m[i * 3] = x;
    m[i * 3 + 1] = y;
    m[i * 3 + 2] = z;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) this.nonFinite++;
  }

  /** Linear standard deviations. */
  scale(i: number, a: number, b: number, c: number): void {
    const s = this.splats.scales;
    s[i * 3] = a;
    s[i * 3 + 1] = b;
    s[i * 3 + 2] = c;
  }

  logScale(i: number, a: number, b: number, c: number): void {
    this.scale(i, Math.exp(a), Math.exp(b), Math.exp(c));
  }

  /** (w, x, y, z), normalised here; a zero quaternion becomes the identity (counted). */
  quat(i: number, w: number, x: number, y: number, z: number): void {
    const q = this.splats.quats;
    // Not Math.hypot: it is several times slower in V8, and this runs once per Gaussian.
    const n = Math.sqrt(w * w + x * x + y * y + z * z);
    if (!(n > 0) || !Number.isFinite(n)) {
      this.zeroQuats++;
      q.set([1, 0, 0, 0], i * 4);
      return;
    }
    q[i * 4] = w / n;
    q[i * 4 + 1] = x / n;
    q[i * 4 + 2] = y / n;
    q[i * 4 + 3] = z / n;
  }

  /** The colour as 0.5 + SH_C0 * f_dc (unclamped: the rasterizer clamps the evaluated colour). */
  dc(i: number, f0: number, f1: number, f2: number): void {
    this.rgb(i, 0.5 + SH_C0 * f0, 0.5 + SH_C0 * f1, 0.5 + SH_C0 * f2);
  }

  rgb(i: number, r: number, g: number, b: number): void {
    const c = this.splats.colors;
    c[i * 3] = r;
    c[i * 3 + 1] = g;
    c[i * 3 + 2] = b;
  }

  opacity(i: number, alpha: number): void {
    this.splats.opacities[i] = alpha;
  }

  logitOpacity(i: number, logit: number): void {
    this.splats.opacities[i] = 1 / (1 + Math.exp(-logit));
  }

  /** SH coefficient k (0-based, band 1 on) of channel c. */
  rest(i: number, k: number, c: number, v: number): void {
    const sh = this.splats.sh;
    if (sh) sh.rest[(i * this.k + k) * 3 + c] = v;
  }

  /** One line per repair (to be shown as warnings). */
  notes(): string[] {
    const out: string[] = [];
    if (this.zeroQuats) out.push(`${this.zeroQuats} Gaussian(s) had a zero or non-finite quaternion; set to identity`);
    if (this.nonFinite) out.push(`${this.nonFinite} Gaussian(s) have a non-finite position`);
    return out;
  }
}

/**
 * A fixed-stride run of rows in a file (a PLY element, the 32-byte rows of a .splat): the
 * reader streams each segment in order, row-aligned chunk by chunk, into `decode`.
 */
export interface BodySegment {
  name: string;
  offset: number;
  rowBytes: number;
  count: number;
  decode(bytes: Uint8Array, firstRow: number, rows: number): void;
}

/** A format decoded by streaming its segments, then `finish` (which checks every row arrived). */
export interface StreamDecoder {
  segments: BodySegment[];
  finish(): SplatFileData;
}

/** Feeds a whole in-memory file through a StreamDecoder (small files, tests). */
export function decodeWhole(decoder: StreamDecoder, bytes: Uint8Array, label: string): SplatFileData {
  for (const s of decoder.segments) {
    const need = s.offset + s.count * s.rowBytes;
    if (need > bytes.byteLength) {
      const have = Math.max(0, Math.floor((bytes.byteLength - s.offset) / Math.max(1, s.rowBytes)));
      throw new FormatError(`${label}: truncated: ${s.count} ${s.name} rows declared (${need} bytes), the file has ${bytes.byteLength} bytes (${have} complete rows)`);
    }
    // Copy to an aligned buffer so typed-array views of the rows are legal.
    const body = bytes.byteOffset % 4 === 0 && s.offset % 4 === 0 ? bytes.subarray(s.offset, need) : bytes.slice(s.offset, need);
    s.decode(body, 0, s.count);
  }
  return decoder.finish();
}
