// GpuRasterizer: the tiled WGSL rasterizer of docs/DESIGN.md section 3 (grader and live preview).
// Inputs: a GPUDevice and the ShaderLibrary; per call Splats, Camera(s) and image gradients.
// Outputs: RenderOutput, Projection and SplatGrads with the same layouts as the CPU reference.
// Invariant: pipelines are built once; buffers are reused and only grow. Calls are serialised.
// The scene is resident (./resident.ts): a call uploads only the Gaussians that changed since the
// last one, so one rasterizer shared by the grader, the debugger and search views (the lab
// context's) uploads an episode's scene once and each edit as a delta.
// When a view needs more tile-list slots than allocated, the capacity grows to the next power of
// two and that call is re-run, so no intersection is ever dropped from a result. Scenes above
// RADIX_MIN_GAUSSIANS take the radix path (same tile lists, O(N) instead of O(N^2)); SH bands
// and the antialiased mode are evaluated in project_forward. Buffers are sized per call, up to
// the adapter's limits (4M SH3 Gaussians need 256 MB of projections and 720 MB of SH bands).
// The backward pass chains SH on the host (per Gaussian); antialiased, project_backward chains
// the opacity compensation (v_opacity on the stored opacity, as the CPU reference's).
import type { ShaderLibrary } from '../../gpu/compose';
import { Readback } from '../../gpu/buffers';
import { StructArray } from '../../gpu/layout';
import type { Camera, ImageGrads, Projection, RasterOptions, RenderOutput, SplatGrads, Splats } from '../types';
import { effectiveDegree, shRestCount, viewColorsBackward } from '../cpu/sh';
import { createPipelines, type RasterPipelines } from './pipelines';
import { CONTROL, PROJECTED, SPLAT, VIEW_FLAGS } from './layouts';
import { ViewSlot, type ViewShading } from './view-slot';
import { ResidentScene, type UploadCounts } from './resident';

/** Scenes with more Gaussians than this get their tile lists from the radix sorts. */
export const RADIX_MIN_GAUSSIANS = 4096;

export interface GpuRasterizerOptions {
  /** Override of RADIX_MIN_GAUSSIANS (tests use 0 to run the radix path on small scenes). */
  radixMinGaussians?: number;
}

/** The GPU's own per-tile lists of one view (what the debugger's Tiles view shows). */
export interface GpuTileLists {
  tilesX: number;
  tilesY: number;
  ranges: Uint32Array; // [tiles, 2] start, end into ids
  ids: Uint32Array; // Gaussian ids, each tile's run in depth order
}

/** Initial tile-list capacity (ids); grown to the next power of two when a view needs more. */
const INITIAL_CAPACITY = 1 << 14;

function nextPow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

