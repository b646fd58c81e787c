// A relation study's trial blocks drawn from a generated dataset (docs/RELATION.md, "Trial
// blocks"): the scored block takes N samples of one split per (environment x task x class) cell
// (N = 4: 5 x 2 x 4 x 4 = 160 trials) plus attention checks, shown in a seeded per-participant
// order with a fixation cross, a deadline (optional), breaks every K trials and the optional
// confidence keys; the practice block (feedback after each answer) comes from another split.
// Inputs: a tasks folder, a dataset folder, BlockOptions. Output: the two task ids written and
// the counts. Invariant: a cell with fewer than N samples in the split is refused (nothing is
// written); the same options write the same files; the parameters files are copied, so the
// block does not depend on the dataset folder afterwards.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../../shared/math/random';
import { hashSeed, type Split } from '../../../shared/kinds/relation/dataset';
import { RELATION_CLASSES, RELATION_TASKS } from '../../../shared/kinds/relation/labels';
import { catchQuestion, DEFAULT_DISPLAY_PX, RELATION_TASK_PREFIX, RelationTaskSpecSchema, trialFor, MAX_BLOCK_TRIALS, type RelationTaskSpec } from '../../../shared/kinds/relation/task';
import { imagePath, readManifest, storedSamples, type StoredSample } from './files';
import { checkNoBuiltInFiles, checkNotBuiltIn } from '../../tasks/paths';

export interface BlockOptions {
  name: string;
  split?: Split;
  perCell?: number;
  seed?: number;
  practice?: number;
  practiceSplit?: Split;
  catchTrials?: number;
  fixationMs?: number;
  deadlineMs?: number | null;
  breakEvery?: number;
  confidence?: boolean;
  /** CSS pixels the image is shown at (its longer side); default 448, twice the lab's 224. */
  displayPx?: number;
}

export interface BlockResult {
  /** The images' own sizes (width x height) and how the display scales each, so no resampling goes unsaid. */
  scaling: string[];
  scored: string;
  practice: string | null;
  trials: number;
  catchTrials: number;
  practiceTrials: number;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,40}$/;

