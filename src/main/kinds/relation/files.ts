// On-disk layout of a generated relation dataset: `dataset.json` (the config and format) and
// `samples/<environment>/<triple>/<task>/<id>.png` with `<id>.json` (its parameters file).
// Inputs: a dataset folder. Outputs: paths, the stored manifest, the samples found on disk.
// Invariant: a sample exists once its parameters file parses; the PNG is written before it.
import { existsSync, readFileSync } from 'node:fs';
import { readJsonChecked } from '../../io/json-file';
import { writeFileAtomic } from '../../io/write-atomic';
import { join } from 'node:path';
import { z } from 'zod';
import { DatasetConfigSchema, planDataset, type DatasetConfig, type PlannedSample } from '../../../shared/kinds/relation/dataset';
import { parseParams, type RelationParams } from '../../../shared/kinds/relation/params';

export const DATASET_FORMAT = 'splatlab.relation.dataset/1';

export const ManifestSchema = z.strictObject({
  format: z.literal(DATASET_FORMAT),
  config: DatasetConfigSchema,
  created: z.string(),
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

/** Every planned sample already on disk, in plan order. */
export function storedSamples(dir: string, config?: DatasetConfig): StoredSample[] {
  const plan = planDataset(config ?? readManifest(dir).config);
  const out: StoredSample[] = [];
  for (const s of plan) {
    const params = readSample(dir, s);
    if (params) out.push({ plan: s, params });
  }
  return out;
}
