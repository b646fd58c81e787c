// The reference fit as one computation that can run anywhere (issue 38 item 1): fitGaussians (the
// visual hull's start included) on a backend, ticks with the losses since the last tick and, when
// asked, snapshot renders of the current Gaussians from the held-out cameras, then the fitted
// scene's PSNR on each reference view. `localRunner` runs it on this thread; the worker pool's job
// 'author.fit' (src/main/threads/jobs/fit.ts) runs the same on a worker thread, and the lab's
// services hand that in as a FitRunner, so fits never hold the event loop.
// Input: FitRunInput (structured-clone data). Output: FitRunResult.
// Invariant: a runner's records equal fitGaussians' on the same input and backend; every step's
// loss reaches exactly one tick, in order.
import { fitGaussians, type FitView } from '../../../shared/authoring/fit/fit';
import type { FitBackend } from '../../../shared/authoring/fit/backend';
import { HELDOUT_VIEWS, viewCameras } from '../../../shared/camera/views';
import { psnr } from '../../../shared/metrics/psnr';
import { rasterizeForward } from '../../../shared/raster/cpu';
import { packSplats, type GaussianRecord } from '../../../shared/scene/gaussian';
import type { Splats } from '../../../shared/scene/splats';
import { encodePng } from '../../io/png';
import type { WorkerPool } from '../../workers/pool';

/** Snapshot renders: this many pixels a side. */
export const SNAPSHOT_SIZE = 96;

export interface FitRunInput {
  views: FitView[];
  maxGaussians: number;
  steps: number;
  seed: number;
  /** Snapshot renders of the current Gaussians at most this often (none when absent). */
  snapshotEveryMs?: number;
  /** Whether to measure the fitted scene's PSNR on each reference view. */
  referencePsnr?: boolean;
}

export interface SnapshotView {
  name: string;
  image: string; // PNG data URL
}

export interface FitTick {
  step: number; // steps done
  steps: number;
  losses: number[]; // the losses of the steps since the previous tick
  elapsedMs: number;
  snapshot?: SnapshotView[];
}

export interface FitRunResult {
  records: GaussianRecord[];
  losses: number[];
  referencePsnr: number[]; // per view of the input, in order (empty unless asked)
}

export type FitRunner = (input: FitRunInput, onTick: (t: FitTick) => void, signal?: AbortSignal) => Promise<FitRunResult>;

/** What a progress report of the pool's job 'author.fit' carries in its message (JSON). */
export type FitTickMessage = Pick<FitTick, 'losses' | 'elapsedMs' | 'snapshot'>;

/**
 * The fit as the worker pool's job 'author.fit' (CPU float64 backend) for `client`'s queue: ticks
 * come from its progress reports (at most every 100 ms); aborting `signal` ends its thread.
 */
export function poolRunner(pool: WorkerPool, client: string): FitRunner {
  return (input, onTick, signal) => pool.run('author.fit', input, {
    client,
    ...(signal ? { signal } : {}),
    onProgress: (p) => onTick({ step: p.done, steps: p.total, ...(JSON.parse(p.message ?? '{"losses":[],"elapsedMs":0}') as FitTickMessage) }),
  });
}

/** Renders of a scene from the held-out cameras at snapshot size (CPU reference rasterizer), as PNG data URLs. */
export function snapshotViews(splats: Splats): SnapshotView[] {
  return viewCameras(HELDOUT_VIEWS, SNAPSHOT_SIZE).map((camera, i) => {
    const r = rasterizeForward(splats, camera);
    return { name: HELDOUT_VIEWS[i].name, image: `data:image/png;base64,${Buffer.from(encodePng({ width: r.width, height: r.height, data: r.rgb })).toString('base64')}` };
  });
}

/** The fit on this thread, one tick per step. */
export function localRunner(backend: FitBackend): FitRunner {
  return async (input, onTick, signal) => {
    let latest: Splats | null = null;
    // Observes the scene each step renders (for snapshots); everything else goes to the real backend.
    const { stepper } = backend;
    const observed: FitBackend = {
      name: backend.name,
      deterministic: backend.deterministic,
      forward: (splats, camera) => {
        latest = splats;
        return backend.forward(splats, camera);
      },
      backward: (grads) => backend.backward(grads),
      ...(stepper
        ? {
            stepper: {
              prepare: (views, count) => stepper.prepare(views, count),
              evaluate: (splats, camera, view, withGrad) => {
                latest = splats;
                return stepper.evaluate(splats, camera, view, withGrad);
              },
              end: () => stepper.end(),
            },
          }
        : {}),
    };
    let lastSnapshot = Date.now();
    const { views, maxGaussians, steps, seed } = input;
    const { records, losses } = await fitGaussians({ views, maxGaussians, steps, seed }, observed, (p) => {
      const due = input.snapshotEveryMs !== undefined && latest !== null && Date.now() - lastSnapshot >= input.snapshotEveryMs;
      const snapshot = due && latest ? snapshotViews(latest) : undefined;
      if (snapshot) lastSnapshot = Date.now();
      onTick({ step: p.step, steps: p.steps, losses: [p.loss], elapsedMs: p.elapsedMs, ...(snapshot ? { snapshot } : {}) });
    }, signal);
    const referencePsnr: number[] = [];
    if (input.referencePsnr) {
      const splats = packSplats(records, 'f64');
      for (const v of views) {
        const r = await backend.forward(splats, v.camera);
        referencePsnr.push(psnr({ width: r.width, height: r.height, data: Float32Array.from(r.rgb) }, v.photo));
      }
    }
    return { records, losses, referencePsnr };
  };
}
