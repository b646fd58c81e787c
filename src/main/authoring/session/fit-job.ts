// One gradient-descent reference fit run for the authoring view: the project's fitGaussians on
// the reference photos, with throttled progress (the losses since the last report), periodic
// renders of the current Gaussians from the held-out cameras, cancellation through an
// AbortSignal, and the empty/fit anchor metrics once it is done.
// Inputs: reference and held-out views (as a saved task reads them), steps, seed, a backend.
// Outputs: FitStatus updates through callbacks; the fitted records as fit.json would give them.
// Invariant: the fit itself is exactly fitGaussians through a FitRunner (fit/compute.ts: on the
// worker pool in the lab, so the event loop stays free; else on this thread), so a session fit
// equals the CLI fit of the same photos and seed.
import type { FitBackend } from '../../../shared/authoring/fit/backend';
import type { FitProgressEvent, FitSnapshotEvent, FitStatus } from '../../../shared/api/author';
import { packSplats, type GaussianRecord } from '../../../shared/scene/gaussian';
import type { Splats } from '../../../shared/scene/splats';
import { parseSceneFile, sceneFileJson } from '../../../shared/scene/input';
import type { Anchors } from '../../../shared/task/schema';
import type { RefView } from '../../tasks/load';
import { localRunner, snapshotViews, type FitRunner, type SnapshotView } from '../fit/compute';
import { anchorsOut } from './save';

export { SNAPSHOT_SIZE, snapshotViews } from '../fit/compute';

/** Gaussian cap of the reference fit: the tasks' budget (docs/DESIGN.md section 5). */
export const FIT_MAX_GAUSSIANS = 300;
/** Snapshot renders (fit/compute.ts: SNAPSHOT_SIZE pixels a side) at most this often. */
export const SNAPSHOT_EVERY_MS = 2500;
const PROGRESS_EVERY_MS = 100;

export interface FitJobOptions {
  jobId: string;
  reference: RefView[];
  heldout: RefView[];
  steps: number;
  seed: number;
  size: number;
  /** The chosen backend; its `runner` (the worker pool's, fit/compute.ts) runs the fit when given. */
  backend: { backend: FitBackend; release: () => void; runner?: FitRunner };
  anchors: (heldout: RefView[], fit: Splats) => Promise<Anchors>;
  onProgress?: (e: FitProgressEvent) => void;
  onSnapshot?: (e: FitSnapshotEvent) => void;
  onEnd?: (status: FitStatus) => void;
  snapshotEveryMs?: number;
}

/** Records exactly as they come back from fit.json (sceneFileJson, then parseSceneFile). */
export function storedRecords(records: readonly GaussianRecord[]): GaussianRecord[] {
  return parseSceneFile(JSON.parse(JSON.stringify(sceneFileJson(records))));
}

export class FitJob {
  readonly status: FitStatus;
  /** The fitted Gaussians as fit.json will hold them (after `done`). */
  records: GaussianRecord[] = [];
  readonly finished: Promise<FitStatus>;
  private readonly abort = new AbortController();

  constructor(private readonly opts: FitJobOptions) {
    this.status = {
      jobId: opts.jobId, state: 'running', step: 0, steps: opts.steps, seed: opts.seed, size: opts.size, losses: [], elapsedMs: 0,
      backend: opts.backend.backend.name, gaussians: 0, snapshot: [], snapshotStep: 0, anchors: null, error: null, stale: false,
    };
    this.finished = this.run();
  }

  cancel(): boolean {
    if (this.status.state !== 'running') return false;
    this.abort.abort();
    return true;
  }

  private async run(): Promise<FitStatus> {
    const { opts, status } = this;
    // The fit runs where the backend says (the worker pool in the lab, off the event loop), else here.
    const runner = opts.backend.runner ?? localRunner(opts.backend.backend);
    let reported = 0;
    let lastReport = 0;
    const report = (): void => {
      if (status.step === reported) return;
      opts.onProgress?.({ jobId: opts.jobId, step: status.step, steps: status.steps, fromStep: reported, losses: status.losses.slice(reported), elapsedMs: status.elapsedMs });
      reported = status.step;
    };
    const snapshot = (views: SnapshotView[]): void => {
      status.snapshot = views;
      status.snapshotStep = status.step;
      opts.onSnapshot?.({ jobId: opts.jobId, step: status.step, views: status.snapshot });
    };
    try {
      const views = opts.reference.map((v) => ({ camera: v.camera, photo: v.photo, mask: v.mask }));
      const input = { views, maxGaussians: FIT_MAX_GAUSSIANS, steps: opts.steps, seed: opts.seed, snapshotEveryMs: opts.snapshotEveryMs ?? SNAPSHOT_EVERY_MS };
      const result = await runner(input, (t) => {
        status.step = t.step;
        status.losses.push(...t.losses);
        status.elapsedMs = t.elapsedMs;
        const now = Date.now();
        if (now - lastReport >= PROGRESS_EVERY_MS) {
          lastReport = now;
          report();
        }
        if (t.snapshot) snapshot(t.snapshot);
      }, this.abort.signal);
      report();
      this.records = storedRecords(result.records);
      status.gaussians = this.records.length;
      const splats = packSplats(this.records);
      snapshot(snapshotViews(splats));
      if (this.records.length === 0) throw new Error('the fit has no Gaussians: nothing survived the visual hull (is the object visible in the photos?)');
      status.anchors = anchorsOut(await opts.anchors(opts.heldout, splats));
      status.state = 'done';
    } catch (err) {
      report();
      if (this.abort.signal.aborted) status.state = 'cancelled';
      else {
        status.state = 'failed';
        status.error = err instanceof Error ? err.message : String(err);
      }
      this.records = [];
    } finally {
      opts.backend.release();
    }
    opts.onEnd?.(status);
    return status;
  }
}
