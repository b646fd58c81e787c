// The debugger's gradient view: the loss of the CPU reference render against a photo (the
// task's photo of the chosen view, or an uploaded PNG), its image gradient, and the per-Gaussian
// gradients of rasterizeBackward drawn by the pure gradientFigure (in a worker job, draw.ts, which
// also decodes an uploaded PNG: issue 38 item 1).
// Inputs: DebugScene, the resolved camera, loss kind, target, parameter and drawing options.
// Output: DebugImage plus the loss value and the id of the Gaussian with the largest magnitude.
// Invariant: the losses are the fit's (metrics' l1WithGrad and ssimWithGrad, 0.8 / 0.2 weights
// for `mix`), so a magnitude here is the one an optimiser step would see from this view.
import type { DebugGradientsResult, DebugLoss } from '../../shared/api/debug';
import { W_L1, W_SSIM } from '../../shared/authoring/fit/loss';
import { displayScale } from '../../shared/debug/figure';
import type { GradientParam } from '../../shared/debug/gradients';
import type { RgbImage } from '../../shared/image/image';
import { l1WithGrad } from '../../shared/metrics/psnr';
import { ssimWithGrad } from '../../shared/metrics/ssim';
import { decodePng, toRgb } from '../io/png';
import type { ResolvedCamera } from './cameras';
import type { JobInput } from '../workers/job-table';
import type { DebugScene } from './session';
import { DebugSourceError } from './sources';
import type { DebugJobs } from './views';

export type GradientTarget = { kind: 'photo' } | { kind: 'png'; base64: string };

export interface GradientRequest {
  loss: DebugLoss;
  target: GradientTarget;
  param: GradientParam;
  arrows: boolean;
  log: boolean;
  /** Asked SH degree (undefined: all the scene has). */
  shDegree?: number;
}

/** Loss value and its gradient with respect to the render [H, W, 3]. */
export function lossWithGrad(loss: DebugLoss, render: RgbImage, photo: RgbImage): { value: number; grad: Float32Array } {
  if (loss === 'l1') return l1WithGrad(render, photo);
  const s = ssimWithGrad(render, photo);
  if (loss === 'dssim') return { value: 1 - s.value, grad: s.grad.map((g) => -g) };
  const l1 = l1WithGrad(render, photo);
  const grad = new Float32Array(l1.grad.length);
  for (let i = 0; i < grad.length; i++) grad[i] = W_L1 * l1.grad[i] - W_SSIM * s.grad[i];
  return { value: W_L1 * l1.value + W_SSIM * (1 - s.value), grad };
}

/**
 * An uploaded target PNG as a photo of the camera's size. Runs in the 'debug.gradients' job
 * (draw.ts), so a client's upload is decoded off the event loop (issue 38 item 1).
 */
export function uploadedTarget(png: Uint8Array, width: number, height: number): RgbImage {
  let photo: RgbImage;
  try {
    photo = toRgb(decodePng(png));
  } catch (error) {
    throw new DebugSourceError(`target PNG: ${(error as Error).message}`);
  }
  if (photo.width !== width || photo.height !== height) throw new DebugSourceError(`target PNG is ${photo.width}x${photo.height} but the camera is ${width}x${height}`);
  return photo;
}

/** The task's photo, or the uploaded PNG's bytes for the job to decode. */
function targetPhoto(target: GradientTarget, cam: ResolvedCamera): { photo: RgbImage } | { png: Uint8Array } {
  if (target.kind === 'photo') {
    if (!cam.view) throw new DebugSourceError("the task photo needs a task scene and one of its named views (V0.., H0..); upload a PNG for other cameras");
    return { photo: cam.view.photo };
  }
  return { png: new Uint8Array(Buffer.from(target.base64, 'base64')) };
}

/** The gradient view, drawn by a worker job (draw.ts); the forward state is shared with the views. */
export async function debugGradients(scene: DebugScene, cam: ResolvedCamera, req: GradientRequest, jobs: DebugJobs): Promise<DebugGradientsResult> {
  const target = targetPhoto(req.target, cam);
  const { camera } = cam;
  const shDegree = scene.degreeFor(req.shDegree);
  const cache = scene.at(camera, shDegree);
  const k = displayScale(camera.width, camera.height);
  const against = req.target.kind === 'photo' ? `photo ${cam.name ?? ''}`.trim() : 'uploaded PNG';
  const input: JobInput<'debug.gradients'> = { splats: scene.splats, camera, ...target, k, shDegree, loss: req.loss, param: req.param, arrows: req.arrows, log: req.log, against };
  if (cache.state) input.state = cache.state;
  const done = await jobs('debug.gradients', input);
  if (done.state) cache.state ??= done.state;
  return { ...done.image, loss: done.loss, argmaxId: done.argmax >= 0 ? scene.records[done.argmax].id : null };
}
