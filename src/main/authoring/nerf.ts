// `splatlab import nerf DIR --id NAME`: turns a NeRF-Synthetic capture into the three tasks of
// an object. Stages: read frames (RGBA on white, 256x256, alpha = mask); place the object in the
// bounds cube from a two-pass visual hull of the masks (centre at the origin, longest half side
// 0.9, Blender's Z up kept); choose 8 reference frames by farthest-point sampling on viewing
// directions and up to 8 held-out frames among the rest; write cameras.json, ref/, heldout/,
// source.json; then fit, scramble and anchors as for procedural objects (pipeline.ts).
// Invariant: validation happens before anything is written, and the tasks folder changes only
// when the whole build succeeded (staging folder, then renames).
import { basename, resolve } from 'node:path';
import { cameraFromBlender, orbitAngles, selectFrames, type NerfTransforms } from '../../shared/authoring/import/nerf';
import { PROCEDURAL_OBJECT_NAMES } from '../../shared/authoring/objects/index';
import { cameraCentre } from '../../shared/camera/orbit';
import type { Vec3 } from '../../shared/math/vec3';
import type { Camera } from '../../shared/raster/types';
import type { ViewEntry } from '../../shared/task/schema';
import { DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS, PHOTO_SIZE, type BuildOptions, type BuildResult } from './build';
import { buildImported } from './imported';
import { findTransforms, NerfImportError, readTransforms } from './nerf-frames';
import { readCapture, type NerfCapture } from './nerf-capture';

export { NerfImportError } from './nerf-frames';
export { placeObject, type Placement } from './nerf-capture';

export const NERF_REFERENCE_FRAMES = 8;
export const NERF_HELDOUT_FRAMES = 8;

export interface NerfImportOptions extends Omit<BuildOptions, 'k'> {
  id: string;
  k?: number;
  /** Decodes and places the capture (the lab: a worker job, off the event loop); default in-process. */
  read?: (dir: string, transforms: NerfTransforms, size: number) => Promise<NerfCapture>;
}

/** A chosen frame: its view entry and which frame of the capture it is. */
export type PickedView = ViewEntry & { frame: number };

/**
 * The reference and held-out views of a capture from its camera centres (object at the origin):
 * farthest-point sampling on viewing directions, each list sorted by azimuth, named V0.. and H0...
 */
export function pickViews(centres: readonly Vec3[], cameraOf: (frame: number) => Camera): { reference: PickedView[]; heldout: PickedView[] } {
  const dirs = centres.map((c): Vec3 => {
    const n = Math.hypot(c[0], c[1], c[2]);
    return [c[0] / n, c[1] / n, c[2] / n];
  });
  const pick = selectFrames(dirs, NERF_REFERENCE_FRAMES, NERF_HELDOUT_FRAMES);
  const byAzimuth = (list: number[]): number[] => [...list].sort((a, b) => orbitAngles(centres[a]).azimuth - orbitAngles(centres[b]).azimuth || a - b);
  const entry = (prefix: string) => (frame: number, i: number): PickedView => {
    const ang = orbitAngles(centres[frame]);
    return { name: `${prefix}${i}`, azimuth: round(ang.azimuth), elevation: round(ang.elevation), camera: cameraOf(frame), frame };
  };
  return { reference: byAzimuth(pick.reference).map(entry('V')), heldout: byAzimuth(pick.heldout).map(entry('H')) };
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
  const { frames, placement } = opts.read ? await opts.read(source, transforms, PHOTO_SIZE) : readCapture(source, transforms, PHOTO_SIZE);
  log(`${id}: read ${frames.length} frames from ${basename(transformsPath)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  for (const w of placement.warnings) log(`${id}: warning: ${w}`);
  const norm = placement.normalisation;
  const cameras = frames.map((f) => cameraFromBlender(f.c2w, transforms.camera_angle_x, PHOTO_SIZE, norm));
  const { reference: ref, heldout: held } = pickViews(cameras.map((c) => cameraCentre(c)), (frame) => cameras[frame]);
  log(`${id}: object scaled by ${norm.scale.toFixed(4)} about [${norm.centre.map((v) => v.toFixed(3)).join(', ')}]; reference frames ${ref.map((e) => e.frame).join(', ')}; held-out ${held.map((e) => e.frame).join(', ')}`);

  const result = await buildImported(id, {
    reference: ref,
    heldout: held,
    viewImages: (v) => frames[v.frame],
    sourceInfo: {
      dataset: basename(source),
      transforms: basename(transformsPath),
      camera_angle_x: transforms.camera_angle_x,
      normalisation: { centre: norm.centre, scale: norm.scale, note: 'task world = scale * (capture world - centre)' },
      hull: placement.hull,
      frames: Object.fromEntries([...ref, ...held].map((e) => [e.name, transforms.frames[e.frame].file_path])),
      warnings: placement.warnings,
    },
    provenance: `nerf-synthetic:${basename(source)}`,
  }, { ...opts, steps, seed });
  return { ...result, warnings: placement.warnings };
}
