// The gradient-descent reference fit (docs/DESIGN.md section 5): visual-hull initialisation, then
// Adam on 0.8 L1 + 0.2 (1 - SSIM) + 0.2 silhouette over the reference views, one view per step
// in a seeded shuffled cycle, the scene projected back onto the player's limits after each step.
// Inputs: reference views (camera, photo, mask), the Gaussian cap, steps, seed; a FitBackend.
// Output: the fitted GaussianRecord[] and the loss of every step.
// Invariant: same input + same deterministic backend => bit-identical records and losses (all
// randomness comes from one seeded Random; loops run in a fixed order).
//
// The hull's Gaussians are isotropic, so their rotation is free: each starts from a uniformly
// random rotation instead of the identity. A fit started from one shared orientation keeps most
// Gaussians near it, and the reassembly scramble (which turns every Gaussian of a part by one
// angle) would then show that angle in the public quaternions (issue #14).
//
// Learning rates per group (per step, Adam): means 2e-3 decaying exponentially to 2e-5 by the
// last step (moves blobs early, settles them late; world units, the object spans ~2); log scales
// 1e-2 (1% size change per step); raw quaternions 2e-3; colours 1e-2 (initialised from the
// photos, so they only need refining); opacity logits 5e-2 (as in 3D Gaussian Splatting).
import type { Camera } from '../../raster/types';
import type { RgbImage } from '../../image/image';
import type { GaussianRecord } from '../../scene/gaussian';
import type { Quat } from '../../math/quaternion';
import { emptySplats } from '../../scene/splats';
import { Random } from '../../math/random';
import { Adam } from './adam';
import type { FitBackend } from './backend';
import { visualHullInit } from './hull';
import { LossTarget, type LossParts } from './loss';
import { PARAM_NAMES, accumulateGrads, paramsFromRecords, project, toRecords, toSplats, zeroGrads, type FitParams, type ParamName } from './params';

export interface FitView {
  camera: Camera;
  photo: RgbImage;
  mask: Float32Array; // [H, W] in [0, 1]
}

export type LearningRates = Record<ParamName, number>;

export const DEFAULT_LEARNING_RATES: Readonly<LearningRates> = {
  means: 2e-3,
  logScales: 1e-2,
  quats: 2e-3,
  colors: 1e-2,
  opacityLogits: 5e-2,
};
/** Final means learning rate as a fraction of the initial one (exponential decay). */
export const MEANS_LR_FINAL_FRACTION = 0.01;
export const DEFAULT_FIT_STEPS = 2000;

export interface FitInput {
  views: FitView[];
  maxGaussians: number;
  steps: number;
  seed: number;
  /** Start from these Gaussians instead of the visual hull (tests, resumed fits). */
  init?: readonly GaussianRecord[];
  learningRates?: Partial<LearningRates>;
}

export interface FitProgress {
  step: number; // steps done (1..steps)
  steps: number;
  loss: number; // this step's loss
  elapsedMs: number;
}

export interface FitResult {
  records: GaussianRecord[];
  losses: number[]; // [steps]
}

/** Loss and unconstrained-parameter gradients of one view (also used by the gradient tests). */
export async function evaluateView(
  backend: FitBackend,
  params: FitParams,
  camera: Camera,
  target: LossTarget,
  grads?: Record<ParamName, Float64Array>,
): Promise<LossParts> {
  const splats = toSplats(params, emptySplats(params.count, 'f64'));
  const render = await backend.forward(splats, camera);
  const parts = target.evaluate(render.rgb, render.alpha, grads !== undefined);
  if (grads && params.count > 0) {
    const g = await backend.backward({ v_rgb: target.grads.v_rgb, v_alpha: target.grads.v_alpha });
    accumulateGrads(splats, g, grads);
  }
  return parts;
}

function checkInput(input: FitInput): void {
  if (input.views.length === 0) throw new Error('fit: no reference views');
  if (!Number.isInteger(input.steps) || input.steps < 0) throw new Error(`fit: steps must be a non-negative integer (got ${input.steps})`);
  if (!Number.isInteger(input.maxGaussians) || input.maxGaussians < 1) throw new Error(`fit: maxGaussians must be a positive integer (got ${input.maxGaussians})`);
  for (const v of input.views) {
    const { width, height } = v.camera;
    if (v.photo.width !== width || v.photo.height !== height || v.mask.length !== width * height) {
      throw new Error(`fit: a view's photo/mask (${v.photo.width}x${v.photo.height}, ${v.mask.length} mask values) does not match its ${width}x${height} camera`);
    }
  }
}

