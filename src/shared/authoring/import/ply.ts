// 3D Gaussian Splatting .ply files (the INRIA layout) to and from GaussianRecords.
// Import: ascii or binary (either endianness) PLY, `vertex` properties matched by name in any
// order; f_rest_* (any SH degree) and unknown properties are ignored. Export: binary little
// endian with x y z nx ny nz f_dc_0..2 f_rest_0..44 opacity scale_0..2 rot_0..3 as float32
// (normals and f_rest written as 0). Conversions: colour = 0.5 + SH_C0 * f_dc, opacity =
// sigmoid(logit), scale = exp(log scale), rot_0..3 = quaternion (w, x, y, z), normalised.
// Invariant: parsePly(serialisePly(records)) returns the records to float32 precision
// (opacities within 1e-6: exported logits are clamped to stay finite).
import type { GaussianRecord } from '../../scene/gaussian';
import { upComment } from '../../formats/ply-common';
import { binaryElementBytes, parsePlyHeader, PlyError, readScalar, SCALAR_BYTES, type PlyElement } from '../../formats/ply-header';

export { PlyError } from '../../formats/ply-header';

/** Zeroth-order spherical-harmonic constant 1 / (2 sqrt(pi)). */
export const SH_C0 = 0.28209479177387814;
/** Opacity is kept inside [eps, 1 - eps] on export so its logit is finite in float32. */
export const OPACITY_EPS = 1e-6;
const F_REST_COUNT = 45; // degree 3: 15 coefficients per channel
const REQUIRED = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'] as const;

