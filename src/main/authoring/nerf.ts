// `splatlab import nerf DIR --id NAME`: turns a NeRF-Synthetic capture into the three tasks of
// an object. Stages: read frames (RGBA on white, 256x256, alpha = mask); place the object in the
// bounds cube from a two-pass visual hull of the masks (centre at the origin, longest half side
// 0.9, Blender's Z up kept); choose 8 reference frames by farthest-point sampling on viewing
// directions and up to 8 held-out frames among the rest; write cameras.json, ref/, heldout/,
// source.json; then fit, scramble and anchors as for procedural objects (pipeline.ts).
// Invariant: validation happens before anything is written, and the tasks folder changes only
// when the whole build succeeded (staging folder, then renames).
import { basename, join, resolve } from 'node:path';
import {
  cameraFromBlender, lookAtPoint, normalisationForBox, orbitAngles, selectFrames, visualHullBox,
  IDENTITY_NORMALISATION, type Box, type Normalisation,
} from '../../shared/authoring/import/nerf';
import { PROCEDURAL_OBJECT_NAMES } from '../../shared/authoring/objects/index';
import { cameraCentre } from '../../shared/camera/orbit';
import type { Vec3 } from '../../shared/math/vec3';
import type { Camera } from '../../shared/raster/types';
import type { CamerasFile, ViewEntry } from '../../shared/task/schema';
import { Grader } from '../grader/grader';
import { resolveTasksDir } from '../tasks/paths';
import { DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS, DEFAULT_PARTS, PHOTO_SIZE, type BuildOptions, type BuildResult } from './build';
import { cpuFit, taskFit } from './fit-default';
import { findTransforms, NerfImportError, readFrames, readTransforms, type NerfFrame } from './nerf-frames';
import { finishObject } from './pipeline';
import { buildStaged } from './staging';
import { formatJson, writeCameras, writeViews } from './task-files';
import { writeFileSync } from 'node:fs';

export { NerfImportError } from './nerf-frames';

export const NERF_REFERENCE_FRAMES = 8;
export const NERF_HELDOUT_FRAMES = 8;
const HULL_COARSE = 40;
const HULL_FINE = 64;
/** Carve only where a mask is nearly empty, so thin parts (partial pixel coverage) stay in the hull. */
const HULL_MASK_THRESHOLD = 0.1;

export interface NerfImportOptions extends Omit<BuildOptions, 'k'> {
  id: string;
  k?: number;
}

export interface Placement {
  normalisation: Normalisation;
  hull: Box; // in capture coordinates
  warnings: string[];
}

/** Where the object sits in the capture: a coarse hull in the rig's view volume, then a fine one around it. */
export function placeObject(frames: readonly NerfFrame[], angleX: number, size: number): Placement {
  const cams: Camera[] = frames.map((f) => cameraFromBlender(f.c2w, angleX, size, IDENTITY_NORMALISATION));
  const masks = frames.map((f) => f.mask);
  const target = lookAtPoint(cams);
  // Largest cube around the look-at point that every camera sees in full width.
  const half = Math.min(...cams.map((c) => {
    const e = cameraCentre(c);
    return Math.hypot(e[0] - target[0], e[1] - target[1], e[2] - target[2]) * Math.tan(0.5 * angleX);
  }));
  const region: Box = { min: target.map((v) => v - half) as Vec3, max: target.map((v) => v + half) as Vec3 };
  const warnings: string[] = [];
  const coarse = visualHullBox(cams, masks, region, { resolution: HULL_COARSE, threshold: HULL_MASK_THRESHOLD });
  if (!coarse) throw new NerfImportError('the masks agree on no common volume: the visual hull is empty (are the alpha channels and cameras consistent?)');
  if (coarse.touches) warnings.push('the visual hull reaches the edge of the volume the cameras share; the object may extend beyond it');
  const pad = [0, 1, 2].map((a) => 2 * (region.max[a] - region.min[a]) / HULL_COARSE);
  const around: Box = {
    min: coarse.box.min.map((v, a) => v - pad[a]) as Vec3,
    max: coarse.box.max.map((v, a) => v + pad[a]) as Vec3,
  };
  const fine = visualHullBox(cams, masks, around, { resolution: HULL_FINE, threshold: HULL_MASK_THRESHOLD });
  // One fine voxel of slack: thin parts can fall between voxel centres at the mask threshold.
  const slack = [0, 1, 2].map((a) => (around.max[a] - around.min[a]) / HULL_FINE);
  const hull: Box = fine
    ? { min: fine.box.min.map((v, a) => v - slack[a]) as Vec3, max: fine.box.max.map((v, a) => v + slack[a]) as Vec3 }
    : coarse.box;
  return { normalisation: normalisationForBox(hull), hull, warnings };
}

