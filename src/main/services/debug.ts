// LabApi handlers of the debugger rows (src/shared/api/debug.ts): debug sessions over opened
// scenes, views, pixel traces and gradient views, all computed in main on the CPU reference,
// with the lab's GPU rasterizer for the GPU-vs-CPU view. Renders run as jobs on the lab's worker
// pool (the caller's queue, the session's signal: debug.cancel stops them), reporting progress as
// 'progress' events. Inputs: the LabContext (+ optional home).
// Output: HandlersFor the rows. Invariant: refused while a participant session runs (these rows
// show fits and held-out views), with the same one-line reason as the other experimenter rows.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEBUG_SCENE_LIMIT, debugMethods, type DebugSession } from '../../shared/api/debug';
import { namedViews, resolveCamera } from '../debug/cameras';
import { debugGradients } from '../debug/gradients';
import { debugPixel } from '../debug/pixel';
import type { DebugScene } from '../debug/session';
import { captureFolders, DEBUG_CHUNK_BYTES, DebugUploads, debugMemoryBudget, listCaptureFiles, suggestedFile } from '../debug/files';
import { openSource, type SourceOptions } from '../debug/sources';
import { debugView, type DebugJobs, type GpuRenderer } from '../debug/views';
import { frameFor } from '../debug/frame';
import { trajectoryParser } from '../env/trajectory-pool';
import { splatReader } from '../workers/read-splat';
import type { Caller } from './connection';
import { inspectScene } from '../debug/inspect';
import { splatPoints } from '../debug/points';
import { SESSION_LOCKED_MESSAGE, sessionLockFile } from './session-lock';
import { LabFailure, type HandlersFor } from './dispatch';
import type { LabContext } from './context';

export interface DebugServiceOptions {
  home?: string;
  /** The GPU side of the gpuDiff view; default the grader on the lab's device, LPIPS off. */
  gpu?: () => Promise<GpuRenderer>;
}

/** The debugger's GPU side: the lab context's WGSL rasterizer (no second grader). */
function contextGpu(ctx: LabContext): () => Promise<GpuRenderer> {
  return async () => {
    if (!ctx.gpu.device) return { render: null, reason: `no GPU in this lab process: ${ctx.gpu.status.summary}` };
    try {
      const raster = ctx.gpuRasterizer();
      if (!raster) return { render: null, reason: 'no GPU rasterizer' };
      return { name: ctx.gpu.status.path, render: async (splats, camera, opts) => (await raster.forwardBatch(splats, [camera], opts))[0], tileLists: (splats, camera) => raster.tileLists(splats, camera) };
    } catch (error) {
      return { render: null, reason: `the GPU rasterizer could not be built (${error instanceof Error ? error.message : String(error)})` };
    }
  };
}

function sessionOf(scene: DebugScene): DebugSession {
  const views = namedViews(scene.task);
  const size = views[0]?.camera ?? { width: 256, height: 256 };
  const { opened } = scene;
  return {
    sessionId: scene.id,
    label: opened.label,
    count: scene.splats.count,
    taskId: opened.task?.spec.task_id ?? null,
    views: views.map((v) => v.name),
    viewSize: { width: size.width, height: size.height },
    warnings: scene.frame ? [scene.frame.line, ...opened.warnings] : opened.warnings,
    steps: opened.steps,
    step: opened.step,
    gaussians:
      scene.splats.count <= DEBUG_SCENE_LIMIT
        ? scene.records.map((r) => ({ id: r.id, pos: [...r.pos], scale: [...r.scale], quat: [...r.quat], color: [...r.color], opacity: r.opacity }))
        : null,
    points: splatPoints(scene.splats),
    shDegree: scene.shDegree,
    frame: scene.frame,
  };
}

