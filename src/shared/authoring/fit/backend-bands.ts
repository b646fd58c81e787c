// The CPU fit backend whose steps run in row bands (bands.ts) on this thread and, when given
// helpers, on a helper thread at once (issue 40 item 1: both cores for one fit). The leader (this
// thread) projects the scene, sorts it and evaluates its colours (cheap: O(Gaussians)), chooses the
// row cuts, posts the step into the shared frame, runs band 0, claims the bands left, waits for the
// bands a helper claimed, then adds the bands' loss sums, takes each Gaussian's sums from the band
// its box ends in (they carry the bands above) and runs the projection's and colours' backward.
// Input: BandHelpers (how to start a thread running serveBands; absent: every band here).
// Output: a FitBackend with a stepper (fitGaussians' per-step path); forward/backward are the
// one-pass CPU backend's (snapshots, the empty scene, the reference PSNR).
// Invariant: the same fit with or without helpers, and whichever thread runs which band, gives
// bit-identical losses and records (bands.ts); a helper that fails or never starts costs only
// speed: the leader runs every band it did not finish.
import type { Camera, SplatGrads } from '../../raster/types';
import { depthOrder } from '../../raster/cpu/rasterize-forward';
import { projectForward } from '../../raster/cpu/project-forward';
import { splatGradsFromPixels } from '../../raster/cpu/rasterize-backward';
import { viewColors } from '../../raster/cpu/sh';
import type { Splats } from '../../scene/splats';
import { cpuFitBackend, type FitBackend, type FitStepper } from './backend';
import { BandKernel, CTRL, FIT_BANDS, allocBandFrame, balanceCuts, combineBands, type BandFrame, type BandView } from './bands';
import { LOSS_SUMS, type LossParts } from './loss';

/** Starts helper threads for a fit's frame. */
export interface BandHelpers {
  /** Starts a thread running serveBands(views, frame); settles when that thread's loop ends (rejects when it fails). */
  start(views: readonly BandView[], frame: BandFrame): Promise<unknown>;
  /** Releases the threads (after every frame was told to quit). */
  close?(): void;
}

/**
 * Waits (blocking this thread, at most `ms`) while ctrl[index] is `value`; after a timeout lets
 * the event loop run once, so a helper's end is noticed. A blocking wait: Atomics.waitAsync's
 * wake-ups come through the event loop, tens of milliseconds late on a busy machine.
 */
async function waitChange(ctrl: Int32Array, index: number, value: number, ms: number): Promise<void> {
  if (Atomics.wait(ctrl, index, value, ms) === 'timed-out') await new Promise((resolve) => setTimeout(resolve, 0));
}

interface Fit {
  frame: BandFrame;
  kernel: BandKernel;
  n: number;
  helperEnded: boolean;
}

/** Copies `src` into the frame's array (the leader's per-step inputs). */
function put(dst: Float64Array | Int32Array, src: ArrayLike<number>): void {
  for (let i = 0; i < src.length; i++) dst[i] = src[i];
}

/** A banded backend with a count of the bands run (all threads) and of those run on this thread. */
export type BandFitBackend = FitBackend & { readonly stepper: FitStepper; readonly stats: { bands: number; here: number } };

export interface BandOptions {
  /** False: this thread runs no band while a helper lives (tests: proves the helper's bands). Default true. */
  leaderBands?: boolean;
}

