// Live splat preview (protocol `free`): the grader's WGSL rasterizer (GpuRasterizer from
// src/shared/raster/gpu) on the browser's navigator.gpu, drawn into a canvas.
// Inputs: the working scene's records and an explicit camera. Output: pixels in a 2D canvas.
// Invariants: the same host code and shaders as the grader, so the preview is what is graded;
// renders are serialised and coalesced (only the latest request is drawn).
import type { ShaderLibrary } from '../../shared/gpu/compose';
import { requestComputeDevice } from '../../shared/gpu/device';
import { GpuRasterizer } from '../../shared/raster/gpu';
import { packSplats, type GaussianRecord } from '../../shared/scene/gaussian';
import type { Camera } from '../../shared/raster/types';

/** Every WGSL file of shaders/, by file name (bundled by Vite as raw text). */
function shaderLibrary(): ShaderLibrary {
  const files = import.meta.glob('../../../shaders/*.wgsl', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
  const library: ShaderLibrary = {};
  for (const [path, text] of Object.entries(files)) library[path.slice(path.lastIndexOf('/') + 1)] = text;
  return library;
}

export class SplatPreview {
  private pending: { records: readonly GaussianRecord[]; camera: Camera; canvas: HTMLCanvasElement } | null = null;
  private running = false;

  private constructor(private readonly raster: GpuRasterizer, readonly adapterName: string) {}

  /** A preview on this browser's WebGPU, or the reason there is none. */
  static async create(): Promise<SplatPreview | string> {
    const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
    if (!gpu) return 'This browser has no WebGPU (navigator.gpu is missing).';
    try {
      const adapter = await gpu.requestAdapter();
      if (!adapter) return 'WebGPU found no adapter on this machine.';
      const device = await requestComputeDevice(adapter);
      const info = adapter.info;
      return new SplatPreview(GpuRasterizer.create(device, shaderLibrary()), `${info.vendor} ${info.architecture}`.trim() || 'WebGPU');
    } catch (e) {
      return `WebGPU failed to start: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  /** Queues a render; if one is running, only the newest request is drawn after it. */
  draw(records: readonly GaussianRecord[], camera: Camera, canvas: HTMLCanvasElement): Promise<void> {
    this.pending = { records, camera, canvas };
    return this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.pending) {
        const job = this.pending;
        this.pending = null;
        const out = await this.raster.forward(packSplats(job.records), job.camera);
        const ctx = job.canvas.getContext('2d');
        if (!ctx) continue;
        job.canvas.width = out.width;
        job.canvas.height = out.height;
        const img = ctx.createImageData(out.width, out.height);
        for (let i = 0; i < out.width * out.height; i++) {
          img.data[i * 4] = Math.round(Math.min(1, Math.max(0, out.rgb[i * 3])) * 255);
          img.data[i * 4 + 1] = Math.round(Math.min(1, Math.max(0, out.rgb[i * 3 + 1])) * 255);
          img.data[i * 4 + 2] = Math.round(Math.min(1, Math.max(0, out.rgb[i * 3 + 2])) * 255);
          img.data[i * 4 + 3] = 255;
        }
        ctx.putImageData(img, 0, 0);
      }
    } finally {
      this.running = false;
    }
  }

  destroy(): void {
    this.raster.destroy();
  }
}
