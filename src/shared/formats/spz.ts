// Niantic SPZ (versions 2-4): a 16-byte header (v2/v3, the whole file gzip-compressed) or a
// 32-byte header + table of per-attribute zstd streams (v4), then positions (24-bit fixed point),
// alphas, colours (f_dc * 0.15 + 0.5 in uint8), log scales ((s + 10) * 16), rotations (v2: x y z
// uint8; v3+: largest-three in 32 bits, x y z w order) and SH (uint8, (b - 128) / 128, [N, K, 3]).
// Inputs: decompressed bytes (the Node side inflates, within limits). Outputs: SplatFileData;
// encodeSpz makes the uncompressed v3 payload. Invariant: sizes are checked against the header
// before anything is allocated; a short payload is one FormatError line.
import { checkedRows } from './ply-common';
import { FORMAT_LABELS, FormatError, SH_C0, SH_REST_PER_CHANNEL, SplatsBuilder, type SplatFileData } from './types';
import type { Splats } from '../scene/splats';

const LABEL = FORMAT_LABELS.spz;
export const SPZ_MAGIC = 0x5053474e; // "NGSP" little-endian
const COLOR_SCALE = 0.15;
const FLAG_ANTIALIASED = 1;
export const SPZ_CONVENTION = 'SPZ spec: RUB (x right, y up, z back); converters that ignore it keep the source .ply frame';

export interface SpzHeader {
  version: number;
  count: number;
  shDegree: 0 | 1 | 2 | 3;
  fractionalBits: number;
  antialiased: boolean;
  headerBytes: number;
}

export interface SpzStreams {
  positions: Uint8Array;
  alphas: Uint8Array;
  colors: Uint8Array;
  scales: Uint8Array;
  rotations: Uint8Array;
  sh: Uint8Array;
}

/** Byte sizes of each attribute stream for a header (the order they appear in the file). */
export function spzStreamSizes(h: SpzHeader): number[] {
  const n = h.count;
  const rest = SH_REST_PER_CHANNEL[h.shDegree] * 3;
  return [n * 9, n, n * 3, n * 3, n * (h.version === 2 ? 3 : 4), n * rest];
}

export function parseSpzHeader(bytes: Uint8Array, maxRows: number): SpzHeader {
  if (bytes.byteLength < 16) throw new FormatError(`${LABEL}: truncated: ${bytes.byteLength} bytes, the header alone is 16`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0, true) !== SPZ_MAGIC) throw new FormatError(`${LABEL}: bad magic (not an SPZ file)`);
  const version = v.getUint32(4, true);
  if (version < 2 || version > 4) throw new FormatError(`${LABEL}: version ${version} is not supported (2, 3 or 4)`);
  const headerBytes = version >= 4 ? 32 : 16;
  if (bytes.byteLength < headerBytes) throw new FormatError(`${LABEL}: truncated: ${bytes.byteLength} bytes, the v${version} header is ${headerBytes}`);
  const deg = v.getUint8(12);
  if (deg > 3) throw new FormatError(`${LABEL}: SH degree ${deg} is not supported (0-3)`);
  return {
    version,
    count: checkedRows(LABEL, v.getUint32(8, true), maxRows),
    shDegree: deg as 0 | 1 | 2 | 3,
    fractionalBits: v.getUint8(13),
    antialiased: (v.getUint8(14) & FLAG_ANTIALIASED) !== 0,
    headerBytes,
  };
}

/** v4 table of contents: where each zstd stream lies and how large it inflates. */
export function spzV4Toc(bytes: Uint8Array, h: SpzHeader): { offset: number; compressed: number; uncompressed: number }[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const streams = v.getUint8(15);
  const toc = v.getUint32(16, true);
  const sizes = spzStreamSizes(h).slice(0, h.shDegree > 0 ? 6 : 5);
  if (streams !== sizes.length) throw new FormatError(`${LABEL}: v4 file has ${streams} streams, ${sizes.length} expected for SH degree ${h.shDegree}`);
  if (toc < 32 || toc + streams * 16 > bytes.byteLength) throw new FormatError(`${LABEL}: truncated: the v4 stream table lies outside the file`);
  let at = toc + streams * 16;
  return sizes.map((size, i) => {
    const compressed = Number(v.getBigUint64(toc + i * 16, true));
    const uncompressed = Number(v.getBigUint64(toc + i * 16 + 8, true));
    if (uncompressed !== size) throw new FormatError(`${LABEL}: v4 stream ${i} inflates to ${uncompressed} bytes, the header implies ${size}`);
    if (at + compressed > bytes.byteLength) throw new FormatError(`${LABEL}: truncated: v4 stream ${i} runs past the end of the file`);
    const entry = { offset: at, compressed, uncompressed };
    at += compressed;
    return entry;
  });
}

