// The debugger's gradient view: the loss of the CPU reference render against a photo (the
// task's photo of the chosen view, or an uploaded PNG), its image gradient, and the per-Gaussian
// gradients of rasterizeBackward drawn by the pure gradientFigure.
// Inputs: DebugScene, the resolved camera, loss kind, target, parameter and drawing options.
// Output: DebugImage plus the loss value and the id of the Gaussian with the largest magnitude.
// Invariant: the losses are the fit's (metrics' l1WithGrad and ssimWithGrad, 0.8 / 0.2 weights
// for `mix`), so a magnitude here is the one an optimiser step would see from this view.
import { DEBUG_LOSS_LABELS, type DebugGradientsResult, type DebugLoss } from '../../shared/api/debug';
import { W_L1, W_SSIM } from '../../shared/authoring/fit/loss';
import { displayScale } from '../../shared/debug/figure';
import { gradientFigure } from '../../shared/debug/gradient-view';
import type { GradientParam } from '../../shared/debug/gradients';
import type { RgbImage } from '../../shared/image/image';
import { l1WithGrad } from '../../shared/metrics/psnr';
import { ssimWithGrad } from '../../shared/metrics/ssim';
import { rasterizeBackward } from '../../shared/raster/cpu';
import { decodePng, toRgb } from '../io/png';
import type { ResolvedCamera } from './cameras';
import { toDebugImage } from './images';
import type { DebugScene } from './session';
import { DebugSourceError } from './sources';

export type GradientTarget = { kind: 'photo' } | { kind: 'png'; base64: string };

export interface GradientRequest {
  loss: DebugLoss;
  target: GradientTarget;
  param: GradientParam;
  arrows: boolean;
  log: boolean;
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

function targetPhoto(target: GradientTarget, cam: ResolvedCamera): RgbImage {
  const { width, height } = cam.camera;
  if (target.kind === 'photo') {
    if (!cam.view) throw new DebugSourceError("the task photo needs a task scene and one of its named views (V0.., H0..); upload a PNG for other cameras");
    return cam.view.photo;
  }
  let photo: RgbImage;
  try {
    photo = toRgb(decodePng(new Uint8Array(Buffer.from(target.base64, 'base64'))));
  } catch (error) {
    throw new DebugSourceError(`target PNG: ${(error as Error).message}`);
  }
  if (photo.width !== width || photo.height !== height) throw new DebugSourceError(`target PNG is ${photo.width}x${photo.height} but the camera is ${width}x${height}`);
  return photo;
}

export function debugGradients(scene: DebugScene, cam: ResolvedCamera, req: GradientRequest): DebugGradientsResult {
  const photo = targetPhoto(req.target, cam);
  const { camera } = cam;
  const { state } = scene.at(camera);
  const render: RgbImage = { width: state.width, height: state.height, data: Float32Array.from(state.rgb) };
  const loss = lossWithGrad(req.loss, render, photo);
  const grads = rasterizeBackward(scene.splats, camera, { v_rgb: loss.grad }, state);
  const k = displayScale(camera.width, camera.height);
  const fig = gradientFigure(scene.splats, camera, state, grads, k, { param: req.param, arrows: req.arrows, log: req.log });
  const argmax = fig.stats.argmax;
  const against = req.target.kind === 'photo' ? `photo ${cam.name ?? ''}`.trim() : 'uploaded PNG';
  fig.title = `${DEBUG_LOSS_LABELS[req.loss]} = ${loss.value.toPrecision(4)} vs ${against}: ${fig.title}`;
  return {
    ...toDebugImage(fig, camera.width, camera.height, k),
    loss: loss.value,
    argmaxId: argmax >= 0 ? scene.records[argmax].id : null,
  };
}