export function writeRelationBlock(tasksDir: string, datasetDir: string, o: BlockOptions): BlockResult {
  if (!NAME.test(o.name)) throw new Error(`block name '${o.name}' must be lower-case letters, digits, _ or - (at most 41)`);
  const split = o.split ?? 'test', perCell = o.perCell ?? 4, seed = o.seed ?? 1;
  const nPractice = o.practice ?? 8, practiceSplit = o.practiceSplit ?? 'train', nCatch = o.catchTrials ?? 4;
  if (practiceSplit === split && nPractice > 0) throw new Error(`practice trials come from another split than the scored ones (both ${split})`);
  const manifest = readManifest(datasetDir);
  const stored = storedSamples(datasetDir, manifest);
  const pick = (sp: Split, env: string, task: string, cls: string): StoredSample[] => {
    const c = stored.filter((s) => s.plan.split === sp && s.plan.environment === env && s.plan.task === task && s.params.relation.label === cls);
    return mulberry32(hashSeed(`${seed}/block/${sp}/${env}/${task}/${cls}`)).shuffle([...c]);
  };
  const scored: StoredSample[] = [];
  const short: string[] = [];
  for (const env of manifest.config.environments) {
    for (const task of RELATION_TASKS) {
      if (manifest.config.counts[task] === 0) continue;
      for (const cls of RELATION_CLASSES) {
        const got = pick(split, env, task, cls);
        if (got.length < perCell) short.push(`${env}/${task}/${cls}: ${got.length}`);
        scored.push(...got.slice(0, perCell));
      }
    }
  }
  if (short.length > 0) throw new Error(`${short.length} cells have fewer than ${perCell} samples in split ${split} (${short.slice(0, 4).join(', ')}${short.length > 4 ? ', ...' : ''}); generate more or lower --per-cell`);
  if (scored.length + nCatch > MAX_BLOCK_TRIALS) throw new Error(`${scored.length + nCatch} trials exceed a block's ${MAX_BLOCK_TRIALS}`);
  // Practice: both tasks and all four classes in turn, from the practice split (chosen before
  // anything is written, so a refusal leaves no half block).
  const pool = RELATION_TASKS.flatMap((task) => RELATION_CLASSES.map((cls) => manifest.config.environments.flatMap((env) => pick(practiceSplit, env, task, cls))));
  const chosen: StoredSample[] = [];
  for (let round = 0; chosen.length < nPractice && pool.some((p) => p.length > round); round++) {
    for (const p of pool) if (p[round] && chosen.length < nPractice) chosen.push(p[round]);
  }
  if (chosen.length < nPractice) throw new Error(`split ${practiceSplit} has only ${chosen.length} samples for ${nPractice} practice trials`);
  const folder = `relation/block__${o.name}`;
  checkNotBuiltIn(tasksDir, [`${RELATION_TASK_PREFIX}block__${o.name}`, `${RELATION_TASK_PREFIX}block__${o.name}__practice`]);
  checkNoBuiltInFiles(tasksDir, [folder]);
  mkdirSync(join(tasksDir, folder), { recursive: true });
  const trialOf = (s: StoredSample) => {
    const file = `${folder}/${s.plan.id}.json`;
    writeFileSync(join(tasksDir, file), `${JSON.stringify(s.params, null, 1)}\n`);
    // An imported image is the stimulus itself: it travels beside its parameters file.
    if (s.params.stimulus) copyFileSync(imagePath(datasetDir, s.plan), join(tasksDir, folder, s.params.stimulus.file));
    return trialFor(s.params, file);
  };
  const trials: RelationTaskSpec['trials'] = scored.map(trialOf);
  // Attention checks: an ordinary scene with an instruction in place of the question.
  for (let i = 0; i < nCatch; i++) {
    const base = trials[Math.floor(((i + 0.5) * trials.length) / nCatch)];
    const answer = RELATION_CLASSES[i % RELATION_CLASSES.length];
    trials.push({ ...base, question: catchQuestion(answer), catch: answer });
  }
  const block = {
    fixation_ms: o.fixationMs ?? 500, deadline_ms: o.deadlineMs ?? null, break_every: o.breakEvery ?? 40,
    confidence: o.confidence ?? true, order_seed: seed, display_px: o.displayPx ?? DEFAULT_DISPLAY_PX,
  };
  const id = `${RELATION_TASK_PREFIX}block__${o.name}`;
  const spec = RelationTaskSpecSchema.parse({
    task_id: id, kind: 'relation', practice: false, trials, samples: manifest.config.samples, block,
    source: { dataset: datasetDir, split, per_cell: perCell, seed },
  });
  writeFileSync(join(tasksDir, `${id}.json`), `${JSON.stringify(spec, null, 2)}\n`);
  let practiceId: string | null = null;
  if (nPractice > 0) {
    practiceId = `${id}__practice`;
    const pspec = RelationTaskSpecSchema.parse({
      task_id: practiceId, kind: 'relation', practice: true, trials: chosen.map(trialOf), samples: manifest.config.samples,
      block: { ...block, break_every: 0 }, source: { dataset: datasetDir, split: practiceSplit, per_cell: 0, seed },
    });
    writeFileSync(join(tasksDir, `${practiceId}.json`), `${JSON.stringify(pspec, null, 2)}\n`);
  }
  const sizes = new Set([...scored, ...chosen].map((s) => {
    const w = s.params.stimulus?.width ?? s.params.camera.intrinsics.width, h = s.params.stimulus?.height ?? s.params.camera.intrinsics.height;
    return `${w}x${h} shown at ${block.display_px} px (x${(block.display_px / Math.max(w, h)).toFixed(2)})`;
  }));
  return { scaling: [...sizes], scored: id, practice: practiceId, trials: scored.length, catchTrials: nCatch, practiceTrials: practiceId ? nPractice : 0 };
}
