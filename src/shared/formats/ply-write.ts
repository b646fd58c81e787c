// Writes Splats as an INRIA-layout binary little-endian .ply (float32: x y z nx ny nz f_dc_0..2
// f_rest_* opacity scale_0..2 rot_0..3), SH bands kept, with the up axis and render model in
// header comments so they travel with the file. Inputs: Splats, rows in chunks (the Node side
// streams them to disk). Output: header bytes and row bytes.
// Invariant: reading the output back gives the scene to float32 precision (opacities are kept in
// [1e-6, 1 - 1e-6] so their logits stay finite; zero scales become 1e-12).
import type { Splats } from '../scene/splats';
import { upComment } from './ply-common';
import { SH_C0, SH_REST_PER_CHANNEL, type Axis } from './types';

const OPACITY_EPS = 1e-6;
const MIN_SCALE = 1e-12;

export interface PlyWriteOptions {
  up?: Axis;
  antialiased?: boolean;
}

function propertyNames(degree: number): string[] {
  const rest = SH_REST_PER_CHANNEL[degree] * 3;
  return ['x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2', ...Array.from({ length: rest }, (_, j) => `f_rest_${j}`), 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];
}

export function plyRowBytes(splats: Splats): number {
  return propertyNames(splats.sh?.degree ?? 0).length * 4;
}

export function encodePlyHeader(splats: Splats, opts: PlyWriteOptions = {}): Uint8Array {
  const lines = [
    'ply',
    'format binary_little_endian 1.0',
    'comment SplatLab export (INRIA 3DGS layout)',
    ...(opts.up ? [`comment ${upComment(opts.up)}`] : []),
    ...(opts.antialiased ? ['comment SplatRenderMode: mip'] : []),
    `element vertex ${splats.count}`,
    ...propertyNames(splats.sh?.degree ?? 0).map((p) => `property float ${p}`),
    'end_header',
    '',
  ];
  return new TextEncoder().encode(lines.join('\n'));
}

/** Rows first..first+rows-1 as little-endian float32. */
export function encodePlyRows(splats: Splats, first: number, rows: number): Uint8Array {
  const k = SH_REST_PER_CHANNEL[splats.sh?.degree ?? 0];
  const width = 17 + 3 * k;
  const out = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++) {
    const i = first + r;
    const o = r * width;
    for (let a = 0; a < 3; a++) {
      out[o + a] = splats.means[i * 3 + a];
      out[o + 6 + a] = (splats.colors[i * 3 + a] - 0.5) / SH_C0;
      out[o + 10 + 3 * k + a] = Math.log(Math.max(MIN_SCALE, splats.scales[i * 3 + a]));
    }
    const sh = splats.sh;
    // f_rest is channel-major in the file (all of red, then green, then blue).
    if (sh) for (let j = 0; j < 3 * k; j++) out[o + 9 + j] = sh.rest[(i * k + (j % k)) * 3 + Math.floor(j / k)];
    const alpha = Math.min(1 - OPACITY_EPS, Math.max(OPACITY_EPS, splats.opacities[i]));
    out[o + 9 + 3 * k] = Math.log(alpha / (1 - alpha));
    for (let c = 0; c < 4; c++) out[o + 13 + 3 * k + c] = splats.quats[i * 4 + c];
  }
  return new Uint8Array(out.buffer);
}