export function createDebugHandlers(ctx: LabContext, opts: DebugServiceOptions = {}): HandlersFor<typeof debugMethods> {
  const sessions = ctx.debugSessions;
  const home = opts.home ?? ctx.home;
  const tasksDir = ctx.tasksDir;
  const gpu = opts.gpu ?? contextGpu(ctx);
  const sessionLock = sessionLockFile(home);
  // The pool queues each caller's jobs separately, so one debugger cannot hold up other clients.
  const jobsFor = (scene: DebugScene, caller: Caller): DebugJobs => (kind, input) =>
    ctx.pool.run(kind, input, {
      client: caller.id,
      signal: scene.signal,
      onProgress: (p) => ctx.events.publish('progress', { task: `debug ${scene.id}`, done: p.done, total: p.total, message: p.message ?? '' }, caller),
    });
  const budget = (): number => debugMemoryBudget();
  const uploads = new DebugUploads(join(home, 'uploads', 'debug'), budget);
  // Tasks come from the lab's repository: their photos are decoded once, not on every open.
  const sourceOptions = () => ({ tasksDir, home, uploads, captureRoots: captureFolders(home), budgetBytes: budget(), loadTask: (id: string) => ctx.tasks.get(id) });
  const unlocked = async <T>(work: () => Promise<T> | T): Promise<T> => {
    if (existsSync(sessionLock)) throw new LabFailure(SESSION_LOCKED_MESSAGE);
    return work();
  };

  return {
    // A session belongs to the connection that opened it and is closed with it (a closed tab).
    'debug.open': (p, caller) =>
      unlocked(async () => {
        const turn: SourceOptions['turn'] = (splats, from, to) => ctx.pool.run('debug.turn', { splats, from, to }, { client: caller.id });
        const scene = sessions.open(await openSource(p.source, { ...sourceOptions(), parse: trajectoryParser(ctx.pool, caller.id), read: splatReader(ctx.pool, caller.id), turn }));
        caller.onClose(() => sessions.close(scene.id));
        return sessionOf(scene);
      }),
    // The turn runs on the pool (seconds for millions of SH3 Gaussians), with the session's
    // progress and cancel; the scene stays as it was until the turned copy is back.
    'debug.frame': (p, caller) =>
      unlocked(async () => {
        const scene = sessions.get(p.sessionId);
        const evidence = scene.opened.frame?.evidence;
        if (!evidence || !scene.frame) throw new LabFailure(`${scene.opened.label} is in the lab's frame already (Z up): only splat files can be turned`);
        const next = frameFor(p.up, evidence);
        const turned = next.up === scene.frame.up ? scene.splats : await jobsFor(scene, caller)('debug.turn', { splats: scene.splats, from: scene.frame.up, to: next.up });
        scene.reframe(turned, next);
        return sessionOf(scene);
      }),
    'debug.close': async (p) => ({ closed: sessions.close(p.sessionId) }),
    'debug.files': () =>
      unlocked(() => {
        const folders = captureFolders(home);
        return { folders, files: listCaptureFiles(folders), suggested: suggestedFile(), budgetBytes: budget() };
      }),
    // An upload belongs to the connection that began it and is dropped with it.
    'debug.upload.begin': (p, caller) =>
      unlocked(() => {
        const u = uploads.begin(p.name, p.bytes);
        caller.onClose(() => uploads.remove(u.id));
        return { uploadId: u.id, chunkBytes: DEBUG_CHUNK_BYTES };
      }),
    'debug.upload.put': (p) =>
      unlocked(() => {
        const u = uploads.put(p.uploadId, p.offset, p.data);
        return { received: u.received, bytes: u.bytes };
      }),
    'debug.upload.cancel': async (p) => ({ cancelled: uploads.remove(p.uploadId) }),
    'debug.cancel': async (p) => {
      const scene = sessions.find(p.sessionId);
      scene?.cancel();
      return { cancelled: scene !== null };
    },
    'debug.view': (p, caller) =>
      unlocked(async () => {
        const scene = sessions.get(p.sessionId);
        const cam = resolveCamera(p.camera, scene.task);
        return (await debugView(scene, cam.camera, p.view, gpu, jobsFor(scene, caller), p.shDegree)).out;
      }),
    'debug.pixel': (p, caller) =>
      unlocked(async () => {
        const scene = sessions.get(p.sessionId);
        const cam = resolveCamera(p.camera, scene.task);
        const jobs = jobsFor(scene, caller);
        const entry = await debugView(scene, cam.camera, p.view, gpu, jobs, p.shDegree);
        return debugPixel(scene, cam.camera, p.x, p.y, entry, jobs);
      }),
    'debug.gradients': (p, caller) =>
      unlocked(() => {
        const scene = sessions.get(p.sessionId);
        const cam = resolveCamera(p.camera, scene.task);
        return debugGradients(scene, cam, p, jobsFor(scene, caller));
      }),
    'debug.inspect': (p) => unlocked(() => inspectScene(sessions.get(p.sessionId))),
  };
}
