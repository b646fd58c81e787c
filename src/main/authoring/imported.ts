// The build every capture import ends with (NeRF-Synthetic frames, photographed captures): the
// chosen views' cameras, photos and masks and source.json written into a staging folder, then the
// fit, scramble, anchors and specs (pipeline.ts), installed atomically (staging.ts).
// Inputs: the object id, chosen views, each view's 256x256 photo and mask, what source.json says,
// the provenance tag and build options. Output: the BuildResult.
// Invariant: the tasks folder changes only when every stage succeeded.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RgbImage } from '../../shared/image/image';
import type { CamerasFile, ViewEntry } from '../../shared/task/schema';
import { Grader } from '../grader/grader';
import { resolveTasksDir } from '../tasks/paths';
import { DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS, DEFAULT_PARTS, type BuildOptions, type BuildResult } from './build';
import { cpuFit, taskFit } from './fit-default';
import { finishObject } from './pipeline';
import { buildStaged } from './staging';
import { formatJson, writeCameras } from './task-files';
import { localViewFiles, type ViewFiles } from '../tasks/view-files';

export type ImportBuildOptions = Omit<BuildOptions, 'object' | 'samples' | 'source'> & {
  /** How the photos are written and read back (the lab: on its worker pool); default in this thread. */
  views?: ViewFiles;
};

export interface ImportedViews<V extends ViewEntry> {
  reference: V[];
  heldout: V[];
  /** The 256x256 photo on white and mask of a chosen view. */
  viewImages: (view: V) => { photo: RgbImage; mask: Float32Array };
  sourceInfo: Record<string, unknown>;
  /** build.json's `source`: where the photos came from (e.g. `nerf-synthetic:lego`). */
  provenance: string;
}

export async function buildImported<V extends ViewEntry>(id: string, views: ImportedViews<V>, opts: ImportBuildOptions): Promise<BuildResult> {
  const steps = opts.steps ?? DEFAULT_BUILD_STEPS;
  const seed = opts.seed ?? DEFAULT_BUILD_SEED;
  const log = opts.log ?? ((): void => undefined);
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const grader = opts.grader ?? (await Grader.create({ device: opts.device ?? null, ...(opts.lpipsDir !== undefined ? { lpipsDir: opts.lpipsDir } : {}) }));
  try {
    return await buildStaged(tasksDir, id, async (staged) => {
      const strip = (v: V): ViewEntry => ({ name: v.name, ...(v.azimuth !== undefined ? { azimuth: v.azimuth } : {}), ...(v.elevation !== undefined ? { elevation: v.elevation } : {}), camera: v.camera });
      const camerasFile: CamerasFile = { reference: views.reference.map(strip), heldout: views.heldout.map(strip) };
      writeCameras(staged.objectDir, camerasFile);
      const images = (list: V[]) => list.map((v) => ({ name: v.name, ...views.viewImages(v) }));
      const files = opts.views ?? localViewFiles;
      await Promise.all([files.write(staged.objectDir, 'ref', images(views.reference)), files.write(staged.objectDir, 'heldout', images(views.heldout))]);
      writeFileSync(join(staged.objectDir, 'source.json'), `${formatJson(views.sourceInfo, 2)}\n`);
      const res = await finishObject(staged, id, {
        steps, seed, k: opts.k ?? DEFAULT_PARTS, fit: opts.fit ?? (opts.device ? taskFit('gpu') : cpuFit), grader, log,
        provenance: { ...opts.provenance, source: views.provenance }, ...(opts.budgets ? { budgets: opts.budgets } : {}), views: files,
      });
      return { object: id, objectDir: join(tasksDir, 'objects', id), specs: res.specs, anchors: res.anchors, gaussians: res.fit.length, steps, seed, finalLoss: res.finalLoss };
    });
  } finally {
    if (!opts.grader) grader.destroy();
  }
}
