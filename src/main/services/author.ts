// LabApi handlers of the authoring rows (src/shared/api/author.ts): one AuthorSession and one
// upload staging area per set of lab services, the lab's one grader, fit and import events
// published on the context's EventHub to the connection that started the fit or import only
// (fit renders name held-out views). Input: the LabContext.
// Output: HandlersFor the rows. Invariant: domain errors reach the caller as one readable line;
// imports reuse the CLI's import code on the uploaded files, so they check exactly the same things.
import { join } from 'node:path';
import { authorMethods } from '../../shared/api/author';
import { importNerf } from '../authoring/nerf';
import { listObjectDocuments, openObject } from '../authoring/documents';
import { chooseFitBackend, type ChosenBackend, type FitDevice } from '../authoring/fit/backend';
import { poolRunner } from '../authoring/fit/compute';
import { fitTask } from '../authoring/fit/run';
import type { FitFn } from '../authoring/pipeline';
import { importPlyTask } from '../authoring/session/ply-task';
import { PhotoCaster, type CpuCast } from '../authoring/session/photos';
import { anchorsOut, checkFree, conformance } from '../authoring/session/save';
import { AuthorSession, namedCamera } from '../authoring/session/session';
import { Uploads } from '../authoring/session/uploads';
import type { Grader } from '../grader/grader';
import { poolViewFiles } from '../tasks/view-files';
import type { WorkerPool } from '../workers/pool';
import { DECODE_LIMITS, splatReader } from '../workers/read-splat';
import type { Caller } from './connection';
import type { LabContext } from './context';
import type { HandlersFor } from './dispatch';
import type { EventHub } from './events';

/** The worker pool's queue of the authoring view (one author at a time per lab). */
const AUTHOR_CLIENT = 'author';
/** The CPU fit backend's name (src/shared/authoring/fit/backend.ts): such fits run on the pool. */
const CPU_FIT = 'cpu';

interface AuthorContext {
  session: AuthorSession;
  uploads: Uploads;
  grader: () => Promise<Grader>;
  fitDevice: FitDevice;
  /** Whether fits run on the CPU (then on the worker pool): no hardware GPU. */
  cpuFits: boolean;
}

/** Who started each fit job: its events go to that connection alone. */
class FitAddressees {
  private readonly byJob = new Map<string, string>();
  /** The connection whose startFit is under way (events of a job not yet returned go to it). */
  starting: Caller | null = null;
  set(jobId: string, caller: Caller): void {
    this.byJob.set(jobId, caller.id);
  }
  of(jobId: string): string | null {
    return this.byJob.get(jobId) ?? this.starting?.id ?? null;
  }
}

function authorContext(deps: LabContext, fits: FitAddressees): AuthorContext {
  const events = deps.events;
  // An event of a job nobody started (none today) has no addressee and is dropped, never broadcast.
  const toStarter = (jobId: string, publish: (to: string) => void): void => {
    const to = fits.of(jobId);
    if (to) publish(to);
  };
  const getGrader = (): Promise<Grader> => deps.grader();
  // The ray caster runs on a hardware GPU only: SwiftShader is slower than the CPU reference here.
  // CPU casts (previews, photo sheets) run on the lab's worker pool, off the event loop.
  const cpuCast: CpuCast = (obj, cameras, opts) => deps.pool.run('author.raycast', { obj, cameras: [...cameras], opts }, { client: AUTHOR_CLIENT });
  const caster = new PhotoCaster(deps.gpu.status.path === 'hardware' ? deps.gpu.device : null, cpuCast);
  const fitDevice: FitDevice = deps.gpu.device ? 'auto' : 'cpu';
  // A CPU fit runs on the worker pool (job 'author.fit'), never on the event loop (issue 38 item 1).
  const onPool = (c: ChosenBackend): ChosenBackend => (c.backend.name === CPU_FIT ? { ...c, runner: poolRunner(deps.pool, AUTHOR_CLIENT), description: `${c.description} (on the worker pool)` } : c);
  const session = new AuthorSession({
    tasksDir: deps.tasksDir,
    caster,
    grader: getGrader,
    fitBackend: () => chooseFitBackend(fitDevice).then(onPool),
    encodePng: (image) => deps.pool.run('image.png', { image }, { client: AUTHOR_CLIENT }),
    onFitProgress: (e) => toStarter(e.jobId, (to) => events.publish('author.fit', e, to)),
    onFitSnapshot: (e) => toStarter(e.jobId, (to) => events.publish('author.fitSnapshot', e, to)),
    onFitEnd: (s) => toStarter(s.jobId, (to) => events.publish('author.fitEnd', s, to)),
    // A save's photos are written and read back on the pool and its conformance check loads the
    // new tasks through the lab's repository (photos decoded there too): issue 38 item 1.
    save: { views: poolViewFiles(deps.pool, AUTHOR_CLIENT), loadTask: (id) => deps.tasks.get(id) },
  });
  return { session, uploads: new Uploads(join(deps.home, 'uploads')), grader: getGrader, fitDevice, cpuFits: deps.gpu.status.path !== 'hardware' };
}

/**
 * The import build's fit: fitTask with its progress published as 'progress' events; a CPU fit on
 * the worker pool (the event loop stays free), stopped by `signal` (the upload's cancel).
 */
