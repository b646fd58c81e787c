// Writes a small photographed capture for the capture-import tests: a procedural object ray-cast
// over a textured, non-white background from 30 cameras (non-square photos), in a capture world that is the task world scaled, turned (its up is not +Z) and shifted,
// saved in four layouts: COLMAP text (RADIAL lens, JPEG photos, grey PNG masks named NAME.png),
// COLMAP binary (the same lens, PNG photos, RGBA masks), LLFF (undistorted PNG photos, JPEG masks)
// and MVSNet (undistorted JPEG photos in blended_images/, PNG masks).
// Invariant: every layout describes the same cameras in the same capture world.
// Ray-casting and encoding the 30 photos costs about 8 CPU s, paid by several test files, so the
// files are generated once into node_modules/.cache/splatlab/capture-fixture/, named by the
// options and the contents of this file and of src/shared and src/main/io (its whole possible
// import graph), and copied from there (as test/helpers/child-entry.ts does for child bundles;
// docs/DEVELOPING.md, "Test-suite time"). The generation is seeded, so a copy equals a fresh one.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bilinear, undistortPoint, type Distortion } from '../../../src/shared/authoring/import/capture';
import { getObject } from '../../../src/shared/authoring/objects/index';
import { raycastObject } from '../../../src/shared/authoring/raycast';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { Random } from '../../../src/shared/math/random';
import type { Mat3, Vec3 } from '../../../src/shared/math/vec3';
import { encodeJpeg } from '../../../src/main/io/jpeg';
import { encodeNpy } from '../../../src/main/io/npz';
import { encodePng } from '../../../src/main/io/png';

export interface CaptureFixture {
  /** capture world = Q (task world / scale) + shift */
  scale: number;
  rotation: Mat3;
  shift: Vec3;
  names: string[];
}

const W = 120;
const H = 90;
const LENS: Distortion = { k1: -0.12, k2: 0.03, p1: 0, p2: 0 };

/** Rotation about the axis (1, 1, 0)/sqrt2 by 70 degrees: the capture's up is not +Z. */
function turn(): Mat3 {
  const a = (70 * Math.PI) / 180;
  const [x, y, z] = [Math.SQRT1_2, Math.SQRT1_2, 0];
  const c = Math.cos(a);
  const s = Math.sin(a);
  const t = 1 - c;
  return [t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c, t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c];
}

function quatOf(r: readonly number[]): [number, number, number, number] {
  const tr = r[0] + r[4] + r[8];
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    return [s / 4, (r[7] - r[5]) / s, (r[2] - r[6]) / s, (r[3] - r[1]) / s];
  }
  const i = r[0] > r[4] && r[0] > r[8] ? 0 : r[4] > r[8] ? 1 : 2;
  const j = (i + 1) % 3;
  const k = (i + 2) % 3;
  const s = 2 * Math.sqrt(1 + r[4 * i] - r[4 * j] - r[4 * k]);
  const q = [0, 0, 0, 0];
  q[0] = (r[3 * k + j] - r[3 * j + k]) / s;
  q[1 + i] = s / 4;
  q[1 + j] = (r[3 * j + i] + r[3 * i + j]) / s;
  q[1 + k] = (r[3 * k + i] + r[3 * i + k]) / s;
  return q as [number, number, number, number];
}

const bin = (parts: (['i32' | 'u64' | 'f64', number] | ['str', string])[]): Uint8Array => {
  const chunks: Uint8Array[] = [];
  for (const [t, v] of parts) {
    if (t === 'str') chunks.push(new TextEncoder().encode(`${v}\0`));
    else {
      const b = new Uint8Array(t === 'i32' ? 4 : 8);
      const dv = new DataView(b.buffer);
      if (t === 'i32') dv.setInt32(0, v, true);
      else if (t === 'u64') dv.setBigUint64(0, BigInt(v), true);
      else dv.setFloat64(0, v, true);
      chunks.push(b);
    }
  }
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of chunks) { out.set(c, o); o += c.length; }
  return out;
};

type FixtureOptions = { object?: string; cameras?: number; seed?: number };
// import.meta.url, not __dirname: the e2e specs load this file as an ES module too.
const HERE = fileURLToPath(import.meta.url);
const ROOT = resolve(HERE, '../../../..');