export function bandFitBackend(helpers?: BandHelpers, opts: BandOptions = {}): BandFitBackend {
  const leaderBands = opts.leaderBands ?? true;
  const plain = cpuFitBackend();
  let fit: Fit | null = null;
  const stats = { bands: 0, here: 0 };
  let rowCost = new Float64Array(0);

  const quit = (): void => {
    if (!fit) return;
    Atomics.store(fit.frame.ctrl, CTRL.quit, 1);
    Atomics.add(fit.frame.ctrl, CTRL.gen, 1);
    Atomics.notify(fit.frame.ctrl, CTRL.gen);
    fit = null;
  };

  /** A fit's frame, its helper started. */
  const open = (views: readonly BandView[], n: number): Fit => {
    quit();
    const frame = allocBandFrame(n);
    const current: Fit = { frame, kernel: new BandKernel(views, frame), n, helperEnded: helpers === undefined };
    fit = current;
    if (helpers) {
      helpers.start(views, frame).then(
        () => void (current.helperEnded = true),
        () => void (current.helperEnded = true),
      );
    }
    return current;
  };

  const stepper: FitStepper = {
    prepare(views, count) {
      open(views, count);
    },

    end: quit,

    async evaluate(splats: Splats, camera: Camera, view: number, withGrad: boolean): Promise<{ parts: LossParts; grads: SplatGrads | null }> {
      const f = fit;
      if (!f) throw new Error('band fit backend: evaluate() before prepare()');
      if (splats.count !== f.n) throw new Error(`band fit backend: ${splats.count} Gaussians in a fit prepared for ${f.n}`);
      const { frame, kernel } = f;
      const ctrl = frame.ctrl;
      const projection = projectForward(splats, camera, {});
      const order = depthOrder(projection.depths, (i) => projection.radii[i * 2] > 0, splats.count);
      const colors = viewColors(splats, camera, {});
      const opacities = projection.opacities ?? splats.opacities;
      put(frame.order, order);
      put(frame.radii, projection.radii);
      put(frame.means2d, projection.means2d);
      put(frame.conics, projection.conics);
      put(frame.colors, colors);
      put(frame.opacities, opacities);
      ctrl[CTRL.view] = view;
      ctrl[CTRL.ordered] = order.length;
      ctrl[CTRL.withGrad] = withGrad ? 1 : 0;
      ctrl[CTRL.count] = splats.count;
      if (rowCost.length < camera.height) rowCost = new Float64Array(camera.height);
      balanceCuts(frame, camera.width, camera.height, rowCost);
      // Order matters: a helper may claim as soon as `claim` is reset (the inputs are in place).
      Atomics.store(ctrl, CTRL.done, 0);
      for (let b = 0; b < FIT_BANDS; b++) {
        Atomics.store(ctrl, CTRL.bandDone + b, 0);
        Atomics.store(ctrl, CTRL.progress + b, order.length);
      }
      // Band 0 is this thread's own: a helper's band may wait for the band above (BandChain), and
      // this thread never waits for a helper's.
      const here = leaderBands || f.helperEnded;
      Atomics.store(ctrl, CTRL.claim, here ? 1 : 0);
      Atomics.add(ctrl, CTRL.gen, 1);
      Atomics.notify(ctrl, CTRL.gen);
      stats.bands += FIT_BANDS;
      if (here) {
        kernel.runBand(0);
        stats.here += 1 + kernel.claimAll();
      }
      for (let d = Atomics.load(ctrl, CTRL.done); d < FIT_BANDS; d = Atomics.load(ctrl, CTRL.done)) {
        if (f.helperEnded) {
          // The helper's thread is gone: run what it left unfinished here, top band first.
          for (let b = 0; b < FIT_BANDS; b++) {
            if (Atomics.load(ctrl, CTRL.bandDone + b) === 1) continue;
            kernel.runBand(b);
            stats.here++;
          }
          break;
        }
        await waitChange(ctrl, CTRL.done, d, 100);
      }
      const sums = Array.from({ length: FIT_BANDS }, (_, b) => frame.sums.subarray(b * LOSS_SUMS, (b + 1) * LOSS_SUMS));
      const parts = kernel.parts(view, sums);
      if (!withGrad || f.n === 0) return { parts, grads: null };
      return { parts, grads: splatGradsFromPixels(splats, camera, { projection, opacities }, combineBands(frame, f.n, camera.width, camera.height)) };
    },
  };

  return {
    name: plain.name,
    deterministic: true,
    forward: (splats, camera) => plain.forward(splats, camera),
    backward: (grads) => plain.backward(grads),
    stepper,
    stats,
    dispose() {
      quit();
      helpers?.close?.();
    },
  };
}
