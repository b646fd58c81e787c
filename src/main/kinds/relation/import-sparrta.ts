// `splatlab relation import --format sparrta DIR --out DATASET` (docs/RELATION.md, "SpaRRTa
// import"): SpaRRTa's released layout, `DIR/{camera,human}/<environment key>/mid-objects/
// img_*.jpg` beside `params_*.json`, read as its loader reads it (non-recursive sorted glob of
// `*.jpg` then `*.jpeg`, the camera perspective keeping the first 5,000, `img_<n>` paired with
// `params_<n>.json` unpadded, else padded to 4 or 5 digits), every label recomputed with its rule
// (src/shared/kinds/relation/sparrta-import.ts), into a dataset in the layout `relation generate`
// writes. Inputs: the folder, the destination, options. Output: counts, flagged and skipped
// samples (also recorded in `dataset.json`). Invariant: an image is decoded once and stored as
// a PNG of exactly its pixels at its own size (never resampled); a sample whose stored label
// differs from the recomputed one is left out unless `keepFlagged` (then it carries the
// recomputed label); nothing is written when the folder holds no sample or DATASET exists.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetConfigSchema, hashSeed, SPLITS, type Split } from '../../../shared/kinds/relation/dataset';
import { RELATION_CLASSES, type RelationClass } from '../../../shared/kinds/relation/labels';
import { sampleId } from '../../../shared/kinds/relation/dataset';
import { importSparrtaSample, tripleOfKey, SPARRTA_KEYS } from '../../../shared/kinds/relation/sparrta-import';
import { SPARRTA_SUBFOLDER } from '../../../shared/kinds/relation/sparrta';
import { mulberry32 } from '../../../shared/math/random';
import { decodeJpeg } from '../../io/jpeg';
import { encodePng } from '../../io/png';
import { DATASET_FORMAT, manifestPath, paramsPath, imagePath, writeAtomic, type Imported, type Manifest } from './files';

/** SpaRRTa's loader reads at most this many images of a camera-perspective folder. */
export const SPARRTA_CAMERA_LIMIT = 5000;

export interface ImportOptions {
  /** Keep samples whose stored label differs from the recomputed one (with the recomputed label). */
  keepFlagged?: boolean;
  /** Train/val/test fractions of the seeded split, when the folder has no splits.json. */
  splits?: [number, number, number];
  seed?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ImportResult {
  samples: number;
  flagged: Imported['flagged'];
  skipped: Imported['skipped'];
  folders: string[];
}

interface Found { key: string; perspective: 'camera' | 'human'; folder: string; rel: string; images: string[] }

/** The `img_<n>` of a file name, as SpaRRTa's loader matches it; null for any other file. */
function imageNumber(name: string): string | null {
  const m = /img_(\d+)\.jpe?g$/.exec(name);
  return m ? String(Number(m[1])) : null;
}

/** The parameters file SpaRRTa's loader pairs with an image, or null. */
export function pairedParams(folder: string, names: ReadonlySet<string>, image: string): string | null {
  const n = imageNumber(image);
  if (n === null) return null;
  for (const name of [`params_${n}.json`, `params_${n.padStart(4, '0')}.json`, `params_${n.padStart(5, '0')}.json`]) {
    if (names.has(name)) return join(folder, name);
  }
  return null;
}

function findFolders(dir: string): Found[] {
  const out: Found[] = [];
  for (const perspective of ['camera', 'human'] as const) {
    const root = join(dir, perspective);
    if (!existsSync(root) || !statSync(root).isDirectory()) continue;
    for (const key of readdirSync(root).sort()) {
      const folder = join(root, key, SPARRTA_SUBFOLDER);
      if (!existsSync(folder)) continue;
      if (!tripleOfKey(key)) throw new Error(`${perspective}/${key}: not one of SpaRRTa's environment keys (${SPARRTA_KEYS.join(', ')})`);
      const names = readdirSync(folder);
      const images = ['.jpg', '.jpeg'].flatMap((ext) => {
        const hits = names.filter((f) => f.endsWith(ext)).sort();
        return perspective === 'camera' ? hits.slice(0, SPARRTA_CAMERA_LIMIT) : hits;
      });
      out.push({ key, perspective, folder, rel: `${perspective}/${key}/${SPARRTA_SUBFOLDER}`, images });
    }
  }
  return out;
}

/** Split of each label's samples: per class a seeded shuffle, round(n * train) train, round(n * val) val. */
function seededSplits(labels: readonly RelationClass[], fractions: [number, number, number], group: string, seed: number): Split[] {
  const out = new Array<Split>(labels.length);
  for (const cls of RELATION_CLASSES) {
    const members = labels.flatMap((l, i) => (l === cls ? [i] : []));
    mulberry32(hashSeed(`${seed}/import/${group}/${cls}`)).shuffle(members);
    const nTrain = Math.round(members.length * fractions[0]);
    const nVal = Math.min(members.length - nTrain, Math.round(members.length * fractions[1]));
    members.forEach((i, j) => { out[i] = j < nTrain ? 'train' : j < nTrain + nVal ? 'val' : 'test'; });
  }
  return out;
}

function readSplits(dir: string): Map<string, Split> | null {
  const path = join(dir, 'splits.json');
  if (!existsSync(path)) return null;
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const out = new Map<string, Split>();
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== 'string' || !(SPLITS as readonly string[]).includes(v)) throw new Error(`${path}: split of ${k} is ${JSON.stringify(v)}, not one of ${SPLITS.join(', ')}`);
    out.set(k, v as Split);
  }
  return out;
}

