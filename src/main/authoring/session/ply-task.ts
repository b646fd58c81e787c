// A splat file (any supported format) turned into the three tasks of an object: the capture's up
// axis is turned to +Z (explicitly, reported), the Gaussians are centred and scaled into the bounds cube, rendered with the grader's rasterizer from the
// standard reference and held-out cameras (the render is the photo, its coverage the mask), then
// fitted, scrambled and anchored by the shared build pipeline like any other object.
// Inputs: the file's path and build options. Output: the build result plus warnings.
// Invariant: every check (parse errors, an invisible scene) happens before anything is written,
// and the tasks folder changes only when the whole build succeeded (buildStaged).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordsOfSplats } from '../../../shared/formats/records';
import type { Splats } from '../../../shared/scene/splats';
import { importSplatFile, type UpChoice } from '../../formats/import';
import type { GaussianRecord } from '../../../shared/scene/gaussian';
import type { Vec3 } from '../../../shared/math/vec3';
import type { Grader } from '../../grader/grader';
import type { FitFn } from '../pipeline';
import { finishObject } from '../pipeline';
import { sceneLimitNotes } from '../ply-io';
import { buildStaged } from '../staging';
import { renderPhotoSet } from '../gaussian-build';
import { formatJson, writeCameras } from '../task-files';
import { localViewFiles, type ViewFiles } from '../../tasks/view-files';
import type { SplatReader } from '../../workers/read-splat';
import { standardCameras } from './photos';

/** Longest half side of the placed scene (the procedural objects use about the same). */
export const PLY_HALF_SIDE = 0.9;

export interface PlyTaskOptions {
  id: string;
  tasksDir: string;
  steps: number;
  seed: number;
  k: number;
  size: number;
  grader: Grader;
  fit: FitFn;
  log?: (line: string) => void;
  /** How photos are written and read back (the lab: on its worker pool); default in this thread. */
  views?: ViewFiles;
  /** How the file is decoded (the lab: splatReader, on the worker pool); default in this thread. */
  read?: SplatReader;
}

/** Centres the scene's positions at the origin and scales its longest half side to PLY_HALF_SIDE. */
export function placeInBounds(records: readonly GaussianRecord[]): { records: GaussianRecord[]; factor: number; centre: Vec3 } {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const r of records) for (let a = 0; a < 3; a++) {
    lo[a] = Math.min(lo[a], r.pos[a]);
    hi[a] = Math.max(hi[a], r.pos[a]);
  }
  const centre: Vec3 = [0, 1, 2].map((a) => (lo[a] + hi[a]) / 2) as Vec3;
  const half = Math.max(1e-9, ...[0, 1, 2].map((a) => (hi[a] - lo[a]) / 2));
  const factor = PLY_HALF_SIDE / half;
  return {
    factor,
    centre,
    records: records.map((r) => ({
      ...r,
      pos: r.pos.map((v, a) => (v - centre[a]) * factor) as Vec3,
      scale: r.scale.map((v) => v * factor) as Vec3,
    })),
  };
}

/** The scene placed in the bounds cube and the import's warnings, limits counted after the scaling (issue #14: they were counted on the file's raw values). */
export function placedWithWarnings(records: readonly GaussianRecord[], parseWarnings: readonly string[] = []): { placed: ReturnType<typeof placeInBounds>; warnings: string[] } {
  const placed = placeInBounds(records);
  const warnings = [...parseWarnings, ...sceneLimitNotes(placed.records).filter((n) => !n.includes('outside [-1.25'))];
  if (placed.factor !== 1) warnings.push(`scene centred and scaled by ${placed.factor.toPrecision(3)} to fit the bounds cube`);
  return { placed, warnings };
}

/** Records of a placed capture for a SplatBench task: flat colours clamped to [0, 1] (counted). */
function taskRecords(splats: Splats): { records: GaussianRecord[]; warnings: string[] } {
  const records = recordsOfSplats(splats);
  let clamped = 0;
  for (const r of records) {
    if (r.color.some((c) => c < 0 || c > 1)) clamped++;
    r.color = r.color.map((c) => Math.min(1, Math.max(0, c))) as Vec3;
  }
  const warnings = clamped ? [`${clamped} Gaussian(s) had colours outside [0, 1]; clamped`] : [];
  if (splats.sh) warnings.push(`SH degree ${splats.sh.degree} colours reduced to their view-independent (degree 0) part: tasks keep flat colours`);
  return { records, warnings };
}

/**
 * Any supported splat file (docs/FORMATS.md) into the three tasks of an object: the capture's up
 * axis (opts.up, else written in the file, cameras beside it, or the format's guess, reported)
 * becomes +Z before the scene is centred and scaled into the bounds cube.
 */
export async function importPlyTask(path: string, opts: PlyTaskOptions & { up?: UpChoice; yawDeg?: number }): Promise<{ result: Awaited<ReturnType<typeof finishObject>>; warnings: string[] }> {
  const imported = await importSplatFile(path, { up: opts.up, placement: { yawDeg: opts.yawDeg, recentre: 'none', scale: 'metric' }, precision: 'f64' }, opts.read);
  const parsed = { ...taskRecords(imported.placed.splats), shDegree: imported.file.shDegree };
  if (parsed.records.length === 0) throw new Error(`${imported.file.detected} holds no Gaussians`);
  const { placed, warnings } = placedWithWarnings(parsed.records, [...imported.lines.slice(1), ...parsed.warnings]);
  const reference = await renderPhotoSet(opts.grader, placed.records, 'reference', opts.size);
  const heldout = await renderPhotoSet(opts.grader, placed.records, 'heldout', opts.size);
  const blank = [...reference, ...heldout].find((v) => !v.mask.some((m) => m > 0.5));
  if (blank) throw new Error(`the scene is not visible in view ${blank.name} (every Gaussian too faint or too small)`);
  const result = await buildStaged(opts.tasksDir, opts.id, async (staged) => {
    writeCameras(staged.objectDir, standardCameras(opts.size));
    const files = opts.views ?? localViewFiles;
    await Promise.all([files.write(staged.objectDir, 'ref', reference), files.write(staged.objectDir, 'heldout', heldout)]);
    writeFileSync(join(staged.objectDir, 'source.json'), `${formatJson({ source: imported.file.format, detected: imported.file.detected, gaussians: parsed.records.length, sh_degree: parsed.shDegree, up: imported.up.up, up_source: imported.up.source, yaw_deg: opts.yawDeg ?? 0, centre: placed.centre, scale: placed.factor })}\n`);
    return finishObject(staged, opts.id, {
      steps: opts.steps, seed: opts.seed, k: opts.k, fit: opts.fit, grader: opts.grader, log: opts.log ?? (() => undefined), provenance: { source: 'ply' }, views: files,
    });
  });
  return { result, warnings };
}