function round(v: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export async function importNerf(dir: string, opts: NerfImportOptions): Promise<BuildResult & { warnings: string[] }> {
  const id = opts.id;
  if (!/^[A-Za-z0-9_.-]+$/.test(id) || id.includes('__')) throw new NerfImportError(`--id '${id}' must use letters, digits, _ . - (and no '__')`);
  if (PROCEDURAL_OBJECT_NAMES.includes(id)) throw new NerfImportError(`--id '${id}' is a built-in procedural object; choose another name`);
  const steps = opts.steps ?? DEFAULT_BUILD_STEPS;
  const seed = opts.seed ?? DEFAULT_BUILD_SEED;
  const log = opts.log ?? ((): void => undefined);
  const source = resolve(dir);
  const transformsPath = findTransforms(source);
  const transforms = readTransforms(transformsPath);
  if (transforms.frames.length < NERF_REFERENCE_FRAMES + 1) {
    throw new NerfImportError(`${transformsPath} lists ${transforms.frames.length} frames; at least ${NERF_REFERENCE_FRAMES + 1} are needed (${NERF_REFERENCE_FRAMES} reference + 1 held-out)`);
  }
  const t0 = Date.now();
  const frames = readFrames(source, transforms, PHOTO_SIZE);
  log(`${id}: read ${frames.length} frames from ${basename(transformsPath)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const placement = placeObject(frames, transforms.camera_angle_x, PHOTO_SIZE);
  for (const w of placement.warnings) log(`${id}: warning: ${w}`);
  const norm = placement.normalisation;
  const cameras = frames.map((f) => cameraFromBlender(f.c2w, transforms.camera_angle_x, PHOTO_SIZE, norm));
  const centres = cameras.map((c) => cameraCentre(c));
  const dirs = centres.map((c): Vec3 => {
    const n = Math.hypot(c[0], c[1], c[2]);
    return [c[0] / n, c[1] / n, c[2] / n];
  });
  const pick = selectFrames(dirs, NERF_REFERENCE_FRAMES, NERF_HELDOUT_FRAMES);
  const byAzimuth = (list: number[]): number[] => [...list].sort((a, b) => orbitAngles(centres[a]).azimuth - orbitAngles(centres[b]).azimuth || a - b);
  const entry = (prefix: string) => (frame: number, i: number): ViewEntry & { frame: number } => {
    const ang = orbitAngles(centres[frame]);
    return { name: `${prefix}${i}`, azimuth: round(ang.azimuth), elevation: round(ang.elevation), camera: cameras[frame], frame };
  };
  const ref = byAzimuth(pick.reference).map(entry('V'));
  const held = byAzimuth(pick.heldout).map(entry('H'));
  log(`${id}: object scaled by ${norm.scale.toFixed(4)} about [${norm.centre.map((v) => v.toFixed(3)).join(', ')}]; reference frames ${ref.map((e) => e.frame).join(', ')}; held-out ${held.map((e) => e.frame).join(', ')}`);

  const tasksDir = resolveTasksDir(opts.tasksDir);
  const grader = opts.grader ?? (await Grader.create({ device: opts.device ?? null, ...(opts.lpipsDir !== undefined ? { lpipsDir: opts.lpipsDir } : {}) }));
  try {
    const result = await buildStaged(tasksDir, id, async (staged) => {
      const strip = ({ frame: _frame, ...e }: ViewEntry & { frame: number }): ViewEntry => e;
      const camerasFile: CamerasFile = { reference: ref.map(strip), heldout: held.map(strip) };
      writeCameras(staged.objectDir, camerasFile);
      const views = (list: (ViewEntry & { frame: number })[]) => list.map((e) => ({ name: e.name, photo: frames[e.frame].photo, mask: frames[e.frame].mask }));
      writeViews(staged.objectDir, 'ref', views(ref));
      writeViews(staged.objectDir, 'heldout', views(held));
      const sourceInfo = {
        dataset: basename(source),
        transforms: basename(transformsPath),
        camera_angle_x: transforms.camera_angle_x,
        normalisation: { centre: norm.centre, scale: norm.scale, note: 'task world = scale * (capture world - centre)' },
        hull: placement.hull,
        frames: Object.fromEntries([...ref, ...held].map((e) => [e.name, transforms.frames[e.frame].file_path])),
        warnings: placement.warnings,
      };
      writeFileSync(join(staged.objectDir, 'source.json'), `${formatJson(sourceInfo, 2)}\n`);
      const res = await finishObject(staged, id, {
        steps, seed, k: opts.k ?? DEFAULT_PARTS, fit: opts.fit ?? (opts.device ? taskFit('gpu') : cpuFit), grader, log, provenance: { source: `nerf-synthetic:${basename(source)}` },
      });
      return { object: id, objectDir: join(tasksDir, 'objects', id), specs: res.specs, anchors: res.anchors, gaussians: res.fit.length, steps, seed, finalLoss: res.finalLoss };
    });
    return { ...result, warnings: placement.warnings };
  } finally {
    if (!opts.grader) grader.destroy();
  }
}
