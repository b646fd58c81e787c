// Photos of an object being authored: exact ray casts from the standard views (V0..V7, H0..H7)
// or any camera, on the GPU ray caster where a hardware adapter exists, else the CPU reference.
// Inputs: an object (parts possibly outside the bounds: previews still work), cameras, samples.
// Outputs: RaycastOutput per camera, or views quantised exactly as a saved task reads them back.
// Invariant: quantised views equal what readViews gives for the PNGs writeViews writes, so a
// fit made in the session is the fit of the saved photos.
import type { ProceduralObject } from '../../../shared/authoring/primitives';
import { raycastObject, type RaycastOptions, type RaycastOutput } from '../../../shared/authoring/raycast';
import { raycastViewsGpu } from '../../../shared/authoring/gpu/raycast';
import { HELDOUT_VIEWS, REFERENCE_VIEWS, viewCameras, type NamedView } from '../../../shared/camera/views';
import type { RgbImage } from '../../../shared/image/image';
import type { Camera } from '../../../shared/raster/types';
import type { CamerasFile } from '../../../shared/task/schema';
import { encodePng } from '../../io/png';
import type { RefView } from '../../tasks/load';
import { loadShaders } from '../../gpu/shaders';

export type ViewSet = 'reference' | 'heldout';

export const VIEW_SETS: Record<ViewSet, readonly NamedView[]> = { reference: REFERENCE_VIEWS, heldout: HELDOUT_VIEWS };

/** The CPU ray cast of some cameras somewhere else (the lab's worker pool, off the event loop). */
export type CpuCast = (obj: ProceduralObject, cameras: readonly Camera[], opts: RaycastOptions) => Promise<RaycastOutput[]>;

/** Casts views of an object; a GPU caster falls back to the CPU for good after one failure. */
export class PhotoCaster {
  private gpuFailed = false;

  constructor(
    private readonly device: GPUDevice | null,
    /** Where the CPU casts run; default this thread. */
    private readonly cpuCast?: CpuCast,
  ) {}

  get kind(): 'gpu' | 'cpu' {
    return this.device && !this.gpuFailed ? 'gpu' : 'cpu';
  }

  async cast(obj: ProceduralObject, cameras: readonly Camera[], samples?: number): Promise<RaycastOutput[]> {
    const opts = samples === undefined ? {} : { samples };
    if (this.device && !this.gpuFailed && obj.parts.length > 0) {
      try {
        return await raycastViewsGpu(this.device, loadShaders(), obj, cameras, opts);
      } catch {
        // The CPU reference computes the same image (parity-tested), only slower.
        this.gpuFailed = true;
      }
    }
    if (this.cpuCast) return this.cpuCast(obj, cameras, opts);
    return cameras.map((c) => raycastObject(obj, c, opts));
  }
}

/** Named views of a standard set at a photo size, with their cameras. */
export function standardViews(set: ViewSet, size: number): { view: NamedView; camera: Camera }[] {
  const views = VIEW_SETS[set];
  return viewCameras(views, size).map((camera, i) => ({ view: views[i], camera }));
}

/** camera.json contents for the standard rig at a photo size. */
export function standardCameras(size: number): CamerasFile {
  const entries = (set: ViewSet) => standardViews(set, size).map(({ view, camera }) => ({
    name: view.name, azimuth: view.azimuth, elevation: view.elevation, camera,
  }));
  return { reference: entries('reference'), heldout: entries('heldout') };
}

// What an 8-bit PNG round trip does to one sample (src/main/io/png-encode.ts toBytes, then
// png-decode.ts's quotient into float32), computed directly: a build quantises 16 photos and
// masks per object, and the codec round trip they replace cost the event loop about 10 ms each
// (issue 38 item 1). test/main/authoring/photos.test.ts holds it to the codec's bytes.
const QUOTIENTS = Float32Array.from({ length: 256 }, (_, b) => b / 255);
const eightBit = (v: number): number => QUOTIENTS[Math.round(Math.min(1, Math.max(0, Number.isNaN(v) ? 0 : v)) * 255)];

/** An image as readPngRgb gives it back after writePng (8-bit rounding). */
export function quantise(img: RgbImage): RgbImage {
  const data = new Float32Array(img.data.length);
  for (let i = 0; i < data.length; i++) data[i] = eightBit(img.data[i]);
  return { width: img.width, height: img.height, data };
}

/** A mask as readViews gives it back from a written `<name>_mask.png`. */
export function quantiseMask(mask: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = eightBit(mask[i]);
  return out;
}

/** The photos a saved task of this object would hold for one view set. */
export async function taskViews(caster: PhotoCaster, obj: ProceduralObject, set: ViewSet, size: number): Promise<RefView[]> {
  const views = standardViews(set, size);
  const outs = await caster.cast(obj, views.map((v) => v.camera));
  return views.map(({ view, camera }, i) => ({
    name: view.name,
    azimuth: view.azimuth,
    elevation: view.elevation,
    camera,
    photo: quantise(outs[i].rgb),
    mask: quantiseMask(outs[i].mask, camera.width, camera.height),
  }));
}

export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
}

export function imageDataUrl(img: RgbImage): string {
  return pngDataUrl(encodePng(img));
}
