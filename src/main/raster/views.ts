// The lab's renderer of observation views (search episodes): a hardware GPU's WGSL rasterizer
// (the radix path for large scenes) when the lab has one, as the grader decides
// (graderDevice: SwiftShader and no adapter mean the CPU), else the tile-binned CPU rasterizer as
// split jobs on the lab's worker pool, every core taking a share of each frame.
// Input: the lab's GPU context, its worker pool and its GPU rasterizer. Output: LabViews, whose
// render() is an AsyncViewRenderer (src/shared/kinds/search/render.ts). Invariants: the CPU path's image
// is bit for bit the one renderView computes on the calling thread (CLI, baselines, goal images);
// a GPU that fails a render is dropped for the CPU path from then on, with `on` saying so; the
// threads belong to the pool (destroy() only drops the cached frame).
import type { RenderOutput } from '../../shared/raster/types';
import type { GpuRasterizer } from '../../shared/raster/gpu';
import type { AsyncViewRenderer } from '../../shared/raster/types';
import type { GpuContext } from '../gpu/device';
import type { WorkerPool } from '../workers/pool';
import { poolThreads, TileRasterPool } from './tile-pool';

export interface LabViews {
  /** What renders the views now, in words. */
  readonly on: string;
  readonly render: AsyncViewRenderer;
  destroy(): void;
}

export interface LabViewsOptions {
  gpu: GpuContext;
  pool: WorkerPool;
  /** The lab's WGSL rasterizer (shared with the debugger); null without a device. */
  gpuRasterizer: () => GpuRasterizer | null;
  /** The pool client of view renders (default 'views'). */
  client?: string;
}

export function labViews(o: LabViewsOptions): LabViews {
  const tiles = TileRasterPool.on(poolThreads(o.pool, o.client ?? 'views'));
  const cpuName = `the CPU tile rasterizer on ${tiles.workers} worker thread${tiles.workers === 1 ? '' : 's'}`;
  let gpu = o.gpu.status.path === 'hardware' && o.gpu.device ? o.gpuRasterizer() : null;
  let on = gpu ? `the GPU rasterizer (${o.gpu.status.summary.replace(/\.$/, '')})` : cpuName;
  const render: AsyncViewRenderer = async (splats, camera): Promise<RenderOutput> => {
    if (gpu) {
      try {
        return await gpu.forward(splats, camera);
      } catch (error) {
        gpu = null;
        on = `${cpuName} (the GPU failed a view: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
      }
    }
    return tiles.render(splats, camera);
  };
  return {
    get on() {
      return on;
    },
    render,
    destroy: () => tiles.destroy(),
  };
}
