// PlayCanvas SOG v2: meta.json (count, bounds, codebooks, file names) plus lossless WebP
// textures, one texel per Gaussian: means as 16-bit (two textures) of sign(x) log(1 + |x|)
// between mins and maxs; quats largest-three (RGB, tag 252 + index in A); scales and sh0 as
// indices into 256-entry codebooks (sh0's A = opacity); shN as a label into a palette of
// centroids. Inputs: meta JSON and the decoded RGBA textures (the Node side reads and decodes
// them). Output: SplatFileData. Invariant: every texture is checked to hold `count` texels, and
// codebooks to hold 256 entries, before any decoding.
import { z } from 'zod';
import { checkedRows, PLY_CONVENTION } from './ply-common';
import { FORMAT_LABELS, FormatError, SH_C0, SH_REST_PER_CHANNEL, SplatsBuilder, type SplatFileData } from './types';

const LABEL = FORMAT_LABELS.sog;
// JSON cannot hold -Infinity or NaN: codebooks carry them as null.
const codebook = z.array(z.number().nullable()).length(256);
const files = (n: number) => z.array(z.string().min(1).max(200)).length(n);

export const SogMetaSchema = z.object({
  version: z.literal(2),
  count: z.number().int().nonnegative(),
  /** The render model the scene was trained for ('default', 'antialiased', '2dgs'). */
  model: z.string().max(40).optional(),
  means: z.object({ mins: z.array(z.number()).length(3), maxs: z.array(z.number()).length(3), files: files(2) }),
  scales: z.object({ codebook, files: files(1) }),
  quats: z.object({ files: files(1) }),
  sh0: z.object({ codebook, files: files(1) }),
  shN: z.object({ count: z.number().int().positive(), bands: z.number().int().min(1).max(3), codebook, files: files(2) }).optional(),
});
export type SogMeta = z.infer<typeof SogMetaSchema>;

export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Parses meta.json text, refusing anything but a well-formed v2 meta in one line. */
export function parseSogMeta(text: string, maxRows: number): SogMeta {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FormatError(`${LABEL}: meta.json is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== 2) throw new FormatError(`${LABEL}: meta.json version ${JSON.stringify(version ?? null)} is not supported (2)`);
  const r = SogMetaSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new FormatError(`${LABEL}: meta.json ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  checkedRows(LABEL, r.data.count, maxRows);
  return r.data;
}

/** Every texture file the meta names, in the order decodeSog expects them. */
export function sogFiles(meta: SogMeta): string[] {
  return [...meta.means.files, ...meta.scales.files, ...meta.quats.files, ...meta.sh0.files, ...(meta.shN?.files ?? [])];
}

const invLog = (v: number): number => Math.sign(v) * (Math.exp(Math.abs(v)) - 1);
// For each dropped (largest) component in (w, x, y, z), where the three stored ones go.
const QUAT_SLOTS = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];

function table(values: readonly (number | null)[], nullAs: number): Float64Array {
  return Float64Array.from(values, (v) => (v === null ? nullAs : v));
}