export class GpuRasterizer {
  private readonly pipelines: RasterPipelines;
  private readonly scene: ResidentScene; // [N] Splat and [N, K, 3] SH bands, shared by every view
  private readonly radixMin: number;
  private readonly views: ViewSlot[] = [];
  private capacity = INITIAL_CAPACITY;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly device: GPUDevice, private readonly library: ShaderLibrary, opts: GpuRasterizerOptions) {
    this.pipelines = createPipelines(device, library);
    this.scene = new ResidentScene(device);
    this.radixMin = opts.radixMinGaussians ?? RADIX_MIN_GAUSSIANS;
  }

  static create(device: GPUDevice, library: ShaderLibrary, opts: GpuRasterizerOptions = {}): GpuRasterizer {
    return new GpuRasterizer(device, library, opts);
  }

  forward(splats: Splats, camera: Camera, opts: RasterOptions = {}): Promise<RenderOutput> {
    return this.forwardBatch(splats, [camera], opts).then((r) => r[0]);
  }

  /** Renders every camera with one submission (the grader's 8 views). */
  forwardBatch(splats: Splats, cameras: readonly Camera[], opts: RasterOptions = {}): Promise<RenderOutput[]> {
    return this.serial(async () => {
      this.uploadSplats(splats);
      const shading = this.shading(splats, opts);
      for (;;) {
        const encoder = this.device.createCommandEncoder({ label: 'forward batch' });
        const readback = new Readback(this.device);
        const regions = cameras.map((camera, v) => {
          const slot = this.slot(v);
          slot.prepare(camera, splats.count, this.capacity, false, shading);
          slot.encodeForward(encoder, this.pipelines, this.scene.splats, this.scene.sh);
          const px = slot.geometry.pixels;
          return { slot, control: readback.add(CONTROL.bytes), rgb: readback.add(px * 12), alpha: readback.add(px * 4) };
        });
        for (const r of regions) {
          const px = r.slot.geometry.pixels;
          readback.copy(encoder, r.control, r.slot.control, CONTROL.bytes);
          readback.copy(encoder, r.rgb, r.slot.rgb.buffer, px * 12);
          readback.copy(encoder, r.alpha, r.slot.alpha.buffer, px * 4);
        }
        this.device.queue.submit([encoder.finish()]);
        const data = await readback.read();
        if (this.grewForOverflow(regions.map((r) => data[r.control]))) continue;
        return regions.map((r, v) => ({
          width: cameras[v].width,
          height: cameras[v].height,
          rgb: new Float32Array(data[r.rgb], 0, r.slot.geometry.pixels * 3),
          alpha: new Float32Array(data[r.alpha], 0, r.slot.geometry.pixels),
        }));
      }
    });
  }

  /** Gradients of a loss with upstream image gradients `grads` (v_alpha optional, coverage). */
  backward(splats: Splats, camera: Camera, grads: ImageGrads, opts: RasterOptions = {}): Promise<SplatGrads> {
    return this.serial(async () => {
      this.uploadSplats(splats);
      const n = splats.count;
      const shading = this.shading(splats, opts);
      for (;;) {
        const slot = this.slot(0);
        slot.prepare(camera, n, this.capacity, true, shading);
        this.device.queue.writeBuffer(slot.vImage.buffer, 0, packImageGrads(grads, slot.geometry.pixels));
        const encoder = this.device.createCommandEncoder({ label: 'backward' });
        slot.encodeForward(encoder, this.pipelines, this.scene.splats, this.scene.sh);
        slot.encodeBackward(encoder, this.pipelines, this.scene.splats, this.scene.sh);
        const readback = new Readback(this.device);
        const control = readback.add(CONTROL.bytes);
        const out = readback.add(n * SPLAT.bytes);
        readback.copy(encoder, control, slot.control, CONTROL.bytes);
        readback.copy(encoder, out, slot.grads.buffer, n * SPLAT.bytes);
        this.device.queue.submit([encoder.finish()]);
        const data = await readback.read();
        if (this.grewForOverflow([data[control]])) continue;
        const g = new StructArray(SPLAT, n, data[out]);
        const result: SplatGrads = {
          v_means: g.getRow('mean', new Float64Array(n * 3)),
          v_scales: g.getRow('scale', new Float64Array(n * 3)),
          v_quats: g.getRow('quat', new Float64Array(n * 4)),
          v_colors: g.getRow('color', new Float64Array(n * 3)),
          v_opacities: g.getRow('opacity', new Float64Array(n)),
        };
        if (!splats.sh) return result;
        // The GPU's v_colors are on the evaluated (view) colours; the SH chain (clamp mask, bands,
        // the mean through the view direction) is per Gaussian and cheap: the CPU reference's.
        const sh = viewColorsBackward(splats, camera, result.v_colors, { maxDegree: opts.shDegree });
        for (let i = 0; i < result.v_means.length; i++) result.v_means[i] += sh.v_means[i];
        return { ...result, v_colors: sh.v_colors, v_sh_rest: sh.v_rest };
      }
    });
  }

  /** The projection stage alone (means2d, conics, depths, radii), as the CPU projectForward. */
  project(splats: Splats, camera: Camera, opts: RasterOptions = {}): Promise<Projection> {
    return this.serial(async () => {
      this.uploadSplats(splats);
      const n = splats.count;
      const slot = this.slot(0);
      slot.prepare(camera, n, this.capacity, false, this.shading(splats, opts));
      const encoder = this.device.createCommandEncoder({ label: 'project' });
      slot.encodeProject(encoder, this.pipelines, this.scene.splats, this.scene.sh);
      const readback = new Readback(this.device);
      const out = readback.add(n * PROJECTED.bytes);
      readback.copy(encoder, out, slot.projected.buffer, n * PROJECTED.bytes);
      this.device.queue.submit([encoder.finish()]);
      const p = new StructArray(PROJECTED, n, (await readback.read())[out]);
      return {
        means2d: p.getRow('xy', new Float32Array(n * 2)),
        conics: p.getRow('conic', new Float32Array(n * 3)),
        depths: p.getRow('depth', new Float32Array(n)),
        radii: p.getRow('radii', new Int32Array(n * 2)),
        ...(opts.antialiased ? { opacities: p.getRow('opacity', new Float32Array(n)) } : {}),
      };
    });
  }

  /** The per-tile lists the forward pass builds for this view, read back as they are. */
  tileLists(splats: Splats, camera: Camera, opts: RasterOptions = {}): Promise<GpuTileLists> {
    return this.serial(async () => {
      this.uploadSplats(splats);
      const shading = this.shading(splats, opts);
      for (;;) {
        const slot = this.slot(0);
        slot.prepare(camera, splats.count, this.capacity, false, shading);
        const encoder = this.device.createCommandEncoder({ label: 'tile lists' });
        slot.encodeForward(encoder, this.pipelines, this.scene.splats, this.scene.sh);
        const { tilesX, tilesY } = slot.geometry;
        const readback = new Readback(this.device);
        const control = readback.add(CONTROL.bytes);
        const ranges = readback.add(tilesX * tilesY * 8);
        const ids = readback.add(this.capacity * 4);
        readback.copy(encoder, control, slot.control, CONTROL.bytes);
        readback.copy(encoder, ranges, slot.ranges.buffer, tilesX * tilesY * 8);
        readback.copy(encoder, ids, slot.ids.buffer, this.capacity * 4);
        this.device.queue.submit([encoder.finish()]);
        const data = await readback.read();
        if (this.grewForOverflow([data[control]])) continue;
        const total = new Uint32Array(data[control])[CONTROL.offset.isect_total];
        return { tilesX, tilesY, ranges: new Uint32Array(data[ranges], 0, tilesX * tilesY * 2), ids: new Uint32Array(data[ids], 0, total) };
      }
    });
  }

  destroy(): void {
    for (const v of this.views) v.destroy();
    this.views.length = 0;
    this.scene.destroy();
  }

  /** Uploads of the resident scene so far (full, delta, unchanged; rows and bytes written). */
  get uploads(): Readonly<UploadCounts> {
    return this.scene.counts;
  }

  /** Current tile-list capacity in ids (grows on demand; exposed for tests and benchmarks). */
  get idCapacity(): number {
    return this.capacity;
  }

  /** Runs jobs one at a time; a WebGPU validation error inside a job rejects it. */
  private serial<T>(job: () => Promise<T>): Promise<T> {
    const checked = async (): Promise<T> => {
      this.device.pushErrorScope('validation');
      const outcome = await job().then(
        (value) => ({ ok: true as const, value }),
        (reason: unknown) => ({ ok: false as const, reason }),
      );
      const error = await this.device.popErrorScope();
      if (error) throw new Error(`GPU rasterizer: ${error.message}`);
      if (!outcome.ok) throw outcome.reason;
      return outcome.value;
    };
    const run = this.queue.then(checked, checked);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private slot(v: number): ViewSlot {
    while (this.views.length <= v) this.views.push(new ViewSlot(this.device, this.library));
    return this.views[v];
  }

  /** Grows the capacity when any view requested more slots than it had; true means re-run. */
  private grewForOverflow(controls: ArrayBuffer[]): boolean {
    let need = 0;
    for (const c of controls) need = Math.max(need, new Uint32Array(c)[CONTROL.offset.isect_total]);
    if (need <= this.capacity) return false;
    this.capacity = nextPow2(need);
    return true;
  }

  /** The scene on the device: the rows that changed since the last call (ResidentScene). */
  private uploadSplats(splats: Splats): void {
    this.scene.sync(splats);
  }

  private shading(splats: Splats, opts: RasterOptions): ViewShading {
    const flags = (splats.sh ? VIEW_FLAGS.sh : 0) | (opts.antialiased ? VIEW_FLAGS.antialiased : 0);
    return {
      shDegree: effectiveDegree(splats, { maxDegree: opts.shDegree }),
      shStride: splats.sh ? shRestCount(splats.sh.degree) : 0,
      flags,
      radix: splats.count > this.radixMin,
    };
  }
}

/** Upstream gradients packed as [H, W, 4] = (v_r, v_g, v_b, v_coverage). */
function packImageGrads(grads: ImageGrads, pixels: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(Math.max(4, pixels * 4));
  for (let p = 0; p < pixels; p++) {
    out[p * 4] = grads.v_rgb[p * 3];
    out[p * 4 + 1] = grads.v_rgb[p * 3 + 1];
    out[p * 4 + 2] = grads.v_rgb[p * 3 + 2];
    out[p * 4 + 3] = grads.v_alpha ? grads.v_alpha[p] : 0;
  }
  return out;
}
