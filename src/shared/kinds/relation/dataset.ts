// The plan of a relation dataset: which samples exist (environment x triple x task x index),
// each one's seed and wanted class, and the seeded class-stratified train/val/test split.
// Input: a DatasetConfig (zod). Output: PlannedSample records in a fixed order.
// Invariant: the plan is a pure function of the config, so generation can stop and resume and
// splits never depend on which images already exist; within every (environment, triple, task,
// class) stratum the split sizes are round(n * fraction) with the remainder in test.
import { z } from 'zod';
import { mulberry32 } from '../../math/random';
import { ENVIRONMENT_IDS, ENVIRONMENTS, type EnvironmentId } from './environments';
import { RELATION_CLASSES, RELATION_TASKS, type RelationClass, type RelationTask } from './labels';
import { RELATION_ROLE_SETS } from './params';
import { fnv1a } from '../../math/hash';

export const SPLITS = ['train', 'val', 'test'] as const;
export type Split = (typeof SPLITS)[number];

const count = z.number().int().min(0).max(1_000_000);

export const DatasetConfigSchema = z.strictObject({
  seed: z.number().int().default(1),
  environments: z.array(z.enum(ENVIRONMENT_IDS)).min(1).default([...ENVIRONMENT_IDS]),
  /** Images per environment and task, dealt evenly over its three triples (SpaRRTa: 5,000 / 10,000). */
  counts: z.strictObject({ ego: count, allo: count }).default({ ego: 5000, allo: 10000 }),
  /** Train, val, test fractions; they must add up to 1. */
  splits: z.tuple([z.number().min(0), z.number().min(0), z.number().min(0)]).default([0.8, 0.1, 0.1])
    .refine((s) => Math.abs(s[0] + s[1] + s[2] - 1) < 1e-9, 'splits must add up to 1'),
  /** Supersamples per pixel axis of the ray caster. */
  samples: z.number().int().min(1).max(8).default(2),
  /** The exact ray caster, or the actors as 3D Gaussians over the ray-cast environment. */
  renderer: z.enum(['raycast', 'splats']).default('raycast'),
  /**
   * Whose role is whose: SpaRRTa's (the symmetric object is the reference, the oriented one the
   * target), or swapped, for a study of the intrinsic-frame confound (an oriented reference
   * invites reading "in front of the truck" as "at its bonnet").
   */
  roles: z.enum(RELATION_ROLE_SETS).default('sparrta'),
  /**
   * Keep a plan whose val or test split is empty in some (environment, triple, task, class)
   * stratum; refused otherwise. Recorded here, reported by `relation check`.
   */
  allowEmptySplits: z.boolean().default(false),
});
export type DatasetConfig = z.infer<typeof DatasetConfigSchema>;

export interface PlannedSample {
  id: string;
  environment: EnvironmentId;
  triple: string;
  task: RelationTask;
  index: number; // within its (environment, triple, task) group
  wanted: RelationClass;
  seed: number;
  split: Split;
  /** The dataset's roles are swapped (the oriented object is the reference). */
  swapRoles: boolean;
}

/** 32-bit FNV-1a of a string: stable per-sample seeds from names. */
export function hashSeed(text: string): number {
  return fnv1a(text);
}

export function sampleId(env: string, triple: string, task: RelationTask, index: number): string {
  return `${env}__${triple}__${task}__${String(index).padStart(5, '0')}`;
}

/** n dealt over k bins as evenly as possible, the first bins taking the remainder. */
function deal(n: number, k: number): number[] {
  return Array.from({ length: k }, (_, i) => Math.floor(n / k) + (i < n % k ? 1 : 0));
}