function publishingFit(events: EventHub, label: string, device: FitDevice, to: Caller, pool: WorkerPool | null, signal: AbortSignal): FitFn {
  return async (source, request) => {
    const res = await fitTask(source, {
      steps: request.steps,
      seed: request.seed,
      device,
      signal,
      ...(pool ? { runner: poolRunner(pool, to.id) } : {}),
      onProgress: (p) => {
        request.onProgress?.(p.step, p.steps, p.loss);
        if (p.step === p.steps || p.step % 10 === 0) events.publish('progress', { task: label, done: p.step, total: p.steps, message: `fit step ${p.step}/${p.steps}, loss ${p.loss.toFixed(4)}` }, to);
      },
    });
    return { records: res.records, losses: res.losses };
  };
}

export function createAuthorHandlers(deps: LabContext): HandlersFor<typeof authorMethods> {
  const events = deps.events;
  let made: AuthorContext | undefined;
  const fits = new FitAddressees();
  // Each import under way, by upload id: author.upload.cancel stops it (nothing is written).
  const imports = new Map<string, AbortController>();
  const ctx = (): AuthorContext => (made ??= authorContext(deps, fits));
  return {
    'author.objects': async () => ({ objects: listObjectDocuments(deps.tasksDir) }),
    'author.open': async (p) => openObject(deps.tasksDir, p.name),
    'author.preview': async (p) => {
      const camera = p.camera ?? (p.view ? namedCamera(p.view) : null);
      if (!camera) throw new Error(`unknown view '${p.view ?? ''}'`);
      return ctx().session.preview(p.object, camera, p.samples);
    },
    'author.sheet': async (p) => ctx().session.sheet(p.object, p.set, p.size),
    'author.status': async () => ctx().session.state(),
    'author.fit.start': async (p, caller) => {
      fits.starting = caller;
      try {
        const status = await ctx().session.startFit(p.object, { steps: p.steps, seed: p.seed, size: p.size });
        fits.set(status.jobId, caller);
        return status;
      } finally {
        fits.starting = null;
      }
    },
    'author.fit.cancel': async (p) => ({ cancelled: ctx().session.cancelFit(p.jobId) }),
    'author.scramble': async (p) => ctx().session.scramble(p.k, p.seed, p.groups),
    'author.save': async (p) => ctx().session.save(p.name, p.overwrite),
    'author.upload.begin': async (p) => ({ uploadId: ctx().uploads.begin(p.kind).id }),
    'author.upload.put': async (p) => ({ bytes: ctx().uploads.put(p.uploadId, p.path, p.data, p.append) }),
    'author.upload.cancel': async (p) => {
      const running = imports.get(p.uploadId);
      if (running) {
        // The import's finish removes the staging folder once its stages have stopped.
        running.abort();
        return { removed: true };
      }
      return { removed: ctx().uploads.remove(p.uploadId) };
    },
    // The file decoded, placed and drawn on a thread of its own with the decoders' heap limits.
    'author.upload.preview': async (p, caller) => deps.pool.run('author.splatPreview', { path: ctx().uploads.singleFile(p.uploadId), up: p.up, yawDeg: p.yawDeg }, { client: caller.id, limits: DECODE_LIMITS }),
    'author.upload.finish': async (p, caller) => {
      // Decoding the frames, the visual hull and a CPU fit run on the worker pool (jobs 'nerf.read'
      // and 'author.fit'), so other clients are answered meanwhile (issue 38 item 1); the capture's
      // budget is checked there first; author.upload.cancel stops the import at any stage.
      const c = ctx();
      const upload = c.uploads.get(p.uploadId);
      checkFree(deps.tasksDir, p.name, p.overwrite);
      if (imports.has(p.uploadId)) throw new Error(`upload ${p.uploadId} is being imported already`);
      const stop = new AbortController();
      imports.set(p.uploadId, stop);
      const start = Date.now();
      const label = `import ${p.name}`;
      let installed = false;
      try {
        const grader = await c.grader();
        const fit = publishingFit(events, label, c.fitDevice, caller, c.cpuFits ? deps.pool : null, stop.signal);
        const log = (line: string): void => {
          stop.signal.throwIfAborted();
          events.publish('progress', { task: label, done: 0, total: 0, message: line }, caller);
        };
        // Photos written and read back on the pool, in this caller's queue (issue 38 item 1).
        const views = poolViewFiles(deps.pool, caller.id, stop.signal);
        const common = { tasksDir: deps.tasksDir, steps: p.steps ?? 2000, seed: p.seed ?? 0, k: p.k ?? 6, grader, fit, log, views };
        const built = upload.kind === 'nerf'
          ? { result: await importNerf(upload.dir, { id: p.name, ...common, read: (dir, transforms, size) => deps.pool.run('nerf.read', { dir, transforms, size }, { client: caller.id, signal: stop.signal }) }), warnings: [] as string[] }
          : await importPlyTask(c.uploads.singleFile(p.uploadId), { id: p.name, size: 256, up: p.up, yawDeg: p.yawDeg, read: splatReader(deps.pool, caller.id), ...common });
        installed = true;
        // The new tasks loaded through the lab's repository (photos decoded on the pool, and kept for the players).
        const checked = await conformance(built.result.specs, grader, deps.tasksDir, (id) => deps.tasks.get(id));
        return {
          object: p.name,
          objectDir: join(deps.tasksDir, 'objects', p.name),
          taskIds: built.result.specs.map((s) => s.task_id),
          anchors: anchorsOut(built.result.anchors),
          ...checked,
          warnings: built.warnings,
          ms: Date.now() - start,
        };
      } catch (error) {
        if (stop.signal.aborted && !installed) throw new Error(`${label}: cancelled, nothing written`);
        throw error;
      } finally {
        imports.delete(p.uploadId);
        await c.uploads.discard(p.uploadId);
      }
    },
  };
}