export function importSparrta(dir: string, dest: string, o: ImportOptions = {}): ImportResult {
  if (existsSync(manifestPath(dest))) throw new Error(`${dest} already holds a dataset; import into a new folder`);
  const found = findFolders(dir);
  const total = found.reduce((n, f) => n + f.images.length, 0);
  if (total === 0) throw new Error(`${dir} holds no SpaRRTa images (expected camera/<environment>/${SPARRTA_SUBFOLDER}/img_*.jpg or human/...)`);
  const fileSplits = readSplits(dir);
  const fractions = o.splits ?? [0.8, 0.1, 0.1];
  const flagged: Imported['flagged'] = [], skipped: Imported['skipped'] = [], samples: Imported['samples'] = [];
  const counts = new Map<string, number>();
  let done = 0;
  for (const f of found) {
    const names = new Set(readdirSync(f.folder));
    const group: { entry: Omit<Imported['samples'][number], 'split'>; write: () => void }[] = [];
    for (const [index, image] of f.images.entries()) {
      done++;
      o.onProgress?.(done, total);
      const source = `${f.rel}/${image}`;
      const jp = pairedParams(f.folder, names, image);
      if (!jp) { skipped.push({ source, why: 'no parameters file', detail: `no params_<n>.json for ${image}` }); continue; }
      const where = tripleOfKey(f.key)!;
      const task = f.perspective === 'camera' ? 'ego' : 'allo';
      const id = sampleId(where.environment, where.triple.id, task, index);
      const bytes = readFileSync(join(f.folder, image));
      const img = decodeJpeg(bytes, source);
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(jp, 'utf8'));
      } catch (error) {
        skipped.push({ source, why: 'unreadable', detail: (error as Error).message });
        continue;
      }
      const res = importSparrtaSample({ json, key: f.key, perspective: f.perspective, id, source, width: img.width, height: img.height });
      if (res.kind === 'skipped') { skipped.push({ source, why: res.why, detail: res.detail }); continue; }
      const label = res.params.relation.label as RelationClass;
      if (res.stored !== label && (res.stored !== null || hasStoredLabel(json))) {
        const stored = res.stored ?? String((json as { splatlab?: { label?: unknown } }).splatlab?.label);
        flagged.push({ source, id, stored, recomputed: label, kept: o.keepFlagged === true });
        if (!o.keepFlagged) continue;
      }
      const plan = { id, environment: where.environment, triple: where.triple.id, task } as const;
      group.push({
        entry: { ...plan, source, index, label },
        write: () => {
          const p = { ...plan, index, wanted: label, seed: 0, split: 'train' as Split, swapRoles: false };
          mkdirSync(join(dest, 'samples', plan.environment, plan.triple, plan.task), { recursive: true });
          writeAtomic(imagePath(dest, p), encodePng(img));
          writeAtomic(paramsPath(dest, p), `${JSON.stringify(res.params, null, 1)}\n`);
        },
      });
    }
    const splits = fileSplits
      ? group.map((g) => fileSplits.get(g.entry.source) ?? 'test')
      : seededSplits(group.map((g) => g.entry.label), fractions, f.rel, o.seed ?? 1);
    group.forEach((g, i) => { g.write(); samples.push({ ...g.entry, split: splits[i] }); });
    const key = `${tripleOfKey(f.key)!.environment}/${f.perspective === 'camera' ? 'ego' : 'allo'}`;
    counts.set(key, Math.max(counts.get(key) ?? 0, group.length));
  }
  if (samples.length === 0) throw new Error(`${dir}: none of ${total} images could be imported (${skipped.length} skipped, ${flagged.length} flagged)`);
  const environments = [...new Set(samples.map((s) => s.environment))];
  const countOf = (task: 'ego' | 'allo') => Math.max(0, ...environments.map((e) => counts.get(`${e}/${task}`) ?? 0));
  const manifest: Manifest = {
    format: DATASET_FORMAT,
    config: DatasetConfigSchema.parse({ seed: o.seed ?? 1, environments, counts: { ego: countOf('ego'), allo: countOf('allo') }, splits: fractions, samples: 1, allowEmptySplits: true }),
    created: new Date().toISOString(),
    imported: { format: 'sparrta', from: dir, splits: fileSplits ? 'splits.json' : 'seeded', samples, flagged, skipped },
  };
  writeAtomic(manifestPath(dest), `${JSON.stringify(manifest, null, 1)}\n`);
  return { samples: samples.length, flagged, skipped, folders: found.map((f) => f.rel) };
}

function hasStoredLabel(json: unknown): boolean {
  return typeof (json as { splatlab?: { label?: unknown } } | null)?.splatlab?.label === 'string';
}