/** Uniform random unit quaternion (Shoemake's method: three uniforms, uniform on SO(3)). */
export function randomRotation(rng: Random): Quat {
  const u1 = rng.next();
  const a = 2 * Math.PI * rng.next();
  const b = 2 * Math.PI * rng.next();
  const s1 = Math.sqrt(1 - u1);
  const s2 = Math.sqrt(u1);
  return [s2 * Math.cos(b), s1 * Math.sin(a), s1 * Math.cos(a), s2 * Math.sin(b)];
}

/**
 * The start Gaussians with random rotations. Only isotropic Gaussians (all three scales equal)
 * are turned, so the rendered start scene is exactly the one given.
 */
export function withRandomRotations(records: readonly GaussianRecord[], rng: Random): GaussianRecord[] {
  return records.map((r) => {
    const q = randomRotation(rng);
    return r.scale[0] === r.scale[1] && r.scale[1] === r.scale[2] ? { ...r, quat: q } : { ...r };
  });
}

/** Lets timers and abort signals run between steps (a CPU backend never yields on its own). */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export async function fitGaussians(
  input: FitInput,
  backend: FitBackend,
  onProgress?: (p: FitProgress) => void,
  signal?: AbortSignal,
): Promise<FitResult> {
  checkInput(input);
  signal?.throwIfAborted();
  const rng = new Random(input.seed);
  const init = input.init
    ? input.init.slice(0, input.maxGaussians)
    : withRandomRotations(visualHullInit(input.views, { maxGaussians: input.maxGaussians, seed: rng.int(0x7fffffff) }), new Random(rng.int(0x7fffffff)));
  const params = paramsFromRecords(init);
  const losses: number[] = [];
  if (params.count === 0) {
    // Nothing survived carving: the empty scene is the fit; still report its loss per step.
    const empty = toSplats(params);
    const targets = input.views.map((v) => new LossTarget(v.photo, v.mask));
    for (let s = 0; s < input.steps; s++) {
      const i = s % targets.length;
      const r = await backend.forward(empty, input.views[i].camera);
      losses.push(targets[i].evaluate(r.rgb, r.alpha, false).loss);
    }
    return { records: [], losses };
  }

  const lr: LearningRates = { ...DEFAULT_LEARNING_RATES, ...input.learningRates };
  const adam = new Adam(PARAM_NAMES.map((name) => ({ name, params: params[name], lr: lr[name] })));
  const stepper = backend.stepper;
  // The one-pass path's targets (a stepper keeps its own).
  const targets = stepper ? [] : input.views.map((v) => new LossTarget(v.photo, v.mask));
  const grads = zeroGrads(params.count);
  const splats = emptySplats(params.count, 'f64');
  const order: number[] = [];
  const start = Date.now();
  let lastYield = start;

  stepper?.prepare(input.views, params.count);
  try {
    for (let step = 0; step < input.steps; step++) {
      signal?.throwIfAborted();
      if (order.length === 0) order.push(...rng.shuffle(input.views.map((_, i) => i)));
      const vi = order.shift() as number;
      for (const name of PARAM_NAMES) grads[name].fill(0);
      let parts: LossParts;
      if (stepper) {
        toSplats(params, splats);
        const r = await stepper.evaluate(splats, input.views[vi].camera, vi, true);
        parts = r.parts;
        if (r.grads) accumulateGrads(splats, r.grads, grads);
      } else parts = await evaluateView(backend, params, input.views[vi].camera, targets[vi], grads);
      const t = input.steps > 1 ? step / (input.steps - 1) : 0;
      adam.setLr('means', lr.means * Math.pow(MEANS_LR_FINAL_FRACTION, t));
      adam.step(grads);
      project(params);
      losses.push(parts.loss);
      const now = Date.now();
      onProgress?.({ step: step + 1, steps: input.steps, loss: parts.loss, elapsedMs: now - start });
      if (now - lastYield > 50) {
        await yieldToEventLoop();
        lastYield = Date.now();
      }
    }
  } finally {
    stepper?.end();
  }
  return { records: toRecords(params), losses };
}