/** Splits a v2/v3 payload (already inflated) into its streams, refusing a short one. */
export function spzLegacyStreams(bytes: Uint8Array, h: SpzHeader): SpzStreams {
  const sizes = spzStreamSizes(h);
  const need = h.headerBytes + sizes.reduce((a, b) => a + b, 0);
  if (bytes.byteLength < need) throw new FormatError(`${LABEL}: truncated: ${h.count} Gaussians need ${need} bytes inflated, the file inflates to ${bytes.byteLength}`);
  const parts: Uint8Array[] = [];
  let at = h.headerBytes;
  for (const s of sizes) {
    parts.push(bytes.subarray(at, at + s));
    at += s;
  }
  return { positions: parts[0], alphas: parts[1], colors: parts[2], scales: parts[3], rotations: parts[4], sh: parts[5] };
}

export function decodeSpz(h: SpzHeader, s: SpzStreams, precision: 'f32' | 'f64' = 'f32'): SplatFileData {
  const b = new SplatsBuilder(h.count, h.shDegree, precision);
  const posScale = 1 / (1 << h.fractionalBits);
  const rest = b.k * 3;
  // One pass per attribute stream straight into the scene's arrays (the streams are attribute-
  // major): no per-Gaussian calls, the tables computed once (8-bit values take 256 values only).
  const { means, scales, quats, colors, opacities } = b.splats;
  const p = s.positions;
  for (let j = 0, n = h.count * 3; j < n; j++) {
    const o = j * 3;
    const v = (p[o] | (p[o + 1] << 8) | (p[o + 2] << 16)) << 8 >> 8; // sign-extend 24 bits
    means[j] = v * posScale;
  }
  const alphaOf = new Float64Array(256);
  const dcOf = new Float64Array(256);
  const scaleOf = new Float64Array(256);
  const shOf = new Float64Array(256);
  for (let v = 0; v < 256; v++) {
    alphaOf[v] = v / 255;
    dcOf[v] = 0.5 + SH_C0 * ((v / 255 - 0.5) / COLOR_SCALE);
    scaleOf[v] = Math.exp(v / 16 - 10);
    shOf[v] = (v - 128) / 128;
  }
  const { alphas, colors: cs, scales: ss } = s;
  for (let i = 0; i < h.count; i++) opacities[i] = alphaOf[alphas[i]];
  for (let j = 0, n = h.count * 3; j < n; j++) {
    colors[j] = dcOf[cs[j]];
    scales[j] = scaleOf[ss[j]];
  }
  const r = s.rotations;
  let zero = 0;
  for (let i = 0; i < h.count; i++) {
    let w: number, x: number, y: number, z: number;
    if (h.version === 2) {
      x = r[i * 3] / 127.5 - 1;
      y = r[i * 3 + 1] / 127.5 - 1;
      z = r[i * 3 + 2] / 127.5 - 1;
      w = Math.sqrt(Math.max(0, 1 - (x * x + y * y + z * z)));
    } else {
      // Largest-three: the top two bits name the dropped component, then three 10-bit fields
      // (sign bit and 9-bit magnitude) from the highest component index down.
      let packed = (r[i * 4] | (r[i * 4 + 1] << 8) | (r[i * 4 + 2] << 16) | (r[i * 4 + 3] << 24)) >>> 0;
      const largest = packed >>> 30;
      let sum = 0;
      let q3 = 0, q2 = 0, q1 = 0, q0 = 0;
      for (let j = 3; j >= 0; j--) {
        if (j === largest) continue;
        const mag = packed & 511;
        const neg = (packed >>> 9) & 1;
        packed >>>= 10;
        const v = (Math.SQRT1_2 * mag) / 511;
        const c = neg ? -v : v;
        sum += v * v;
        if (j === 3) q3 = c;
        else if (j === 2) q2 = c;
        else if (j === 1) q1 = c;
        else q0 = c;
      }
      const big = Math.sqrt(Math.max(0, 1 - sum));
      if (largest === 3) q3 = big;
      else if (largest === 2) q2 = big;
      else if (largest === 1) q1 = big;
      else q0 = big;
      w = q3;
      x = q0;
      y = q1;
      z = q2;
    }
    const norm = Math.sqrt(w * w + x * x + y * y + z * z);
    const o = i * 4;
    if (!(norm > 0)) {
      zero++;
      quats[o] = 1;
      quats[o + 1] = 0;
      quats[o + 2] = 0;
      quats[o + 3] = 0;
      continue;
    }
    quats[o] = w / norm;
    quats[o + 1] = x / norm;
    quats[o + 2] = y / norm;
    quats[o + 3] = z / norm;
  }
  b.zeroQuats += zero;
  // SH bytes are already [N, K, 3]: one pass over the stream.
  const sh = b.splats.sh;
  if (sh) {
    const out = sh.rest;
    const bytes = s.sh;
    for (let j = 0, n = h.count * rest; j < n; j++) out[j] = shOf[bytes[j]];
  }
  return {
    format: 'spz',
    detected: `${LABEL} v${h.version} (SH degree ${h.shDegree}${h.antialiased ? ', antialiased' : ''})`,
    splats: b.splats,
    shDegree: h.shDegree,
    antialiased: h.antialiased,
    flat2d: false,
    frame: { convention: SPZ_CONVENTION, up: '+y', source: 'guess' },
    warnings: b.notes(),
  };
}

