// A .ply of 3D Gaussians (INRIA layout) turned into the three tasks of an object: the Gaussians
// are centred and scaled into the bounds cube, rendered with the grader's rasterizer from the
// standard reference and held-out cameras (the render is the photo, its coverage the mask), then
// fitted, scrambled and anchored by the shared build pipeline like any other object.
// Inputs: the file's bytes and build options. Output: the build result plus warnings.
// Invariant: every check (parse errors, an invisible scene) happens before anything is written,
// and the tasks folder changes only when the whole build succeeded (buildStaged).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePly } from '../../../shared/authoring/import/ply';
import type { GaussianRecord } from '../../../shared/scene/gaussian';
import type { Vec3 } from '../../../shared/math/vec3';
import type { Grader } from '../../grader/grader';
import type { FitFn } from '../pipeline';
import { finishObject } from '../pipeline';
import { sceneLimitNotes } from '../ply-io';
import { buildStaged } from '../staging';
import { renderPhotoSet } from '../gaussian-build';
import { formatJson, writeCameras, writeViews } from '../task-files';
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

export async function importPlyTask(bytes: Uint8Array, opts: PlyTaskOptions): Promise<{ result: Awaited<ReturnType<typeof finishObject>>; warnings: string[] }> {
  const parsed = parsePly(bytes);
  if (parsed.records.length === 0) throw new Error('the .ply holds no Gaussians');
  const { placed, warnings } = placedWithWarnings(parsed.records, parsed.warnings);
  const reference = await renderPhotoSet(opts.grader, placed.records, 'reference', opts.size);
  const heldout = await renderPhotoSet(opts.grader, placed.records, 'heldout', opts.size);
  const blank = [...reference, ...heldout].find((v) => !v.mask.some((m) => m > 0.5));
  if (blank) throw new Error(`the scene is not visible in view ${blank.name} (every Gaussian too faint or too small)`);
  const result = await buildStaged(opts.tasksDir, opts.id, async (staged) => {
    writeCameras(staged.objectDir, standardCameras(opts.size));
    writeViews(staged.objectDir, 'ref', reference);
    writeViews(staged.objectDir, 'heldout', heldout);
    writeFileSync(join(staged.objectDir, 'source.json'), `${formatJson({ source: 'ply', gaussians: parsed.records.length, sh_degree: parsed.shDegree, centre: placed.centre, scale: placed.factor })}\n`);
    return finishObject(staged, opts.id, {
      steps: opts.steps, seed: opts.seed, k: opts.k, fit: opts.fit, grader: opts.grader, log: opts.log ?? (() => undefined), provenance: { source: 'ply' },
    });
  });
  return { result, warnings };
}
