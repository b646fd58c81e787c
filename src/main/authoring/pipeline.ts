// The stages every task build shares once an object's photos are staged: fit the reference
// views, scramble the fit for reassembly, compute the empty/fit anchors on the held-out views,
// write the three task specs and a small build record.
// Inputs: a staged object folder holding cameras.json, ref/ and heldout/ (photos + masks).
// Outputs: fit.json (written by the fit), init_reassembly.npz, parts_truth.json, anchors.json, build.json and the
// specs in the staging root. Invariant: the fit and anchors are computed from the photos as
// re-read from the staged PNGs and fit.json, i.e. exactly what loadTask and readFit give later.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scramble, scrambleSeed } from '../../shared/authoring/scramble/scramble';
import type { PartsTruth } from '../../shared/authoring/scramble/truth';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import { packSplats } from '../../shared/scene/gaussian';
import type { Anchors, TaskSpec } from '../../shared/task/schema';
import { objectSourceOf } from '../../shared/analysis/object-source';
import type { Grader } from '../grader/grader';
import type { FitSource } from './fit/run';
import { readCameras, readFit, type RefView } from '../tasks/load';
import { localViewFiles, type ViewFiles } from '../tasks/view-files';
import type { Staged } from './staging';
import { extendHistory } from './documents';
import { formatJson, fullBudgets, taskSpecs, writeAnchors, writeReassembly, writeSpecs, type Budgets } from './task-files';

export interface FitRequest {
  steps: number;
  seed: number;
  onProgress?: (step: number, steps: number, loss: number) => void;
}

/**
 * A gradient-descent fit of an object's reference views that writes `fit.json` into the
 * object's folder (source.dir) and returns the losses; the default is the fit helper's fitTask.
 */
export type FitFn = (source: FitSource, request: FitRequest) => Promise<{ records: GaussianRecord[]; losses: number[] }>;

export interface PipelineOptions {
  steps: number;
  seed: number;
  k: number;
  fit: FitFn;
  grader: Grader;
  log: (line: string) => void;
  /** Extra facts recorded in build.json (e.g. the photo source). */
  provenance?: Record<string, unknown>;
  /** Budgets of the three tasks (default: the benchmark's 300 Gaussians, 40 calls, 16 renders). */
  budgets?: Partial<Budgets>;
  /** Earlier builds of this object (build.json `history`), kept and extended by this one. */
  history?: readonly BuildHistoryEntry[];
  /** How the staged photos are read back (the lab: on its worker pool); default in this thread. */
  views?: ViewFiles;
}

/** One build or refit of an object: which fit (steps, seed, Gaussians, loss), which photos. */
export interface BuildHistoryEntry {
  action: string; // 'build' (photos made), 'refit' (photos kept), 'save' (Author view), 'import'
  photos: string; // where the photos came from: 'procedural', 'authored', 'ply', 'nerf', ...
  steps: number;
  seed: number;
  k: number;
  gaussians: number;
  final_loss: number | null;
}

export interface PipelineResult {
  fit: GaussianRecord[];
  truth: PartsTruth;
  anchors: Anchors;
  specs: TaskSpec[];
  finalLoss: number | null;
  reference: RefView[];
  heldout: RefView[];
}

/** Mean loss of the last 10% of the steps (at least one), or null without steps. */
function tailLoss(losses: readonly number[]): number | null {
  if (losses.length === 0) return null;
  const tail = losses.slice(-Math.max(1, Math.floor(losses.length / 10)));
  return tail.reduce((s, v) => s + v, 0) / tail.length;
}

export async function finishObject(staged: Staged, object: string, opts: PipelineOptions): Promise<PipelineResult> {
  const what = `build ${object}`;
  const cameras = readCameras(staged.objectDir, what);
  const views = opts.views ?? localViewFiles;
  const [reference, heldout] = await Promise.all([views.read(staged.objectDir, 'ref', cameras.reference, what), views.read(staged.objectDir, 'heldout', cameras.heldout, what)]);

  const t0 = Date.now();
  let lastReport = 0;
  const budgets = fullBudgets(opts.budgets);
  const spec = taskSpecs(object, budgets)[0];
  const fitted = await opts.fit({ spec, dir: staged.objectDir, reference }, {
    steps: opts.steps,
    seed: opts.seed,
    onProgress: (step, steps, loss) => {
      if (step === steps || Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        opts.log(`${object}: fit step ${step}/${steps}, loss ${loss.toFixed(4)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      }
    },
  });
  if (fitted.records.length === 0) throw new Error(`${what}: the fit has no Gaussians (nothing survived the visual hull)`);
  // Scramble and anchors use the fit exactly as loaders will read it back from fit.json.
  const fit = readFit(staged.objectDir, what);
  const finalLoss = tailLoss(fitted.losses);
  opts.log(`${object}: fit ${fit.length} Gaussians in ${opts.steps} steps${finalLoss === null ? '' : `, final loss ${finalLoss.toFixed(4)}`}`);

  const { records: scrambled, truth } = scramble(fit, { k: opts.k, seed: scrambleSeed(object, opts.seed) });
  writeReassembly(staged.objectDir, scrambled, truth);
  opts.log(`${object}: scrambled into ${truth.k} parts (${truth.parts.map((p) => `${p.label} ${p.count}`).join(', ')})`);

  const anchors = await opts.grader.computeAnchors(heldout, packSplats(fit));
  writeAnchors(staged.objectDir, anchors);
  const fmt = (m: Anchors['fit']): string => `PSNR ${m.psnr.toFixed(2)}, SSIM ${m.ssim.toFixed(3)}, LPIPS ${m.lpips === null ? 'n/a' : m.lpips.toFixed(3)}, IoU ${m.iou.toFixed(3)}`;
  opts.log(`${object}: anchors on ${heldout.length} held-out views: empty ${fmt(anchors.empty)}; fit ${fmt(anchors.fit)}`);

  const source = typeof opts.provenance?.source === 'string' ? opts.provenance.source : 'unknown';
  const specs = writeSpecs(staged.root, object, budgets, objectSourceOf(source));
  const loss = finalLoss === null ? null : Number(finalLoss.toPrecision(6));
  const action = typeof opts.provenance?.action === 'string' ? opts.provenance.action : 'build';
  const entry: BuildHistoryEntry = { action, photos: source, steps: opts.steps, seed: opts.seed, k: opts.k, gaussians: fit.length, final_loss: loss };
  const build = {
    object,
    steps: opts.steps,
    seed: opts.seed,
    k: opts.k,
    gaussians: fit.length,
    final_loss: loss,
    lpips_model: anchors.lpips_model,
    ...opts.provenance,
    budgets,
    history: extendHistory(opts.history ?? [], entry),
  };
  writeFileSync(join(staged.objectDir, 'build.json'), `${formatJson(build)}\n`);
  return { fit, truth, anchors, specs, finalLoss, reference, heldout };
}
