// The SpaRRTa export of a relation dataset (docs/RELATION.md, "SpaRRTa export"): the folders
// SpaRRTa's released loader reads unchanged, `<OUT>/<camera|human>/<env key>/mid-objects/`
// holding `img_NNNN.jpg` (JPEG, quality SPARRTA_JPEG_QUALITY) and `params_NNNN.json` in its
// layout, units and handedness (src/shared/kinds/relation/sparrta.ts); `splits.json` (image ->
// the lab's split) and `sparrta-export.json` (format, quality, roles and each folder's training
// command). Inputs: the stored samples, a destination. Output: counts. Invariant: a folder holds
// one (environment, triple, task) group in plan order, numbered from 1, so SpaRRTa's sorted
// glob sees the lab's order.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MARGIN_DEG } from '../../../shared/kinds/relation/labels';
import {
  sparrtaFolder, toSparrtaParams, SPARRTA_HUMAN_LABEL, SPARRTA_JPEG_QUALITY, SPARRTA_SUBFOLDER, SPARRTA_UNITS_PER_METRE,
} from '../../../shared/kinds/relation/sparrta';
import { encodeJpeg } from '../../io/jpeg';
import { readPngRgb } from '../../io/png';
import { imagePath, type StoredSample } from './files';

export const SPARRTA_EXPORT_FORMAT = 'splatlab.relation.sparrta-export/1';

interface Folder {
  rel: string;
  perspective: 'camera' | 'human';
  environment: string;
  reference: string;
  target: string;
  samples: number;
}

export function exportSparrta(dir: string, dest: string, stored: readonly StoredSample[]): { samples: number; files: number } {
  const groups = new Map<string, StoredSample[]>();
  for (const s of stored) {
    const f = sparrtaFolder(s.params);
    const rel = join(f.perspective, f.environment, SPARRTA_SUBFOLDER);
    groups.set(rel, [...(groups.get(rel) ?? []), s]);
  }
  const splits: Record<string, string> = {};
  const folders: Folder[] = [];
  for (const [rel, members] of groups) {
    const folder = join(dest, rel);
    mkdirSync(folder, { recursive: true });
    const last = Math.max(...members.map((m) => m.plan.index + 1));
    // SpaRRTa's loader finds params_<n>.json unpadded, or padded to 4 or 5 digits.
    if (last > 99_999) throw new Error(`${rel}: ${last} images; SpaRRTa's loader pairs at most 99,999 per folder`);
    const width = last > 9999 ? 5 : 4;
    for (const s of members) {
      const n = String(s.plan.index + 1).padStart(width, '0');
      writeFileSync(join(folder, `img_${n}.jpg`), encodeJpeg(readPngRgb(imagePath(dir, s.plan)), SPARRTA_JPEG_QUALITY));
      writeFileSync(join(folder, `params_${n}.json`), `${JSON.stringify(toSparrtaParams(s.params, s.plan.split), null, 2)}\n`);
      splits[relative(dest, join(folder, `img_${n}.jpg`))] = s.plan.split;
    }
    const head = toSparrtaParams(members[0].params, members[0].plan.split).splatlab;
    const f = sparrtaFolder(members[0].params);
    folders.push({ rel, perspective: f.perspective, environment: f.environment, reference: head.reference, target: head.target, samples: members.length });
  }
  const manifest = {
    format: SPARRTA_EXPORT_FORMAT,
    image: { format: 'jpeg', quality: SPARRTA_JPEG_QUALITY, encoder: 'jpeg-js (baseline)', width: 224, height: 224 },
    units: `Unreal centimetres (${SPARRTA_UNITS_PER_METRE} per lab metre)`,
    axes: 'Unreal, left-handed, Z up: the lab\'s right-handed X negated; SpaRRTa\'s loader negates X back',
    roles: stored[0].params.roles ?? 'sparrta',
    human_label: SPARRTA_HUMAN_LABEL,
    folders: folders.map((f) => ({
      ...f,
      // How SpaRRTa's train.py reads the folder: its data root per perspective, its environment key.
      command: `SPARRTA_DATA_ROOT=${f.perspective} python train.py environment=${f.environment} dataset.perspective=${f.perspective} `
        + `dataset.ambiguity_degrees=${MARGIN_DEG[f.perspective === 'camera' ? 'ego' : 'allo']} dataset.reference_label=${f.reference} dataset.target_label=${f.target}`,
    })),
  };
  writeFileSync(join(dest, 'splits.json'), `${JSON.stringify(splits, null, 1)}\n`);
  writeFileSync(join(dest, 'sparrta-export.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { samples: stored.length, files: 2 * stored.length + 2 };
}