const byte = (v: number): number => Math.min(255, Math.max(0, Math.round(v)));

/**
 * The uncompressed SPZ v3 payload of a scene (gzip it to get the file). Positions use 12
 * fractional bits (1/4096 steps, |x| < 2048); SH keeps 8 bits for every band.
 */
export function encodeSpzV3(splats: Splats, antialiased = false): Uint8Array {
  const n = splats.count;
  const degree = splats.sh?.degree ?? 0;
  const fractionalBits = 12;
  const h: SpzHeader = { version: 3, count: n, shDegree: degree, fractionalBits, antialiased, headerBytes: 16 };
  const sizes = spzStreamSizes(h);
  const out = new Uint8Array(16 + sizes.reduce((a, b) => a + b, 0));
  const v = new DataView(out.buffer);
  v.setUint32(0, SPZ_MAGIC, true);
  v.setUint32(4, 3, true);
  v.setUint32(8, n, true);
  v.setUint8(12, degree);
  v.setUint8(13, fractionalBits);
  v.setUint8(14, antialiased ? FLAG_ANTIALIASED : 0);
  let at = 16;
  const pos = at;
  const alpha = (at += sizes[0]);
  const col = (at += sizes[1]);
  const scl = (at += sizes[2]);
  const rot = (at += sizes[3]);
  const shAt = (at += sizes[4]);
  const limit = (1 << 23) - 1;
  const rest = SH_REST_PER_CHANNEL[degree] * 3;
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const f = Math.max(-limit, Math.min(limit, Math.round(splats.means[i * 3 + a] * (1 << fractionalBits))));
      const o = pos + i * 9 + a * 3;
      out[o] = f & 255;
      out[o + 1] = (f >> 8) & 255;
      out[o + 2] = (f >> 16) & 255;
      out[col + i * 3 + a] = byte(((splats.colors[i * 3 + a] - 0.5) / SH_C0 * COLOR_SCALE + 0.5) * 255);
      out[scl + i * 3 + a] = byte((Math.log(Math.max(1e-30, splats.scales[i * 3 + a])) + 10) * 16);
    }
    out[alpha + i] = byte(splats.opacities[i] * 255);
    // Largest-three: drop the largest |component| (made positive), keep three 9-bit magnitudes and signs.
    const q = [splats.quats[i * 4 + 1], splats.quats[i * 4 + 2], splats.quats[i * 4 + 3], splats.quats[i * 4]];
    let largest = 0;
    for (let j = 1; j < 4; j++) if (Math.abs(q[j]) > Math.abs(q[largest])) largest = j;
    const sign = q[largest] < 0 ? -1 : 1;
    let packed = largest;
    for (let j = 0; j < 4; j++) {
      if (j === largest) continue;
      const c = q[j] * sign;
      const mag = Math.min(511, Math.round((Math.abs(c) / Math.SQRT1_2) * 511));
      packed = (packed << 10) | ((c < 0 ? 1 : 0) << 9) | mag;
    }
    v.setUint32(rot + i * 4, packed >>> 0, true);
    const sh = splats.sh;
    if (sh) for (let k = 0; k < rest; k++) out[shAt + i * rest + k] = byte(sh.rest[i * rest + k] * 128 + 128);
  }
  return out;
}
