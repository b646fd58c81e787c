// On-disk layout of a generated relation dataset: `dataset.json` (the config and format) and
// `samples/<environment>/<triple>/<task>/<id>.png` with `<id>.json` (its parameters file).
// Inputs: a dataset folder. Outputs: paths, the stored manifest, the samples found on disk.
// Invariant: a sample exists once its parameters file parses; the PNG is written before it. An
// imported dataset lists its samples in `imported`; a generated one plans them from `config`.
import { existsSync, readFileSync } from 'node:fs';
import { readJsonChecked } from '../../io/json-file';
import { writeFileAtomic } from '../../io/write-atomic';
import { join } from 'node:path';
import { z } from 'zod';
import { DatasetConfigSchema, planDataset, SPLITS, type PlannedSample } from '../../../shared/kinds/relation/dataset';
import { ENVIRONMENT_IDS } from '../../../shared/kinds/relation/environments';
import { RELATION_CLASSES, RELATION_TASKS } from '../../../shared/kinds/relation/labels';
import { parseParams, type RelationParams } from '../../../shared/kinds/relation/params';

export const DATASET_FORMAT = 'splatlab.relation.dataset/1';

/**
 * A dataset imported from another layout (`relation import`, src/main/kinds/relation/
 * import-sparrta.ts): its samples are listed, not planned from the config, and what the import
 * refused or flagged is recorded with the source file of each.
 */
export const ImportedSchema = z.strictObject({
  format: z.literal('sparrta'),
  from: z.string(),
  /** Where the splits came from: the folder's splits.json (a lab export) or a seeded draw. */
  splits: z.enum(['splits.json', 'seeded']),
  samples: z.array(z.strictObject({
    id: z.string(), source: z.string(), environment: z.enum(ENVIRONMENT_IDS), triple: z.string(), task: z.enum(RELATION_TASKS),
    index: z.number().int().nonnegative(), split: z.enum(SPLITS), label: z.enum(RELATION_CLASSES),
  })),
  /** Samples whose stored label differs from SpaRRTa's rule on their parameters. */
  flagged: z.array(z.strictObject({ source: z.string(), id: z.string(), stored: z.string(), recomputed: z.enum(RELATION_CLASSES), kept: z.boolean() })),
  /** Samples SpaRRTa's loader skips too (ambiguous, an actor missing, no parameters file). */
  skipped: z.array(z.strictObject({ source: z.string(), why: z.string(), detail: z.string() })),
});
export type Imported = z.infer<typeof ImportedSchema>;

export const ManifestSchema = z.strictObject({
  format: z.literal(DATASET_FORMAT),
  config: DatasetConfigSchema,
  created: z.string(),
  imported: ImportedSchema.optional(),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export const manifestPath = (dir: string) => join(dir, 'dataset.json');
export const sampleDir = (dir: string, s: Pick<PlannedSample, 'environment' | 'triple' | 'task'>) =>
  join(dir, 'samples', s.environment, s.triple, s.task);
export const imagePath = (dir: string, s: PlannedSample) => join(sampleDir(dir, s), `${s.id}.png`);
export const paramsPath = (dir: string, s: PlannedSample) => join(sampleDir(dir, s), `${s.id}.json`);

/** Dataset files appear whole or not at all; they can be regenerated, so no fsync per image. */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  writeFileAtomic(path, data, { durable: false });
}

export function readManifest(dir: string): Manifest {
  const path = manifestPath(dir);
  if (!existsSync(path)) throw new Error(`${dir} is not a relation dataset (no dataset.json; run 'splatlab relation generate' first)`);
  return readJsonChecked(path, ManifestSchema, { what: 'relation dataset manifest', error: Error });
}

/** The stored parameters of a planned sample, or null when it has not been generated yet. */
export function readSample(dir: string, s: PlannedSample): RelationParams | null {
  const path = paramsPath(dir, s);
  if (!existsSync(path) || !existsSync(imagePath(dir, s))) return null;
  return parseParams(JSON.parse(readFileSync(path, 'utf8')), path);
}

export interface StoredSample {
  plan: PlannedSample;
  params: RelationParams;
}

/** The samples a dataset holds: its plan, or an imported dataset's list. */
export function datasetPlan(manifest: Manifest): PlannedSample[] {
  if (!manifest.imported) return planDataset(manifest.config);
  return manifest.imported.samples.map((s) => ({
    id: s.id, environment: s.environment, triple: s.triple, task: s.task, index: s.index,
    wanted: s.label, seed: 0, split: s.split, swapRoles: false,
  }));
}

/** Every planned (or imported) sample already on disk, in plan order. */
export function storedSamples(dir: string, manifest: Manifest = readManifest(dir)): StoredSample[] {
  const plan = datasetPlan(manifest);
  const out: StoredSample[] = [];
  for (const s of plan) {
    const params = readSample(dir, s);
    if (params) out.push({ plan: s, params });
  }
  return out;
}
