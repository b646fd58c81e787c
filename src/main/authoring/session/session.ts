// The authoring session in main: previews of the object being composed, its photo sets (cached
// per object and size), one fit job at a time with cancel, the scramble of the finished fit, and
// saving it all as a task folder. One session per set of lab services (one author at a time).
// Inputs: objects sent by the authoring view (parts may sit outside the bounds for previews).
// Outputs: PNG data URLs, FitStatus, ScrambleResult, SaveResult; fit events through callbacks.
// Invariant: a fit and a save only ever use an object that passed parseObject, and save writes
// exactly the object, photos and fit the session fitted (it refuses when the object changed).
import { randomUUID } from 'node:crypto';
import { objectWarnings, parseObject, type ProceduralObject } from '../../../shared/authoring/primitives';
import { scramble as scrambleFit, DEFAULT_PARTS } from '../../../shared/authoring/scramble/scramble';
import { groupLabels } from '../../../shared/authoring/scramble/groups';
import type { AuthorObject, AuthorSessionState, FitProgressEvent, FitSnapshotEvent, FitStatus, SaveResult, ScrambleResult } from '../../../shared/api/author';
import { AUTHOR_PHOTO_SIZE } from '../../../shared/api/author';
import { HELDOUT_VIEWS, REFERENCE_VIEWS, viewCameras } from '../../../shared/camera/views';
import { DEFAULT_FIT_STEPS } from '../../../shared/authoring/fit/fit';
import type { Camera } from '../../../shared/raster/types';
import type { Grader } from '../../grader/grader';
import type { RefView } from '../../tasks/load';
import type { ChosenBackend } from '../fit/backend';
import { FitJob } from './fit-job';
import { encodePng } from '../../io/png';
import type { RgbImage } from '../../../shared/image/image';
import { pngDataUrl, taskViews, type PhotoCaster, type ViewSet } from './photos';
import { saveAuthoredTask, type SaveInput } from './save';
import { scrambleViews } from './scramble-view';

export const DEFAULT_SCRAMBLE_SEED = 1;
const PHOTO_CACHE_ENTRIES = 6;

export interface SessionOptions {
  tasksDir: string;
  caster: PhotoCaster;
  grader: () => Promise<Grader>;
  fitBackend: () => Promise<ChosenBackend>;
  onFitProgress?: (e: FitProgressEvent) => void;
  onFitSnapshot?: (e: FitSnapshotEvent) => void;
  onFitEnd?: (s: FitStatus) => void;
  snapshotEveryMs?: number;
  /** How a save writes and reads photos and loads the new tasks (the lab: off the event loop). */
  save?: Pick<SaveInput, 'views' | 'loadTask'>;
  /** How previews and photo sheets are PNG-encoded (the lab: on its worker pool; default here). */
  encodePng?: (image: RgbImage) => Uint8Array | Promise<Uint8Array>;
}

interface FitRecord {
  job: FitJob;
  object: ProceduralObject;
  key: string;
  reference: RefView[];
  heldout: RefView[];
}

/** Stable identity of an object's geometry and colours (the name does not change the photos). */
export function objectKey(obj: AuthorObject | ProceduralObject): string {
  return canonical(obj.parts);
}

/** JSON with object keys sorted, so key order (client vs parsed) does not change the identity. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A named standard view's camera at a size, or null for an unknown name. */
export function namedCamera(name: string, size = AUTHOR_PHOTO_SIZE): Camera | null {
  const all = [...REFERENCE_VIEWS, ...HELDOUT_VIEWS];
  const i = all.findIndex((v) => v.name === name);
  return i < 0 ? null : viewCameras([all[i]], size)[0];
}

export class AuthorSession {
  private readonly photos = new Map<string, Promise<RefView[]>>();
  private fit: FitRecord | null = null;
  private scrambled: { k: number; seed: number; labels?: number[]; result: ScrambleResult } | null = null;
  private latestKey: string | null = null;

  constructor(private readonly opts: SessionOptions) {}

  /** Marks the object the author is looking at (a fit of another object becomes stale). */
  private see(obj: AuthorObject): void {
    this.latestKey = objectKey(obj);
  }

  async preview(obj: AuthorObject, camera: Camera, samples = 2): Promise<{ image: string; ms: number }> {
    this.see(obj);
    const t0 = Date.now();
    const [out] = await this.opts.caster.cast(obj as ProceduralObject, [camera], samples);
    return { image: await this.dataUrl(out.rgb), ms: Date.now() - t0 };
  }

  private async dataUrl(image: RgbImage): Promise<string> {
    return pngDataUrl(await (this.opts.encodePng ?? encodePng)(image));
  }

  /** The photos of one set as a saved task would hold them (cached). */
  views(obj: AuthorObject | ProceduralObject, set: ViewSet, size: number): Promise<RefView[]> {
    const key = `${size}|${set}|${objectKey(obj)}`;
    let hit = this.photos.get(key);
    if (!hit) {
      hit = taskViews(this.opts.caster, obj as ProceduralObject, set, size);
      hit.catch(() => this.photos.delete(key));
      this.photos.set(key, hit);
      while (this.photos.size > PHOTO_CACHE_ENTRIES) this.photos.delete(this.photos.keys().next().value as string);
    }
    return hit;
  }

