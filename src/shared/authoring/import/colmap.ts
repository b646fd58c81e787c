// COLMAP sparse models (docs/TASKS.md "Photographed objects"): cameras.txt + images.txt, or
// cameras.bin + images.bin, to one CaptureCamera per registered photo.
// Conventions (COLMAP's): QW QX QY QZ TX TY TZ rotate and translate world into camera
// (x_cam = R x_world + t), OpenCV camera axes (+X right, +Y down, looks down +Z), pixel
// intrinsics of the full-size photo; binary files are little-endian (cameras: int32 id, int32
// model id, uint64 width, uint64 height, float64 params; images: int32 id, 7 float64, int32
// camera id, NUL-terminated name, uint64 point count, 24 bytes per point).
// Invariant: any malformed line or record is one CaptureError naming the file and where.
import { CaptureError, modelIntrinsics, quatToMat3, worldToCamera, type CaptureCamera } from './capture';

interface Intrinsic {
  model: string;
  width: number;
  height: number;
  params: number[];
}
interface Pose {
  name: string;
  cameraId: number;
  q: [number, number, number, number];
  t: [number, number, number];
}

/** COLMAP's model ids in cameras.bin (models.h); the ones outside CAPTURE_MODELS are refused by name. */
const MODEL_IDS = ['SIMPLE_PINHOLE', 'PINHOLE', 'SIMPLE_RADIAL', 'RADIAL', 'OPENCV', 'OPENCV_FISHEYE', 'FULL_OPENCV', 'FOV', 'SIMPLE_RADIAL_FISHEYE', 'RADIAL_FISHEYE', 'THIN_PRISM_FISHEYE'];

function dataLines(text: string): { line: string; no: number }[] {
  return text.split(/\r?\n/).map((line, i) => ({ line: line.trim(), no: i + 1 })).filter((l) => l.line !== '' && !l.line.startsWith('#'));
}

function numbersOf(words: readonly string[], where: string): number[] {
  const v = words.map(Number);
  if (v.some((x) => !Number.isFinite(x))) throw new CaptureError(`${where}: expected numbers, got '${words.join(' ')}'`);
  return v;
}

function join(cams: Map<number, Intrinsic>, poses: readonly Pose[], file: string): CaptureCamera[] {
  if (poses.length === 0) throw new CaptureError(`${file} lists no registered images`);
  return poses.map((p) => {
    const c = cams.get(p.cameraId);
    if (!c) throw new CaptureError(`${file}: image ${p.name} uses camera ${p.cameraId}, which the cameras file does not list`);
    const k = modelIntrinsics(c.model, c.params, `camera ${p.cameraId} of image ${p.name}`);
    return { name: p.name, width: c.width, height: c.height, ...k, world_to_camera: worldToCamera(quatToMat3(...p.q), p.t) };
  });
}

/** Parses cameras.txt and images.txt (names for messages: `camerasFile`, `imagesFile`). */
export function parseColmapText(camerasTxt: string, imagesTxt: string, camerasFile = 'cameras.txt', imagesFile = 'images.txt'): CaptureCamera[] {
  const cams = new Map<number, Intrinsic>();
  for (const { line, no } of dataLines(camerasTxt)) {
    const w = line.split(/\s+/);
    const where = `${camerasFile} line ${no}`;
    if (w.length < 4) throw new CaptureError(`${where}: expected CAMERA_ID MODEL WIDTH HEIGHT PARAMS...`);
    const [id, width, height] = numbersOf([w[0], w[2], w[3]], where);
    if (!(width > 0 && height > 0)) throw new CaptureError(`${where}: the size ${width}x${height} is not positive`);
    cams.set(id, { model: w[1], width, height, params: numbersOf(w.slice(4), where) });
  }
  // images.txt: two lines per image, the pose line then the (possibly empty) 2D points line.
  const lines = imagesTxt.split(/\r?\n/);
  const poses: Pose[] = [];
  let expectPose = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.startsWith('#')) continue;
    if (!expectPose) {
      expectPose = true;
      continue;
    }
    if (line === '') continue;
    const w = line.split(/\s+/);
    const where = `${imagesFile} line ${i + 1}`;
    if (w.length < 10) throw new CaptureError(`${where}: expected IMAGE_ID QW QX QY QZ TX TY TZ CAMERA_ID NAME`);
    const v = numbersOf(w.slice(0, 9), where);
    poses.push({ name: w.slice(9).join(' '), cameraId: v[8], q: [v[1], v[2], v[3], v[4]], t: [v[5], v[6], v[7]] });
    expectPose = false;
  }
  return join(cams, poses, imagesFile);
}

class Reader {
  private off = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array, private readonly file: string) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number): number {
    if (this.off + n > this.bytes.length) throw new CaptureError(`${this.file} ends early (at byte ${this.off}, ${n} more needed)`);
    const at = this.off;
    this.off += n;
    return at;
  }
  i32(): number { return this.view.getInt32(this.need(4), true); }
  u64(): number {
    const v = this.view.getBigUint64(this.need(8), true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new CaptureError(`${this.file}: a count ${v} is out of range`);
    return Number(v);
  }
  f64(): number { return this.view.getFloat64(this.need(8), true); }
  skip(n: number): void { this.need(n); }
  cstring(): string {
    const end = this.bytes.indexOf(0, this.off);
    if (end < 0) throw new CaptureError(`${this.file}: an image name has no end`);
    const s = new TextDecoder().decode(this.bytes.subarray(this.off, end));
    this.off = end + 1;
    return s;
  }
}

/** Parses cameras.bin and images.bin. */
export function parseColmapBinary(camerasBin: Uint8Array, imagesBin: Uint8Array, camerasFile = 'cameras.bin', imagesFile = 'images.bin'): CaptureCamera[] {
  const cr = new Reader(camerasBin, camerasFile);
  const cams = new Map<number, Intrinsic>();
  const nc = cr.u64();
  for (let i = 0; i < nc; i++) {
    const id = cr.i32();
    const modelId = cr.i32();
    const model = MODEL_IDS[modelId];
    if (model === undefined) throw new CaptureError(`${camerasFile}: camera ${id} has unknown model id ${modelId}`);
    const width = cr.u64();
    const height = cr.u64();
    // Models past OPENCV are refused by modelIntrinsics; their parameter counts only matter to skip them.
    const count = ({ OPENCV_FISHEYE: 8, FULL_OPENCV: 12, FOV: 5, SIMPLE_RADIAL_FISHEYE: 4, RADIAL_FISHEYE: 5, THIN_PRISM_FISHEYE: 12 } as Record<string, number>)[model]
      ?? ({ SIMPLE_PINHOLE: 3, PINHOLE: 4, SIMPLE_RADIAL: 4, RADIAL: 5, OPENCV: 8 } as Record<string, number>)[model];
    const params = Array.from({ length: count }, () => cr.f64());
    cams.set(id, { model, width, height, params });
  }
  const ir = new Reader(imagesBin, imagesFile);
  const ni = ir.u64();
  const poses: Pose[] = [];
  for (let i = 0; i < ni; i++) {
    ir.i32();
    const q: [number, number, number, number] = [ir.f64(), ir.f64(), ir.f64(), ir.f64()];
    const t: [number, number, number] = [ir.f64(), ir.f64(), ir.f64()];
    const cameraId = ir.i32();
    const name = ir.cstring();
    ir.skip(24 * ir.u64());
    poses.push({ name, cameraId, q, t });
  }
  return join(cams, poses, imagesFile);
}