export function decodeSog(meta: SogMeta, images: ReadonlyMap<string, RgbaImage>, precision: 'f32' | 'f64' = 'f32'): SplatFileData {
  const n = meta.count;
  const image = (name: string, texels: number): Uint8Array => {
    const img = images.get(name);
    if (!img) throw new FormatError(`${LABEL}: texture ${name} is missing`);
    if (img.width * img.height < texels || img.rgba.length < img.width * img.height * 4) {
      throw new FormatError(`${LABEL}: texture ${name} is ${img.width}x${img.height}, too small for ${texels} entries`);
    }
    return img.rgba;
  };
  const lo = image(meta.means.files[0], n);
  const hi = image(meta.means.files[1], n);
  const qt = image(meta.quats.files[0], n);
  const sc = image(meta.scales.files[0], n);
  const c0 = image(meta.sh0.files[0], n);
  const sCode = table(meta.scales.codebook, -Infinity); // -Infinity: a zero scale
  const cCode = table(meta.sh0.codebook, 0);
  const degree = (meta.shN?.bands ?? 0) as 0 | 1 | 2 | 3;
  const k = SH_REST_PER_CHANNEL[degree];
  let centroids: RgbaImage | null = null;
  let labels: Uint8Array | null = null;
  if (meta.shN) {
    const cimg = images.get(meta.shN.files[0]);
    if (!cimg || cimg.width !== 64 * k) throw new FormatError(`${LABEL}: SH centroids texture must be ${64 * k} texels wide for ${degree} bands (got ${cimg?.width ?? 'none'})`);
    if (cimg.height * 64 < meta.shN.count) throw new FormatError(`${LABEL}: SH centroids texture holds ${cimg.height * 64} entries, meta says ${meta.shN.count}`);
    centroids = cimg;
    labels = image(meta.shN.files[1], n);
  }
  const shCode = table(meta.shN?.codebook ?? [], 0);
  const b = new SplatsBuilder(n, degree, precision);
  const [x0, y0, z0] = meta.means.mins;
  const [dx, dy, dz] = meta.means.maxs.map((m, a) => m - meta.means.mins[a]);
  // Decoded in bulk (issue 40 item 4): the scene's arrays written directly, and the 8-bit fields
  // through 256-entry tables of the very values the builder's methods compute (exp of the scale
  // codebook, 0.5 + SH_C0 f_dc), so the scene is bit for bit the one the methods build.
  const { means, scales, colors, opacities } = b.splats;
  const rest = b.splats.sh?.rest ?? null;
  const expScale = sCode.map((v) => Math.exp(v));
  const dcRgb = cCode.map((v) => 0.5 + SH_C0 * v);
  const q = [0, 0, 0, 0];
  let badLabels = 0;
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const x = invLog(x0 + dx * ((lo[o] | (hi[o] << 8)) / 65535));
    const y = invLog(y0 + dy * ((lo[o + 1] | (hi[o + 1] << 8)) / 65535));
    const z = invLog(z0 + dz * ((lo[o + 2] | (hi[o + 2] << 8)) / 65535));
    means[i * 3] = x;
    means[i * 3 + 1] = y;
    means[i * 3 + 2] = z;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) b.nonFinite++;
    scales[i * 3] = expScale[sc[o]];
    scales[i * 3 + 1] = expScale[sc[o + 1]];
    scales[i * 3 + 2] = expScale[sc[o + 2]];
    colors[i * 3] = dcRgb[c0[o]];
    colors[i * 3 + 1] = dcRgb[c0[o + 1]];
    colors[i * 3 + 2] = dcRgb[c0[o + 2]];
    opacities[i] = c0[o + 3] / 255;
    const tag = qt[o + 3];
    if (tag < 252) b.quat(i, 1, 0, 0, 0);
    else {
      const slots = QUAT_SLOTS[tag - 252];
      let sum = 0;
      q[tag - 252] = 0;
      for (let j = 0; j < 3; j++) {
        const v = ((qt[o + j] / 255) * 2 - 1) / Math.SQRT2;
        q[slots[j]] = v;
        sum += v * v;
      }
      q[tag - 252] = Math.sqrt(Math.max(0, 1 - sum));
      b.quat(i, q[0], q[1], q[2], q[3]);
    }
    if (centroids && labels && rest && meta.shN) {
      const label = labels[o] | (labels[o + 1] << 8);
      if (label >= meta.shN.count) {
        badLabels++;
        continue;
      }
      const px = centroids.rgba;
      let t = (Math.floor(label / 64) * centroids.width + (label % 64) * k) * 4;
      for (let j = 0, r = i * k * 3; j < k; j++, t += 4, r += 3) {
        rest[r] = shCode[px[t]];
        rest[r + 1] = shCode[px[t + 1]];
        rest[r + 2] = shCode[px[t + 2]];
      }
    }
  }
  const warnings = b.notes();
  if (badLabels) warnings.push(`${badLabels} Gaussian(s) name an SH palette entry past its end; their SH bands are zero`);
  return {
    format: 'sog',
    detected: `${LABEL} (SH degree ${degree}${meta.model && meta.model !== 'default' ? `, ${meta.model}` : ''})`,
    splats: b.splats,
    shDegree: degree,
    antialiased: meta.model === 'antialiased',
    flat2d: meta.model === '2dgs',
    frame: { convention: PLY_CONVENTION, up: '-y', source: 'guess' },
    warnings,
  };
}