  async sheet(obj: AuthorObject, set: ViewSet, size = AUTHOR_PHOTO_SIZE): Promise<{ views: { name: string; azimuth: number; elevation: number; image: string }[]; ms: number }> {
    this.see(obj);
    const t0 = Date.now();
    const views = await this.views(obj, set, size);
    return {
      views: await Promise.all(views.map(async (v) => ({ name: v.name, azimuth: v.azimuth ?? 0, elevation: v.elevation ?? 0, image: await this.dataUrl(v.photo) }))),
      ms: Date.now() - t0,
    };
  }

  /** Starts a fit of a valid object (a running fit of an older object is cancelled first). */
  async startFit(input: AuthorObject, opts: { steps?: number; seed?: number; size?: number } = {}): Promise<FitStatus> {
    const object = parseObject(input);
    this.see(input);
    if (this.fit?.job.status.state === 'running') {
      this.fit.job.cancel();
      await this.fit.job.finished;
    }
    const size = opts.size ?? AUTHOR_PHOTO_SIZE;
    const [reference, heldout] = await Promise.all([this.views(object, 'reference', size), this.views(object, 'heldout', size)]);
    const backend = await this.opts.fitBackend();
    const jobId = randomUUID().slice(0, 8);
    this.scrambled = null;
    const job = new FitJob({
      jobId, reference, heldout, size, backend,
      steps: opts.steps ?? DEFAULT_FIT_STEPS,
      seed: opts.seed ?? 0,
      anchors: async (views, splats) => (await this.opts.grader()).computeAnchors(views, splats),
      onProgress: this.opts.onFitProgress,
      onSnapshot: this.opts.onFitSnapshot,
      onEnd: (s) => this.opts.onFitEnd?.(this.withStale(s)),
      snapshotEveryMs: this.opts.snapshotEveryMs,
    });
    this.fit = { job, object, key: objectKey(object), reference, heldout };
    return this.withStale(job.status);
  }

  cancelFit(jobId: string): boolean {
    return this.fit?.job.status.jobId === jobId ? this.fit.job.cancel() : false;
  }

  /** Resolves when the current fit ends (tests, and callers that want to wait). */
  async fitFinished(): Promise<FitStatus | null> {
    return this.fit ? this.withStale(await this.fit.job.finished) : null;
  }

  private withStale(s: FitStatus): FitStatus {
    return { ...s, losses: [...s.losses], stale: this.fit !== null && this.latestKey !== null && this.latestKey !== this.fit.key };
  }

  private finishedFit(): FitRecord {
    const fit = this.fit;
    if (!fit) throw new Error('no fit yet: run the fit first');
    const state = fit.job.status.state;
    if (state !== 'done') throw new Error(state === 'running' ? 'the fit is still running' : `the last fit ${state === 'failed' ? 'failed' : 'was cancelled'}: run it again`);
    return fit;
  }

  /** Scrambles the finished fit into k k-means parts, or into the author's groups when `byGroups`. */
  scramble(k = DEFAULT_PARTS, seed = DEFAULT_SCRAMBLE_SEED, byGroups = false): ScrambleResult {
    const fit = this.finishedFit();
    const labels = byGroups ? groupLabels(fit.job.records, fit.object).labels : undefined;
    const result = scrambleFit(fit.job.records, { k, seed, ...(labels ? { labels } : {}) });
    const out: ScrambleResult = { k: result.truth.k, seed, converged: result.truth.kmeans_converged, ...scrambleViews(result) };
    this.scrambled = { k: result.truth.k, seed, ...(labels ? { labels } : {}), result: out };
    return out;
  }

  state(): AuthorSessionState {
    return {
      object: this.fit ? { name: this.fit.object.name, parts: this.fit.object.parts } : null,
      fit: this.fit ? this.withStale(this.fit.job.status) : null,
      scramble: this.scrambled?.result ?? null,
    };
  }

  async save(name: string, overwrite = false): Promise<SaveResult> {
    const fit = this.finishedFit();
    if (this.latestKey !== null && this.latestKey !== fit.key) throw new Error('the object changed since the fit: run the fit again before saving');
    return saveAuthoredTask({
      tasksDir: this.opts.tasksDir,
      name,
      object: fit.object,
      size: fit.job.status.size,
      reference: fit.reference,
      heldout: fit.heldout,
      fit: fit.job.records,
      losses: fit.job.status.losses,
      fitSeed: fit.job.status.seed,
      k: this.scrambled?.k ?? DEFAULT_PARTS,
      scrambleSeed: this.scrambled?.seed ?? DEFAULT_SCRAMBLE_SEED,
      ...(this.scrambled?.labels ? { labels: this.scrambled.labels } : {}),
      grader: await this.opts.grader(),
      overwrite,
      warnings: objectWarnings(fit.object),
      ...this.opts.save,
    });
  }
}
