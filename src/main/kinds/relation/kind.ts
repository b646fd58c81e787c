// The `relation` kind's main half (docs/DESIGN.md section 13, docs/RELATION.md): a task is its
// spec plus each trial's hidden parameters file (tasks/relation/*.json); a trial's image is
// rendered from that file when first shown (deterministic, never stored) and kept for the task;
// an imported image (`stimulus` in the file) is read from beside it instead.
// Inputs: a tasks folder and a spec head. Outputs: RelationTask, TaskSummary, RelationEnv.
// Invariant: summaries carry no label and no position; a task of another kind is refused.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RelationRules, CALLS_PER_TRIAL } from '../../../shared/kinds/relation/kind';
import { parseParams, RelationParamsSchema, type RelationParams } from '../../../shared/kinds/relation/params';
import { renderParams } from '../../../shared/kinds/relation/sample';
import { RelationTaskSpecSchema, type RelationTaskSpec } from '../../../shared/kinds/relation/task';
import type { TaskSpecHead, TaskSummary } from '../../../shared/task/schema';
import { decodePng, encodePng } from '../../io/png';
import { readSpec, readSpecHead, TaskLoadError } from '../../tasks/load';
import type { KindTask, MainKindModule } from '../kind';
import { RelationEnv } from './env';
import { relationAccuracy, trialsOfTrajectory, verifyRelationImport } from './log-trials';
import { relationReport } from './report';
import { taskFile } from '../../tasks/paths';

export interface RelationTask extends KindTask {
  readonly spec: RelationTaskSpec;
  readonly params: readonly RelationParams[];
  /** The PNG of trial i (rendered on first use). */
  image(i: number): Uint8Array;
}

/**
 * Rendered trial images by parameters file (path, modification time, samples): every reset of a
 * task loads it afresh, and a trial image costs a few hundred ms of ray casting.
 */
const IMAGE_CACHE = new Map<string, Uint8Array>();
const IMAGE_CACHE_MAX = 256;

function cachedImage(key: string, render: () => Uint8Array): Uint8Array {
  let png = IMAGE_CACHE.get(key);
  if (!png) {
    png = render();
    if (IMAGE_CACHE.size >= IMAGE_CACHE_MAX) IMAGE_CACHE.delete(IMAGE_CACHE.keys().next().value as string);
    IMAGE_CACHE.set(key, png);
  }
  return png;
}

function readRelationSpec(tasksDir: string, head: TaskSpecHead): RelationTaskSpec {
  if (head.kind !== 'relation') throw new TaskLoadError(`task ${head.task_id} is a '${head.kind}' task, not a relation task`);
  return readSpec(tasksDir, head.task_id, RelationTaskSpecSchema);
}

export function loadRelationTask(tasksDir: string, head: TaskSpecHead): RelationTask {
  const spec = readRelationSpec(tasksDir, head);
  const params = spec.trials.map((t) => {
    const path = taskFile(tasksDir, t.params);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new TaskLoadError(`task ${spec.task_id}: cannot read ${t.params} (${(error as Error).message})`);
    }
    try {
      return parseParams(json, t.params);
    } catch (error) {
      throw new TaskLoadError(`task ${spec.task_id}: ${(error as Error).message}`);
    }
  });
  const keys = spec.trials.map((t) => {
    const path = taskFile(tasksDir, t.params);
    return `${path}:${statSync(path).mtimeMs}:${spec.samples}`;
  });
  return {
    spec, dir: tasksDir, params,
    image: (i: number) => cachedImage(keys[i], () => trialImage(tasksDir, spec.trials[i].params, params[i], spec.samples)),
  };
}

/**
 * The PNG of a trial: an imported image's stored pixels (beside its parameters file, refused when
 * its size is not the recorded one), else the scene rendered from the parameters.
 */
function trialImage(tasksDir: string, paramsFile: string, p: RelationParams, samples: number): Uint8Array {
  if (!p.stimulus) return encodePng(renderParams(p, { samples }).rgb);
  const path = join(dirname(taskFile(tasksDir, paramsFile)), p.stimulus.file);
  const bytes = readFileSync(path);
  const png = decodePng(bytes);
  if (png.width !== p.stimulus.width || png.height !== p.stimulus.height) {
    throw new TaskLoadError(`${path}: ${png.width}x${png.height}, its parameters say ${p.stimulus.width}x${p.stimulus.height}`);
  }
  return bytes;
}

function isRelationTask(task: KindTask): task is RelationTask {
  return task.spec.kind === 'relation' && 'params' in task;
}

function asRelationTask(task: KindTask): RelationTask {
  if (!isRelationTask(task)) throw new TaskLoadError(`task ${task.spec.task_id} is a '${task.spec.kind}' task, not a relation task`);
  return task;
}

export const relationMain: MainKindModule = {
  family: 'relation',
  load: (tasksDir, head) => Promise.resolve(loadRelationTask(tasksDir, head)),
  summary: (tasksDir, head): TaskSummary => {
    const spec = readRelationSpec(tasksDir, head);
    return {
      id: spec.task_id, kind: 'relation', object: spec.practice ? 'practice' : spec.trials[0].environment,
      budgets: { maxGaussians: 0, maxToolCalls: CALLS_PER_TRIAL * spec.trials.length, maxRenders: 0 },
      startsFromInit: false, referenceViews: [],
    };
  },
  // An imported image travels with its parameters file (the file names it; a missing one is the load's error).
  dataFiles: (tasksDir, head) => readRelationSpec(tasksDir, head).trials.flatMap((t) => {
    const path = taskFile(tasksDir, t.params);
    const p = existsSync(path) ? RelationParamsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8'))) : null;
    return p?.success && p.data.stimulus ? [path, join(dirname(path), p.data.stimulus.file)] : [path];
  }),
  reset: (task, options) => RelationEnv.reset(asRelationTask(task), options),
  rules: (task) => new RelationRules(asRelationTask(task).spec),
  // A run is scored from its logged answers against the hidden labels, never its end record.
  importRun: (traj, tasksDir, taskId) => verifyRelationImport(traj, tasksDir, taskId),
  runScore: (traj, tasksDir, taskId) => {
    if (!traj.end) return null;
    try {
      return relationAccuracy(trialsOfTrajectory(traj, loadRelationTask(tasksDir, readSpecHead(tasksDir, taskId)), 'model', traj.header?.player ?? 'model'));
    } catch {
      return null;
    }
  },
  report: (logs, tasksDir) => Promise.resolve(relationReport(logs, tasksDir)),
};
