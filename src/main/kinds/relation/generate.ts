// Generates (or resumes) a relation dataset in a folder: every planned sample's image and
// parameters file, then a contact sheet per environment. Inputs: a folder and a DatasetConfig;
// progress callback and AbortSignal. Output: counts of generated and skipped samples.
// Invariant: the plan is fixed by the config stored in dataset.json, so a resumed run writes
// exactly the files a single run would have written; a folder made with another config is
// refused, never overwritten.
import { existsSync, mkdirSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { checkedPlan, type DatasetConfig } from '../../../shared/kinds/relation/dataset';
import { generateSample } from '../../../shared/kinds/relation/sample';
import { encodePng } from '../../io/png';
import { imagePath, manifestPath, paramsPath, readManifest, readSample, sampleDir, writeAtomic, DATASET_FORMAT, type Manifest } from './files';
import { writeContactSheets } from './sheets';

export interface GenerateProgress {
  done: number;
  total: number;
  generated: number;
  id: string;
}

export interface GenerateOptions {
  onProgress?: (p: GenerateProgress) => void;
  signal?: AbortSignal;
  /** Write the per-environment contact sheets at the end (default true). */
  sheets?: boolean;
}

export interface GenerateResult {
  total: number;
  generated: number;
  skipped: number;
  cancelled: boolean;
  sheets: string[];
}

export async function generateDataset(dir: string, config: DatasetConfig, opts: GenerateOptions = {}): Promise<GenerateResult> {
  // Refused before any file is written: a plan with an empty split (unless the config allows it).
  const plan = checkedPlan(config);
  if (existsSync(manifestPath(dir))) {
    const stored = readManifest(dir);
    if (stored.imported) throw new Error(`${dir} holds an imported dataset (from ${stored.imported.from}); generate into a new folder`);
    if (!isDeepStrictEqual(stored.config, config)) {
      throw new Error(`${dir} holds a relation dataset made with another config (${JSON.stringify(stored.config)}); resume with the same options or use a new folder`);
    }
  } else {
    mkdirSync(dir, { recursive: true });
    const manifest: Manifest = { format: DATASET_FORMAT, config, created: new Date().toISOString() };
    writeAtomic(manifestPath(dir), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  let generated = 0, skipped = 0;
  for (const [i, s] of plan.entries()) {
    if (opts.signal?.aborted) return { total: plan.length, generated, skipped, cancelled: true, sheets: [] };
    if (readSample(dir, s)) {
      skipped++;
    } else {
      const sample = generateSample(s, { samples: config.samples, renderer: config.renderer });
      mkdirSync(sampleDir(dir, s), { recursive: true });
      writeAtomic(imagePath(dir, s), encodePng(sample.image));
      writeAtomic(paramsPath(dir, s), `${JSON.stringify(sample.params, null, 1)}\n`);
      generated++;
      // Lets a cancel (Ctrl-C, a UI button) reach us between samples.
      await new Promise((resolve) => setImmediate(resolve));
    }
    opts.onProgress?.({ done: i + 1, total: plan.length, generated, id: s.id });
  }
  const sheets = opts.sheets === false ? [] : writeContactSheets(dir);
  return { total: plan.length, generated, skipped, cancelled: false, sheets };
}
