// Exports of a generated relation dataset in three layouts:
// - sparrta: the folders SpaRRTa's own loader reads (src/main/kinds/relation/export-sparrta.ts);
// - imagefolder: `<split>/<id>.png` + `metadata.jsonl` (the common image dataset layout);
// - csv: `index.csv`, one row per sample pointing at the dataset's own files.
// Inputs: a dataset folder, a destination, a format. Output: files written and their count.
// Invariant: imagefolder and csv copy the stored files byte for byte; the label columns are the
// stored ones.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordsCsv } from '../../../shared/analysis/csv';
import { actorOf } from '../../../shared/kinds/relation/params';
import { exportSparrta } from './export-sparrta';
import { imagePath, paramsPath, storedSamples, type StoredSample } from './files';

export const EXPORT_FORMATS = ['sparrta', 'imagefolder', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportResult {
  samples: number;
  files: number;
}

export function exportDataset(dir: string, dest: string, format: ExportFormat): ExportResult {
  const stored = storedSamples(dir);
  if (stored.length === 0) throw new Error(`${dir} has no generated samples to export`);
  mkdirSync(dest, { recursive: true });
  if (format === 'sparrta') return exportSparrta(dir, dest, stored);
  if (format === 'imagefolder') return exportImageFolder(dir, dest, stored);
  return exportCsv(dir, dest, stored);
}

/** The metadata of one sample: roles by name, both labellings, the split. */
function metadata(s: StoredSample): Record<string, string | number | null> {
  const p = s.params;
  return {
    id: p.id, split: s.plan.split, environment: p.environment, triple: p.triple, task: p.task,
    reference: actorOf(p, 'reference').label, target: actorOf(p, 'target').label,
    observer: p.task === 'ego' ? 'camera' : actorOf(p, 'observer').label,
    label: p.relation.label, angle_deg: p.relation.angle_deg, facing_label: p.facing?.label ?? null,
  };
}

function exportImageFolder(dir: string, dest: string, stored: StoredSample[]): ExportResult {
  const lines: string[] = [];
  for (const s of stored) {
    mkdirSync(join(dest, s.plan.split), { recursive: true });
    const file = `${s.plan.split}/${s.plan.id}.png`;
    copyFileSync(imagePath(dir, s.plan), join(dest, file));
    lines.push(JSON.stringify({ file_name: file, ...metadata(s) }));
  }
  writeFileSync(join(dest, 'metadata.jsonl'), `${lines.join('\n')}\n`);
  return { samples: stored.length, files: stored.length + 1 };
}

function exportCsv(dir: string, dest: string, stored: StoredSample[]): ExportResult {
  const rows = stored.map((s) => ({ ...metadata(s), image: imagePath(dir, s.plan), params: paramsPath(dir, s.plan) }));
  writeFileSync(join(dest, 'index.csv'), recordsCsv(Object.keys(rows[0]), rows));
  return { samples: stored.length, files: 1 };
}