export function planDataset(config: DatasetConfig): PlannedSample[] {
  const out: PlannedSample[] = [];
  for (const envId of config.environments) {
    const env = ENVIRONMENTS[envId];
    for (const task of RELATION_TASKS) {
      const perTriple = deal(config.counts[task], env.triples.length);
      env.triples.forEach((triple, t) => {
        const n = perTriple[t];
        const splits = stratifiedSplits(n, config, `${envId}/${triple.id}/${task}`);
        for (let index = 0; index < n; index++) {
          out.push({
            id: sampleId(envId, triple.id, task, index),
            environment: envId, triple: triple.id, task, index,
            // Offset by the triple, so even a one-sample-per-triple dataset shows several classes.
            wanted: RELATION_CLASSES[(index + t) % RELATION_CLASSES.length],
            seed: hashSeed(`${config.seed}/${envId}/${triple.id}/${task}/${index}`),
            split: splits[index],
            swapRoles: config.roles === 'swapped',
          });
        }
      });
    }
  }
  return out;
}

/**
 * Split of each index of a group of n samples, stratified by class: per class, a seeded
 * shuffle of its indices, the first round(n_c * train) to train, the next round(n_c * val) to val.
 */
function stratifiedSplits(n: number, config: DatasetConfig, group: string): Split[] {
  // Indices of one residue mod 4 share a class (the class is (index + offset) % 4).
  const out = new Array<Split>(n);
  const k = RELATION_CLASSES.length;
  for (let c = 0; c < k; c++) {
    const members: number[] = [];
    for (let i = c; i < n; i += k) members.push(i);
    mulberry32(hashSeed(`${config.seed}/split/${group}/${c}`)).shuffle(members);
    const nTrain = Math.round(members.length * config.splits[0]);
    const nVal = Math.min(members.length - nTrain, Math.round(members.length * config.splits[1]));
    members.forEach((i, j) => { out[i] = j < nTrain ? 'train' : j < nTrain + nVal ? 'val' : 'test'; });
  }
  return out;
}

/**
 * The strata of a plan (environment, triple, task, class) in which a split gets no sample, as
 * one line each: a dataset must have train, val and test samples of every stratum it plans,
 * unless its config says `allowEmptySplits` (then `relation check` reports them).
 */
export function emptySplits(plan: readonly PlannedSample[]): string[] {
  const strata = new Map<string, Record<Split, number>>();
  for (const s of plan) {
    const key = `${s.environment}/${s.triple}/${s.task}/${s.wanted}`;
    const c = strata.get(key) ?? { train: 0, val: 0, test: 0 };
    c[s.split]++;
    strata.set(key, c);
  }
  const out: string[] = [];
  for (const [key, c] of strata) {
    const empty = SPLITS.filter((s) => c[s] === 0);
    if (empty.length > 0) out.push(`${key}: no ${empty.join(' and no ')} sample (${c.train}/${c.val}/${c.test} train/val/test)`);
  }
  return out;
}

/** The smallest per-(environment, task) count whose every stratum has all three splits. */
export function smallestFullCount(config: DatasetConfig, task: RelationTask): number | null {
  for (let n = 1; n <= 4096; n++) {
    const c = { ...config, environments: [config.environments[0]], counts: { ego: 0, allo: 0, [task]: n } };
    if (emptySplits(planDataset(c)).length === 0) return n;
  }
  return null;
}

/**
 * The plan of a config that may be generated: refused (an Error naming the first empty
 * stratum and the count that would fill it) when a split would be empty, unless allowed.
 */
export function checkedPlan(config: DatasetConfig): PlannedSample[] {
  const plan = planDataset(config);
  const empty = emptySplits(plan);
  if (empty.length > 0 && !config.allowEmptySplits) {
    const need = RELATION_TASKS.filter((t) => config.counts[t] > 0).map((t) => `--${t} ${smallestFullCount(config, t) ?? '?'}`).join(', ');
    throw new Error(`${empty.length} (environment, triple, task, class) strata would have an empty split, e.g. ${empty[0]}; use at least ${need} per environment (splits ${config.splits.join(',')}), or --allow-empty-splits to record them`);
  }
  return plan;
}
