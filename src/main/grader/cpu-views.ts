// The CPU grader's per-view work, shared by the main thread (no worker pool: the CLI, tests) and
// the worker-pool jobs 'grade.render', 'grade.views' and 'grade.measure': renders on the tile
// rasterizer (shared/raster/cpu/tiles.ts, equal to the reference rasterizeForward to float32
// rounding, about 6e-8; tested against it in test/main/grader/cpu.test.ts) and the PSNR, SSIM
// and silhouette IoU of each against its photo. LPIPS is not here (it has its own
// wasm worker threads, src/main/lpips/pool.ts).
// Input: Splats, cameras or views (a view's photo and mask sent once per worker as resident data,
// keyed by the main thread). Output: RenderOutput and ViewScores in view order.
// Invariant: photo masks and SSIM targets are computed once per view object (WeakMap) on
// whichever thread grades, so repeated grades only pay for the renders and their side of each metric.
import { rasterizeTiles } from '../../shared/raster/cpu/tiles';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import type { RgbImage } from '../../shared/image/image';
import { iou, maskFromCoverage } from '../../shared/metrics/mask';
import { mse, psnrFromMse } from '../../shared/metrics/psnr';
import { SsimTarget } from '../../shared/metrics/ssim-target';
import type { JobContext } from '../workers/protocol';
import { PSNR_CAP, type ViewScores } from './types';

/** What grading a view needs of it (a RefView is one; workers hold copies). */
export interface GradeView {
  name: string;
  camera: Camera;
  photo: RgbImage;
  mask: Float32Array;
}

interface PhotoSide {
  mask: Uint8Array; // [H, W] photo mask > 0.5
  ssim: SsimTarget;
}

const photoSides = new WeakMap<GradeView, PhotoSide>();

function photoSide(view: GradeView): PhotoSide {
  let side = photoSides.get(view);
  if (!side) {
    side = { mask: maskFromCoverage(view.mask, 0.5), ssim: new SsimTarget(view.photo) };
    photoSides.set(view, side);
  }
  return side;
}

/** Drops the cached photo side of these views (their task was unloaded). */
export function forgetViews(views: readonly GradeView[]): void {
  for (const v of views) photoSides.delete(v);
}

/** The grader's render of one camera (the tile path: about 6x faster than the reference at 300 Gaussians). */
export function renderView(splats: Splats, camera: Camera): RenderOutput {
  return rasterizeTiles(splats, camera);
}

export function renderImage(r: RenderOutput): RgbImage {
  return { width: r.width, height: r.height, data: r.rgb };
}

export function cappedPsnr(m: number): number {
  return Math.min(PSNR_CAP, psnrFromMse(m));
}

/** PSNR, SSIM and IoU of one render against its view's photo. */
export function scoreView(r: RenderOutput, view: GradeView): ViewScores {
  const img = renderImage(r);
  const side = photoSide(view);
  return {
    name: view.name,
    psnr: cappedPsnr(mse(img, view.photo)),
    ssim: side.ssim.evaluate(img.data),
    iou: iou(maskFromCoverage(r.alpha, 0.5), side.mask),
  };
}

// Worker-pool jobs. A view travels as a resident key; the worker keeps its copy (and the photo
// side computed from it) until the main thread forgets the key.

function transferRenders(renders: RenderOutput[], ctx: JobContext): void {
  for (const r of renders) ctx.transfer(r.rgb.buffer, r.alpha.buffer);
}

/** Job 'grade.render': renders of `cameras`. */
export function renderJob(input: { splats: Splats; cameras: Camera[] }, ctx: JobContext): RenderOutput[] {
  const renders = input.cameras.map((c) => renderView(input.splats, c));
  transferRenders(renders, ctx);
  return renders;
}

/** Job 'grade.views': renders and scores of the resident views `keys`, in order. */
export function viewsJob(input: { splats: Splats; keys: string[] }, ctx: JobContext): { renders: RenderOutput[]; scores: ViewScores[] } {
  const renders: RenderOutput[] = [];
  const scores: ViewScores[] = [];
  input.keys.forEach((key, i) => {
    const view = ctx.resident<GradeView>(key);
    const r = renderView(input.splats, view.camera);
    scores.push(scoreView(r, view));
    renders.push(r);
    ctx.progress(i + 1, input.keys.length);
  });
  transferRenders(renders, ctx);
  return { renders, scores };
}

/** Job 'grade.measure': scores of given renders against the resident views `keys`. */
export function measureJob(input: { renders: RenderOutput[]; keys: string[] }, ctx: JobContext): ViewScores[] {
  return input.renders.map((r, i) => scoreView(r, ctx.resident<GradeView>(input.keys[i])));
}