/** Every file under `dir`, depth first in name order. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The cache folder's name: the options and every source the generation may run. */
function fixtureKey(opts: FixtureOptions): string {
  const hash = createHash('sha256').update(JSON.stringify([opts.object ?? 'robot', opts.cameras ?? 30, opts.seed ?? 3]));
  for (const f of [HERE, ...filesUnder(join(ROOT, 'src', 'shared')), ...filesUnder(join(ROOT, 'src', 'main', 'io'))]) hash.update(f.slice(ROOT.length)).update('\0').update(readFileSync(f)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Writes colmap-text/, colmap-binary/, llff/ and mvsnet/ under `root` (copied from the cache, generated into it when absent). */
export function writeCaptureFixture(root: string, opts: FixtureOptions = {}): CaptureFixture {
  const cacheDir = join(ROOT, 'node_modules', '.cache', 'splatlab', 'capture-fixture');
  const entry = join(cacheDir, fixtureKey(opts));
  if (!existsSync(join(entry, 'fixture.json'))) {
    mkdirSync(cacheDir, { recursive: true });
    // Generated beside the entry and renamed into place, so a test file running beside this one
    // never copies a half-written entry; whichever rename lands first stays.
    const tmp = mkdtempSync(join(cacheDir, 'tmp-'));
    writeFileSync(join(tmp, 'fixture.json'), JSON.stringify(generateCaptureFixture(join(tmp, 'files'), opts)));
    try {
      renameSync(tmp, entry);
    } catch {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  cpSync(join(entry, 'files'), root, { recursive: true });
  return JSON.parse(readFileSync(join(entry, 'fixture.json'), 'utf8')) as CaptureFixture;
}

function generateCaptureFixture(root: string, opts: FixtureOptions): CaptureFixture {
  const obj = getObject(opts.object ?? 'robot');
  const n = opts.cameras ?? 30;
  const rng = new Random(opts.seed ?? 3);
  const scale = 0.4;
  const rotation = turn();
  const shift: Vec3 = [2, -1, 3];
  const fx = 0.5 * W / Math.tan((0.5 * 48 * Math.PI) / 180);
  // LLFF puts the principal point at the centre, so every layout does.
  const cx = W / 2;
  const cy = H / 2;
  const dirs = ['colmap-text', 'colmap-binary', 'llff', 'mvsnet'].map((d) => join(root, d));
  for (const d of dirs) mkdirSync(d, { recursive: true });
  for (const d of ['colmap-text/images', 'colmap-text/masks', 'colmap-text/sparse/0', 'colmap-binary/images', 'colmap-binary/masks', 'colmap-binary/sparse/0', 'llff/images', 'llff/masks', 'mvsnet/blended_images', 'mvsnet/cams', 'mvsnet/masks']) mkdirSync(join(root, d), { recursive: true });
  const names: string[] = [];
  const imagesTxt: string[] = ['# IMAGE_ID QW QX QY QZ TX TY TZ CAMERA_ID NAME'];
  const imagesBin: (['i32' | 'u64' | 'f64', number] | ['str', string])[] = [['u64', n]];
  const llff: number[] = [];
  for (let i = 0; i < n; i++) {
    const name = `img_${String(i).padStart(3, '0')}`;
    names.push(name);
    const cam = orbitCamera({ azimuth: (360 * i) / n + rng.uniform(0, 8), elevation: rng.uniform(5, 55), distance: 4.8, fov: 48, width: W, height: H });
    const task = { ...cam, fx, fy: fx, cx, cy };
    const out = raycastObject(obj, task, { samples: 1 });
    // Textured background: a coloured checkerboard with a gradient, never white.
    const rgb = new Float32Array(W * H * 3);
    for (let p = 0; p < W * H; p++) {
      const x = p % W;
      const y = Math.floor(p / W);
      const check = ((x >> 3) + (y >> 3) + i) % 2;
      const bg = [0.25 + 0.3 * check, 0.35 + 0.2 * (y / H), 0.5 - 0.25 * check];
      const a = out.mask[p];
      for (let k = 0; k < 3; k++) rgb[p * 3 + k] = out.rgb.data[p * 3 + k] - (1 - a) + bg[k] * (1 - a);
    }
    // Capture-world pose: R' = R Q^T, t' = t / scale - R' shift.
    const m = cam.world_to_camera;
    const r: number[] = [];
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) r.push(m[4 * a] * rotation[3 * b] + m[4 * a + 1] * rotation[3 * b + 1] + m[4 * a + 2] * rotation[3 * b + 2]);
    const t = [0, 1, 2].map((a) => m[4 * a + 3] / scale - (r[3 * a] * shift[0] + r[3 * a + 1] * shift[1] + r[3 * a + 2] * shift[2]));
    // The lens: each distorted pixel reads the pinhole render where its ray lands.
    const drgb = new Float32Array(W * H * 3);
    const dmask = new Float32Array(W * H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const [ux, uy] = undistortPoint(LENS, (x + 0.5 - cx) / fx, (y + 0.5 - cy) / fx);
        bilinear(rgb, W, H, 3, fx * ux + cx, fx * uy + cy, drgb, (y * W + x) * 3);
        bilinear(out.mask, W, H, 1, fx * ux + cx, fx * uy + cy, dmask, y * W + x);
      }
    }
    const q = quatOf(r);
    imagesTxt.push(`${i + 1} ${q.join(' ')} ${t.join(' ')} 1 ${name}.jpg`, '');
    imagesBin.push(['i32', i + 1], ...q.map((v): ['f64', number] => ['f64', v]), ...t.map((v): ['f64', number] => ['f64', v]), ['i32', 1], ['str', `${name}.png`], ['u64', 0]);
    // COLMAP text: JPEG photos, grey PNG masks named NAME.jpg.png.
    writeFileSync(join(root, 'colmap-text/images', `${name}.jpg`), encodeJpeg({ width: W, height: H, data: drgb }, 95));
    writeFileSync(join(root, 'colmap-text/masks', `${name}.jpg.png`), encodePng({ width: W, height: H, data: dmask }));
    // COLMAP binary: PNG photos, RGBA masks (alpha).
    writeFileSync(join(root, 'colmap-binary/images', `${name}.png`), encodePng({ width: W, height: H, data: drgb }));
    const rgba = new Float32Array(W * H * 4);
    for (let p = 0; p < W * H; p++) rgba[p * 4 + 3] = dmask[p];
    writeFileSync(join(root, 'colmap-binary/masks', `${name}.png`), encodePng({ width: W, height: H, data: rgba }));
    // LLFF: undistorted PNG photos, JPEG masks; row = [down right back centre hwf] as 3x5, then bounds.
    writeFileSync(join(root, 'llff/images', `${name}.png`), encodePng({ width: W, height: H, data: rgb }));
    const grey = new Float32Array(W * H * 3);
    for (let p = 0; p < W * H; p++) grey[p * 3] = grey[p * 3 + 1] = grey[p * 3 + 2] = out.mask[p];
    writeFileSync(join(root, 'llff/masks', `${name}.jpg`), encodeJpeg({ width: W, height: H, data: grey }, 95));
    const centre = [0, 1, 2].map((a) => -(r[a] * t[0] + r[3 + a] * t[1] + r[6 + a] * t[2]));
    const down = [r[3], r[4], r[5]];
    const right = [r[0], r[1], r[2]];
    const back = [-r[6], -r[7], -r[8]];
    const hwf = [H, W, fx];
    for (let a = 0; a < 3; a++) llff.push(down[a], right[a], back[a], centre[a], hwf[a]);
    llff.push(1, 20);
    // MVSNet: undistorted JPEG photos, PNG masks; cx, cy as they are.
    writeFileSync(join(root, 'mvsnet/blended_images', `${String(i).padStart(8, '0')}.jpg`), encodeJpeg({ width: W, height: H, data: rgb }, 95));
    writeFileSync(join(root, 'mvsnet/masks', `${String(i).padStart(8, '0')}.png`), encodePng({ width: W, height: H, data: out.mask }));
    const e = [...r.slice(0, 3), t[0], ...r.slice(3, 6), t[1], ...r.slice(6, 9), t[2], 0, 0, 0, 1];
    writeFileSync(join(root, 'mvsnet/cams', `${String(i).padStart(8, '0')}_cam.txt`), `extrinsic\n${[0, 1, 2, 3].map((k) => e.slice(4 * k, 4 * k + 4).join(' ')).join('\n')}\n\nintrinsic\n${fx} 0 ${cx}\n0 ${fx} ${cy}\n0 0 1\n\n1 0.05 192 10\n`);
  }
  const params = [fx, cx, cy, LENS.k1, LENS.k2];
  writeFileSync(join(root, 'colmap-text/sparse/0/cameras.txt'), `# CAMERA_ID MODEL WIDTH HEIGHT PARAMS[]\n1 RADIAL ${W} ${H} ${params.join(' ')}\n`);
  writeFileSync(join(root, 'colmap-text/sparse/0/images.txt'), `${imagesTxt.join('\n')}\n`);
  writeFileSync(join(root, 'colmap-binary/sparse/0/cameras.bin'), bin([['u64', 1], ['i32', 1], ['i32', 3], ['u64', W], ['u64', H], ...params.map((v): ['f64', number] => ['f64', v])]));
  writeFileSync(join(root, 'colmap-binary/sparse/0/images.bin'), bin(imagesBin));
  writeFileSync(join(root, 'llff/poses_bounds.npy'), encodeNpy({ dtype: 'f8', shape: [n, 17], data: Float64Array.from(llff) }));
  return { scale, rotation, shift, names };
}
