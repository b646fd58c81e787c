// The lab context (docs/DESIGN.md, "Composition root"): what every service of one lab process
// shares, built once by createLab() (src/main/app/context.ts) or by tests: the GPU context and its
// fallback decision, the task repository (tasks loaded once, reloaded when their files change),
// the one grader of the process, the episode manager, the event bus and the lab home. Services
// receive it; none keeps module-level state.
// Invariant: one Grader per context; close() releases what the context owns (the grader's GPU
// buffers and worker threads, the live episodes' logs, the debugger's GPU rasterizer, the search
// views' renderer, the worker pool's threads).
import type { TaskListItem } from '../../shared/task/registry';
import { labHome } from '../io/home';
import { DebugSessions } from '../debug/session';
import { EpisodeManager } from '../episodes/manager';
import type { GpuContext } from '../gpu/device';
import { loadShaders } from '../gpu/shaders';
import { sharedGrader, type Grader } from '../grader/grader';
import { photoCacheDir } from '../grader/photo-cache';
import { packedCacheDir } from '../lpips/packed-cache';
import { GpuRasterizer } from '../../shared/raster/gpu';
import { listRegistryTasks } from '../kinds/task-registry';
import { TaskRepository } from '../kinds/repository';
import { mainKind } from '../kinds/registry';
import { resolveTasksDir } from '../tasks/paths';
import { poolViewFiles } from '../tasks/view-files';
import { labViews, type LabViews } from '../raster/views';
import { CallActivity, GradeQueue } from '../workers/grade-queue';
import { WorkerPool } from '../workers/pool';
import { servingNice } from '../workers/nice';
import { poolPng } from '../workers/png';
import { EventHub } from './events';

export type LabTransport = 'ipc' | 'ws' | 'direct';

/** The worker pool's queue of task loads (their photos decoded there). */
const TASK_LOADS = 'tasks';
/** The pool's queue of episodes' observation PNGs (search). */
const OBSERVATIONS_CLIENT = 'observations';

export interface LabContext {
  readonly gpu: GpuContext;
  readonly tasksDir: string;
  readonly home: string;
  readonly version: string;
  readonly transport: LabTransport;
  readonly tasks: TaskRepository;
  readonly events: EventHub;
  readonly episodes: EpisodeManager;
  /** LabApi calls in flight (deferred grades wait for an idle moment). */
  readonly activity: CallActivity;
  /** The lab's one worker pool: heavy work runs there, off the event loop (closed with the context). */
  readonly pool: WorkerPool;
  /** The debugger's open scenes (each also closed with the connection that opened it). */
  readonly debugSessions: DebugSessions;
  /** The one grader of the process (built on first use; CPU fallback decided once). */
  grader(): Promise<Grader>;
  /** Where grading runs (Grader.placement), or that the grader is not built yet. */
  gradingPlacement(): string;
  /** The WGSL rasterizer on the lab's device for the debugger's GPU views; null without one. */
  gpuRasterizer(): GpuRasterizer | null;
  /** The renderer of search observations (a hardware GPU, else the tile rasterizer on the pool). */
  readonly views: LabViews;
  /** The task registry's rows (src/main/kinds/task-registry.ts: the entries of `splatlab tasks --json` beside their summaries). */
  listTasks(): Promise<TaskListItem[]>;
  close(): Promise<void>;
}

export interface LabContextOptions {
  gpu: GpuContext;
  tasksDir?: string;
  home?: string;
  version: string;
  transport: LabTransport;
  listTasks?: (tasksDir: string) => Promise<TaskListItem[]>;
  /** A prepared grader (tests); default sharedGrader on `gpu`. */
  grader?: () => Promise<Grader>;
  /** A prepared episode manager (tests); default one over this context's tasks and grader. */
  episodes?: EpisodeManager;
  /** Threads of the worker pool; default the available cores minus one. */
  poolSize?: number;
}

export function createLabContext(o: LabContextOptions): LabContext {
  const home = o.home ?? labHome();
  // Without a tasks folder named, the lab's is <home>/tasks, layered over the built-in set (tasks/paths.ts).
  const tasksDir = resolveTasksDir(o.tasksDir, o.home ? { ...process.env, SPLATLAB_HOME: o.home } : process.env);
  // The serving pools' threads run at a lower priority than the event loop, which only
  // dispatches: on a loaded machine a reply then waits less for the CPU (issue 38 item 1).
  const nice = servingNice();
  const pool = new WorkerPool({ nice, ...(o.poolSize === undefined ? {} : { size: o.poolSize }) });
  // Task photos are decoded on the pool (issue 38 item 1): a task's first load holds no other client.
  const tasks = new TaskRepository(tasksDir, { readViews: poolViewFiles(pool, TASK_LOADS).read });
  // One WGSL rasterizer per lab: the grader, the debugger and search views share its resident scene.
  let raster: GpuRasterizer | null | undefined;
  const gpuRasterizer = (): GpuRasterizer | null => {
    if (raster === undefined) raster = o.gpu.device ? GpuRasterizer.create(o.gpu.device, loadShaders()) : null;
    return raster;
  };
  // A server's GPU grade runs in a child process with its own device (its event loop stays free).
  const grader = o.grader ?? sharedGrader(o.gpu, { pool, rasterizer: gpuRasterizer, gpuProcess: true, lpipsNice: nice, photoCache: photoCacheDir(home), weightsCache: packedCacheDir(home) });
  let built: Grader | null = null;
  const getGrader = async (): Promise<Grader> => (built = await grader());
  // A task that leaves the repository takes its photos off the grader's device with it.
  tasks.onUnload((task) => {
    if (built) mainKind(task).unload?.(task, built);
  });
  // Deferred grades run when no LabApi call is in flight (the services count calls on `activity`).
  const activity = new CallActivity();
  const grades = new GradeQueue(activity);
  const views = labViews({ gpu: o.gpu, pool, gpuRasterizer });
  const episodes = o.episodes ?? new EpisodeManager({ tasksDir, home, version: o.version, grader: getGrader, tasks, grades, viewRenderer: views.render, encodePng: poolPng(pool, OBSERVATIONS_CLIENT), pool });
  const listTasks = o.listTasks ?? listRegistryTasks;
  return {
    gpu: o.gpu,
    tasksDir,
    home,
    version: o.version,
    transport: o.transport,
    tasks,
    events: new EventHub(),
    episodes,
    activity,
    pool,
    debugSessions: new DebugSessions(),
    grader: getGrader,
    gradingPlacement: () => built?.placement ?? 'not started yet (the grader is built on the first grade)',
    gpuRasterizer,
    views,
    listTasks: () => listTasks(tasksDir),
    close: async () => {
      episodes.closeAll();
      await episodes.idle();
      views.destroy();
      raster?.destroy();
      raster = null;
      if (built) built.destroy();
      built = null;
      await pool.close();
    },
  };
}
