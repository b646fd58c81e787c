// Saving an authored object as a task folder with the build's own writers: object.json,
// cameras.json, ref/ and heldout/ photos with masks, fit.json + fit_loss.png (the session's fit),
// init_reassembly.npz + parts_truth.json (the chosen scramble), anchors.json, build.json and the
// three task specs; then the environment's conformance check on each new task.
// Inputs: the fitted object, its quantised photos, the stored fit records and losses, k and seed.
// Output: SaveResult. Invariant: atomic (staging folder + renames, as `author build`), and the
// scramble and anchors are computed from the files as re-read from the staging folder.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProceduralObject } from '../../../shared/authoring/primitives';
import { scramble } from '../../../shared/authoring/scramble/scramble';
import type { FitAnchors, SaveResult } from '../../../shared/api/author';
import { packSplats, type GaussianRecord } from '../../../shared/scene/gaussian';
import { sceneFileJson } from '../../../shared/scene/input';
import type { Anchors, TaskSpec } from '../../../shared/task/schema';
import { checkTask } from '../../episodes/conformance';
import type { Grader } from '../../grader/grader';
import { readCameras, readFit, type LoadedTask, type RefView } from '../../tasks/load';
import { localViewFiles, type ViewFiles } from '../../tasks/view-files';
import { checkNotBuiltIn, objectDir } from '../../tasks/paths';
import { localLossPlot, type LossPlotPng } from '../fit/plot';
import { FIT_FILE, FIT_PLOT_FILE } from '../fit/run';
import { buildStaged } from '../staging';
import { extendHistory, readPreviousBuild } from '../documents';
import { formatJson, taskSpecs, writeAnchors, writeCameras, writeReassembly, writeSpecs } from '../task-files';
import { standardCameras } from './photos';

export interface SaveInput {
  tasksDir: string;
  name: string;
  object: ProceduralObject;
  size: number;
  reference: RefView[];
  heldout: RefView[];
  fit: GaussianRecord[];
  losses: number[];
  fitSeed: number;
  k: number;
  scrambleSeed: number;
  /** The scramble's parts when they follow the author's groups (else k-means with k). */
  labels?: number[];
  grader: Grader;
  overwrite?: boolean;
  warnings?: string[];
  /** How photos are written and read back (the lab: on its worker pool); default in this thread. */
  views?: ViewFiles;
  /** How the conformance check loads the new tasks (the lab: its task repository); default loadTask. */
  loadTask?: (taskId: string) => Promise<LoadedTask>;
  /** Where fit_loss.png is drawn and encoded (the lab: its worker pool); default this thread. */
  plot?: LossPlotPng;
}

/** Refuses to replace an existing object or task spec unless asked to. */
export function checkFree(tasksDir: string, name: string, overwrite: boolean | undefined): void {
  checkNotBuiltIn(tasksDir, taskSpecs(name).map((s) => s.task_id), name);
  if (overwrite) return;
  const taken = [objectDir(tasksDir, name), ...taskSpecs(name).map((s) => join(tasksDir, `${s.task_id}.json`))].filter((p) => existsSync(p));
  if (taken.length > 0) throw new Error(`a task named '${name}' already exists (${taken[0]}); choose another name or allow overwriting`);
}

export function anchorsOut(a: Anchors): FitAnchors {
  return { empty: { ...a.empty }, fit: { ...a.fit }, lpipsModel: a.lpips_model };
}

/** Conformance of freshly written tasks with the environment's own checker. */
export async function conformance(specs: TaskSpec[], grader: Grader, tasksDir: string, load?: (taskId: string) => Promise<LoadedTask>): Promise<Pick<SaveResult, 'conformance' | 'ok'>> {
  const reports: SaveResult['conformance'] = [];
  for (const s of specs) reports.push(await checkTask(s.task_id, grader, tasksDir, load));
  return { conformance: reports, ok: reports.every((r) => r.problems.length === 0) };
}

export async function saveAuthoredTask(input: SaveInput): Promise<SaveResult> {
  const start = Date.now();
  const { tasksDir, name, grader } = input;
  const views = input.views ?? localViewFiles;
  checkFree(tasksDir, name, input.overwrite);
  const previous = readPreviousBuild(tasksDir, name);
  const { anchors, specs } = await buildStaged(tasksDir, name, async (staged) => {
    const dir = staged.objectDir;
    writeFileSync(join(dir, 'object.json'), `${formatJson({ ...input.object, name }, 2)}\n`);
    writeCameras(dir, standardCameras(input.size));
    await views.write(dir, 'ref', input.reference);
    await views.write(dir, 'heldout', input.heldout);
    // Same bytes as fitTask writes, so readFit gives back exactly the session's records.
    writeFileSync(join(dir, FIT_FILE), `${JSON.stringify(sceneFileJson(input.fit))}\n`);
    writeFileSync(join(dir, FIT_PLOT_FILE), await (input.plot ?? localLossPlot)(input.losses, `${name}: ${input.losses.length} steps, ${input.fit.length} Gaussians`));
    const what = `save ${name}`;
    const cameras = readCameras(dir, what);
    const fit = readFit(dir, what);
    const { records, truth } = scramble(fit, { k: input.k, seed: input.scrambleSeed, ...(input.labels ? { labels: input.labels } : {}) });
    writeReassembly(dir, records, truth);
    const heldout = await views.read(dir, 'heldout', cameras.heldout, what);
    const computed = await grader.computeAnchors(heldout, packSplats(fit));
    writeAnchors(dir, computed);
    const written = writeSpecs(staged.root, name);
    const tail = input.losses.slice(-Math.max(1, Math.floor(input.losses.length / 10)));
    const finalLoss = tail.length ? Number((tail.reduce((a, v) => a + v, 0) / tail.length).toPrecision(6)) : null;
    const entry = { action: 'save', photos: 'authored', steps: input.losses.length, seed: input.fitSeed, k: input.k, gaussians: fit.length, final_loss: finalLoss };
    const build = {
      object: name, source: 'authored', steps: input.losses.length, seed: input.fitSeed, scramble_seed: input.scrambleSeed, k: input.k,
      gaussians: fit.length, final_loss: finalLoss, photo_size: input.size, lpips_model: computed.lpips_model,
      history: extendHistory(previous.history, entry),
    };
    writeFileSync(join(dir, 'build.json'), `${formatJson(build)}\n`);
    return { anchors: computed, specs: written };
  });
  const checked = await conformance(specs, grader, tasksDir, input.loadTask);
  return {
    object: name,
    objectDir: objectDir(tasksDir, name),
    taskIds: specs.map((s) => s.task_id),
    anchors: anchorsOut(anchors),
    ...checked,
    warnings: input.warnings ?? [],
    ms: Date.now() - start,
  };
}