export interface PlyImport {
  records: GaussianRecord[];
  /** Spherical-harmonic degree of the file (from the f_rest_* count); only degree 0 is used. */
  shDegree: number;
  /** One line per thing changed on the way in (clamped colours, dropped SH, zero quaternions). */
  warnings: string[];
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

function shDegreeOf(fRest: number, warnings: string[]): number {
  for (const [deg, n] of [[0, 0], [1, 9], [2, 24], [3, 45]] as const) if (fRest === n) return deg;
  warnings.push(`${fRest} f_rest properties match no SH degree (0, 9, 24 or 45 expected); ignored`);
  return -1;
}

/** Values of the vertex element as rows of numbers, one per scalar property (lists skipped). */
function vertexRows(bytes: Uint8Array, format: string, elements: PlyElement[], bodyOffset: number, vertexIndex: number): { row: (i: number, out: Float64Array) => void } {
  const vertex = elements[vertexIndex];
  const width = vertex.properties.length;
  if (format === 'ascii') {
    const tokens = new TextDecoder('latin1').decode(bytes.subarray(bodyOffset)).split(/\s+/).filter((t) => t !== '');
    let at = 0;
    const take = (what: string): number => {
      if (at >= tokens.length) throw new PlyError(`truncated PLY body: ran out of values in ${what}`);
      const v = Number(tokens[at++]);
      if (Number.isNaN(v) && tokens[at - 1].toLowerCase() !== 'nan') throw new PlyError(`bad number '${tokens[at - 1]}' in ${what}`);
      return v;
    };
    // Each value is at least one token: a count the body cannot hold is refused before allocating.
    if (vertex.count * width > tokens.length) {
      const where = vertexIndex === 0 ? ` in element 'vertex' row ${Math.floor(tokens.length / Math.max(1, width))}` : '';
      throw new PlyError(`truncated PLY body: ran out of values${where} (${vertex.count} vertices need ${vertex.count * width} values, ${tokens.length} follow the header)`);
    }
    const values = new Float64Array(vertex.count * width);
    elements.forEach((el, e) => {
      if (e > vertexIndex) return;
      for (let i = 0; i < el.count; i++) {
        el.properties.forEach((p, k) => {
          const where = `element '${el.name}' row ${i}`;
          if (p.countType) {
            const n = take(where);
            for (let j = 0; j < n; j++) take(where);
          } else {
            const v = take(where);
            if (e === vertexIndex) values[i * width + k] = v;
          }
        });
      }
    });
    return { row: (i, out) => out.set(values.subarray(i * width, (i + 1) * width)) };
  }
  const little = format === 'binary_little_endian';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = bodyOffset;
  for (let e = 0; e < vertexIndex; e++) offset += binaryElementBytes(view, offset, elements[e], little);
  if (vertex.properties.some((p) => p.countType)) throw new PlyError("list properties in the 'vertex' element are not supported");
  const offsets: number[] = [];
  let stride = 0;
  for (const p of vertex.properties) {
    offsets.push(stride);
    stride += SCALAR_BYTES[p.type];
  }
  const need = vertex.count * stride;
  if (offset + need > bytes.length) {
    const have = Math.max(0, bytes.length - offset);
    throw new PlyError(`truncated PLY: ${vertex.count} vertices need ${need} bytes but only ${have} follow the header (${Math.floor(have / stride)} complete vertices)`);
  }
  return {
    row: (i, out) => {
      const base = offset + i * stride;
      vertex.properties.forEach((p, k) => {
        out[k] = readScalar(view, base + offsets[k], p.type, little);
      });
    },
  };
}

/** Parses a 3DGS .ply file into records (ids 0..N-1 in file order). */
export function parsePly(bytes: Uint8Array): PlyImport {
  const header = parsePlyHeader(bytes);
  const vertexIndex = header.elements.findIndex((e) => e.name === 'vertex');
  if (vertexIndex < 0) throw new PlyError("PLY file has no 'vertex' element");
  const vertex = header.elements[vertexIndex];
  const index = new Map(vertex.properties.map((p, k) => [p.name, k]));
  const missing = REQUIRED.filter((name) => !index.has(name));
  if (missing.length) throw new PlyError(`not a 3D Gaussian Splatting PLY: missing vertex properties ${missing.join(', ')}`);
  const col = Object.fromEntries(REQUIRED.map((name) => [name, index.get(name) as number])) as Record<(typeof REQUIRED)[number], number>;
  const warnings: string[] = [];
  const fRest = vertex.properties.filter((p) => /^f_rest_\d+$/.test(p.name)).length;
  const shDegree = shDegreeOf(fRest, warnings);
  if (shDegree > 0) warnings.push(`SH degree ${shDegree} colours reduced to their view-independent (degree 0) part`);
  const rows = vertexRows(bytes, header.format, header.elements, header.bodyOffset, vertexIndex);
  const v = new Float64Array(vertex.properties.length);
  let clampedColours = 0;
  let zeroQuats = 0;
  const records: GaussianRecord[] = [];
  for (let i = 0; i < vertex.count; i++) {
    rows.row(i, v);
    for (const name of REQUIRED) {
      if (!Number.isFinite(v[col[name]])) throw new PlyError(`vertex ${i}: ${name} is ${v[col[name]]}`);
    }
    const raw = [v[col.f_dc_0], v[col.f_dc_1], v[col.f_dc_2]].map((f) => 0.5 + SH_C0 * f);
    if (raw.some((c) => c < 0 || c > 1)) clampedColours++;
    const q = [v[col.rot_0], v[col.rot_1], v[col.rot_2], v[col.rot_3]];
    let n = Math.hypot(q[0], q[1], q[2], q[3]);
    if (!(n > 0)) {
      zeroQuats++;
      q.splice(0, 4, 1, 0, 0, 0);
      n = 1;
    }
    records.push({
      id: i,
      pos: [v[col.x], v[col.y], v[col.z]],
      scale: [Math.exp(v[col.scale_0]), Math.exp(v[col.scale_1]), Math.exp(v[col.scale_2])],
      quat: [q[0] / n, q[1] / n, q[2] / n, q[3] / n],
      color: [clamp01(raw[0]), clamp01(raw[1]), clamp01(raw[2])],
      opacity: sigmoid(v[col.opacity]),
    });
  }
  if (clampedColours) warnings.push(`${clampedColours} Gaussian(s) had colours outside [0, 1]; clamped`);
  if (zeroQuats) warnings.push(`${zeroQuats} Gaussian(s) had a zero quaternion; set to identity`);
  return { records, shDegree: Math.max(0, shDegree), warnings };
}

const EXPORT_PROPERTIES: string[] = [
  'x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2',
  ...Array.from({ length: F_REST_COUNT }, (_, i) => `f_rest_${i}`),
  'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3',
];

/** Writes records as a binary little-endian INRIA-layout 3DGS .ply (float32 properties). */
export function serialisePly(records: readonly GaussianRecord[]): Uint8Array {
  const header = [
    'ply',
    'format binary_little_endian 1.0',
    'comment SplatLab export: flat colours (f_rest = 0), normals unused (0)',
    // The lab's world is Z up; readers that know this comment keep the scene upright.
    `comment ${upComment('+z')}`,
    `element vertex ${records.length}`,
    ...EXPORT_PROPERTIES.map((p) => `property float ${p}`),
    'end_header',
    '',
  ].join('\n');
  const head = new TextEncoder().encode(header);
  const width = EXPORT_PROPERTIES.length;
  const out = new Uint8Array(head.length + records.length * width * 4);
  out.set(head, 0);
  const view = new DataView(out.buffer);
  const opacityAt = 6 + 3 + F_REST_COUNT;
  records.forEach((r, i) => {
    const row = new Float64Array(width); // normals and f_rest stay 0
    row.set(r.pos, 0);
    for (let c = 0; c < 3; c++) row[6 + c] = (r.color[c] - 0.5) / SH_C0;
    const o = Math.min(1 - OPACITY_EPS, Math.max(OPACITY_EPS, r.opacity));
    row[opacityAt] = Math.log(o / (1 - o));
    for (let a = 0; a < 3; a++) row[opacityAt + 1 + a] = Math.log(r.scale[a]);
    row.set(r.quat, opacityAt + 4);
    const base = head.length + i * width * 4;
    for (let k = 0; k < width; k++) view.setFloat32(base + 4 * k, row[k], true);
  });
  return out;
}
