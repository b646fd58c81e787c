// `--capture NAME=DIR` of `splatlab tasks build`: a photographed capture (COLMAP, LLFF or
// MVSNet folder with masks) to the three tasks of an object (docs/TASKS.md "Photographed objects").
// Stages: read the layout and cameras (capture-read.ts); level the world so the cameras' mean up
// is +Z; decode every mask, undistort it at full size and shrink it for a two-pass visual hull
// (place.ts); scale the hull's box into the bounds cube; choose 8 reference and 8 held-out views
// by viewing direction; decode those photos, undistort them, crop a square around the object's
// projected box and resize it to 256x256 on white; then fit, scramble and anchors (imported.ts).
// Invariant: everything is read and checked before the staging folder exists; the tasks folder
// changes only when the whole build succeeded.
import { basename, resolve } from 'node:path';
import { captureUp, CaptureError, levelling, moveCamera, pinholeCamera } from '../../shared/authoring/import/capture';
import { cropSquare, croppedCamera, cropView } from '../../shared/authoring/import/crop';
import { normalisationForBox, OBJECT_HALF_EXTENT, type Box } from '../../shared/authoring/import/nerf';
import { placeInHull } from '../../shared/authoring/import/place';
import { resizeArea } from '../../shared/authoring/import/resize';
import { PROCEDURAL_OBJECT_NAMES } from '../../shared/authoring/objects/index';
import { cameraCentre } from '../../shared/camera/orbit';
import type { RgbImage } from '../../shared/image/image';
import type { Mat3, Vec3 } from '../../shared/math/vec3';
import type { Camera } from '../../shared/raster/types';
import { PHOTO_SIZE, type BuildResult } from './build';
import { loadView, readCapture, type Capture } from './capture-read';
import { buildImported, type ImportBuildOptions } from './imported';
import { NERF_REFERENCE_FRAMES, pickViews } from './nerf';

export { CaptureError } from './capture-read';

/** Longer side of the masks the visual hull carves with (full-size masks would only cost time). */
const HULL_MASK_SIDE = 192;
/** Real masks are drawn or segmented, not exact coverage: their edge is where they cross one half. */
const HULL_MASK_THRESHOLD = 0.5;

export interface CaptureImportOptions extends ImportBuildOptions {
  id: string;
  /** Stops between stages (the staging folder is removed, nothing is installed). */
  signal?: AbortSignal;
}

export interface CapturePlacement {
  level: Mat3; // 3x3 row-major rotation, capture world -> levelled
  centre: Vec3; // in the levelled world
  scale: number;
  hull: Box; // levelled world
  warnings: string[];
}

/** Levels the capture, carves the hull from its masks and returns the task-world normalisation. */
export function placeCapture(capture: Capture, signal?: AbortSignal): CapturePlacement {
  const level = levelling(captureUp(capture.views.map((v) => v.camera)));
  const cams: Camera[] = [];
  const masks: Float32Array[] = [];
  for (const v of capture.views) {
    signal?.throwIfAborted();
    const { mask } = loadView(v, 'mask');
    const cam = pinholeCamera(v.camera);
    const k = Math.min(1, HULL_MASK_SIDE / Math.max(cam.width, cam.height));
    const w = Math.max(1, Math.round(cam.width * k));
    const h = Math.max(1, Math.round(cam.height * k));
    masks.push(resizeArea(mask, cam.width, cam.height, 1, w, h));
    const kx = w / cam.width;
    const ky = h / cam.height;
    cams.push({ width: w, height: h, fx: cam.fx * kx, fy: cam.fy * ky, cx: cam.cx * kx, cy: cam.cy * ky, world_to_camera: moveCamera(cam.world_to_camera, level, [0, 0, 0], 1) });
  }
  const placed = placeInHull(cams, masks, { fine: 96, threshold: HULL_MASK_THRESHOLD });
  if (!placed) throw new CaptureError(`${capture.dir}: the masks agree on no common volume (are the masks and cameras of the same photos?)`);
  const norm = normalisationForBox(placed.hull);
  return { level, centre: norm.centre, scale: norm.scale, hull: placed.hull, warnings: placed.warnings };
}

export async function importCapture(dir: string, opts: CaptureImportOptions): Promise<BuildResult & { warnings: string[]; layout: string }> {
  const id = opts.id;
  if (!/^[A-Za-z0-9_.-]+$/.test(id) || id.includes('__')) throw new CaptureError(`the name '${id}' must use letters, digits, _ . - (and no '__')`);
  if (PROCEDURAL_OBJECT_NAMES.includes(id)) throw new CaptureError(`the name '${id}' is a built-in procedural object; choose another`);
  const log = opts.log ?? ((): void => undefined);
  const source = resolve(dir);
  const capture = readCapture(source);
  const n = capture.views.length;
  if (n < NERF_REFERENCE_FRAMES + 1) throw new CaptureError(`${source} has ${n} registered photos; at least ${NERF_REFERENCE_FRAMES + 1} are needed (${NERF_REFERENCE_FRAMES} reference + 1 held-out)`);
  const t0 = Date.now();
  const place = placeCapture(capture, opts.signal);
  for (const w of place.warnings) log(`${id}: warning: ${w}`);
  log(`${id}: ${capture.layout} capture, ${n} photos; visual hull from the masks (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const full = capture.views.map((v): Camera => ({ ...pinholeCamera(v.camera), world_to_camera: moveCamera(v.camera.world_to_camera, place.level, place.centre, place.scale) }));
  const half = place.hull.max.map((v, a) => 0.5 * place.scale * (v - place.hull.min[a]));
  const box: Box = { min: half.map((h) => -h) as Vec3, max: half as Vec3 };
  const squares = full.map((c) => cropSquare(c, box));
  const chosen = pickViews(full.map((c) => cameraCentre(c)), (frame) => {
    const sq = squares[frame];
    if (!sq) throw new CaptureError(`${capture.views[frame].camera.name}: the object is behind this camera`);
    return croppedCamera(full[frame], sq, PHOTO_SIZE);
  });
  const images = new Map<number, { photo: RgbImage; mask: Float32Array }>();
  for (const v of [...chosen.reference, ...chosen.heldout]) {
    opts.signal?.throwIfAborted();
    const view = capture.views[v.frame];
    const { photo, mask } = loadView(view, 'photo+mask');
    images.set(v.frame, cropView((photo as RgbImage).data, mask, view.camera.width, view.camera.height, squares[v.frame] as NonNullable<(typeof squares)[number]>, PHOTO_SIZE));
  }
  opts.signal?.throwIfAborted();
  log(`${id}: object scaled by ${place.scale.toPrecision(5)} into the bounds cube (half side ${OBJECT_HALF_EXTENT}); reference photos ${chosen.reference.map((e) => capture.views[e.frame].camera.name).join(', ')}`);
  const result = await buildImported(id, {
    ...chosen,
    viewImages: (v) => images.get(v.frame) as { photo: RgbImage; mask: Float32Array },
    sourceInfo: {
      dataset: basename(source),
      layout: capture.layout,
      levelling: { rotation: place.level, note: 'levelled = rotation * capture world (the cameras\' mean up becomes +Z)' },
      normalisation: { centre: place.centre, scale: place.scale, note: 'task world = scale * (levelled - centre)' },
      hull: place.hull,
      frames: Object.fromEntries([...chosen.reference, ...chosen.heldout].map((e) => [e.name, capture.views[e.frame].camera.name])),
      warnings: place.warnings,
    },
    provenance: `capture:${capture.layout}:${basename(source)}`,
  }, opts);
  return { ...result, warnings: place.warnings, layout: capture.layout };
}
