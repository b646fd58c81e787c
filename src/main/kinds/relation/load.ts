// A relation task loaded (docs/RELATION.md): its spec and each trial's hidden parameters file
// (tasks/relation/*.json), a trial's image rendered from that file when first shown
// (deterministic, never stored; by the renderer the caller gives: the lab's worker pool, else this
// thread, ./trial-image.ts) and cached, or an imported image read from beside it. Apart from
// the kind's module (./kind.ts) so its environment, log readers and report load tasks without
// importing the module that imports them.
// Input: a tasks folder and a spec head. Output: RelationTask. Invariant: a task of another kind
// is refused with one line before anything else is read.
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseParams, type RelationParams } from '../../../shared/kinds/relation/params';
import { RelationTaskSpecSchema, type RelationTaskSpec } from '../../../shared/kinds/relation/task';
import type { TaskSpecHead } from '../../../shared/task/schema';
import { decodePng } from '../../io/png';
import { readSpec, TaskLoadError } from '../../tasks/load';
import { taskFile } from '../../tasks/paths';
import type { KindTask } from '../kind';
import { localTrialRenderer, type TrialRenderer } from './trial-image';

export interface RelationTask extends KindTask {
  readonly spec: RelationTaskSpec;
  readonly params: readonly RelationParams[];
  /** The PNG of trial i, rendered on first use by `render` (default this thread). */
  image(i: number, render?: TrialRenderer): Promise<Uint8Array>;
}

/**
 * Rendered trial images by parameters file (path, modification time, samples): every reset of a
 * task loads it afresh, and a trial image costs a few hundred ms of ray casting. The pending
 * promise is kept, so concurrent requests for one image share one render; a failed one is
 * forgotten, so the next request tries again.
 */
const IMAGE_CACHE = new Map<string, Promise<Uint8Array>>();
const IMAGE_CACHE_MAX = 256;

function cachedImage(key: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
  let png = IMAGE_CACHE.get(key);
  if (!png) {
    const pending = render();
    png = pending;
    pending.catch(() => {
      if (IMAGE_CACHE.get(key) === pending) IMAGE_CACHE.delete(key);
    });
    if (IMAGE_CACHE.size >= IMAGE_CACHE_MAX) IMAGE_CACHE.delete(IMAGE_CACHE.keys().next().value as string);
    IMAGE_CACHE.set(key, png);
  }
  return png;
}

export function readRelationSpec(tasksDir: string, head: TaskSpecHead): RelationTaskSpec {
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
    image: (i: number, render: TrialRenderer = localTrialRenderer) => cachedImage(keys[i], () => trialImage(tasksDir, spec.trials[i].params, params[i], spec.samples, render)),
  };
}

/**
 * The PNG of a trial: an imported image's stored pixels (beside its parameters file, refused when
 * its size is not the recorded one), else the scene rendered from the parameters by `render`.
 */
async function trialImage(tasksDir: string, paramsFile: string, p: RelationParams, samples: number, render: TrialRenderer): Promise<Uint8Array> {
  if (!p.stimulus) return render({ params: p, samples });
  const path = join(dirname(taskFile(tasksDir, paramsFile)), p.stimulus.file);
  const bytes = new Uint8Array(await readFile(path));
  const png = decodePng(bytes);
  if (png.width !== p.stimulus.width || png.height !== p.stimulus.height) {
    throw new TaskLoadError(`${path}: ${png.width}x${png.height}, its parameters say ${p.stimulus.width}x${p.stimulus.height}`);
  }
  return bytes;
}

function isRelationTask(task: KindTask): task is RelationTask {
  return task.spec.kind === 'relation' && 'params' in task;
}

export function asRelationTask(task: KindTask): RelationTask {
  if (!isRelationTask(task)) throw new TaskLoadError(`task ${task.spec.task_id} is a '${task.spec.kind}' task, not a relation task`);
  return task;
}
