// Contact sheets of a relation dataset, one PNG per environment (`contact/<environment>.png`):
// the first four samples (one per class) of every triple and task, each tile captioned with its triple, task and
// stored label, for a person to look at before using the data.
// Input: a dataset folder. Output: the sheet paths written.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { contactSheet, type SheetTile } from '../../../shared/image/sheet';
import { readPngRgb, writePng } from '../../io/png';
import { imagePath, readManifest, storedSamples } from './files';

/** Tiles per (triple, task) cell of a sheet. */
const PER_CELL = 4;

export function writeContactSheets(dir: string): string[] {
  const manifest = readManifest(dir);
  const stored = storedSamples(dir, manifest);
  mkdirSync(join(dir, 'contact'), { recursive: true });
  const out: string[] = [];
  for (const env of manifest.config.environments) {
    const taken = new Map<string, number>();
    const tiles: SheetTile[] = [];
    for (const { plan, params } of stored) {
      if (plan.environment !== env) continue;
      const cell = `${plan.triple}/${plan.task}`;
      if ((taken.get(cell) ?? 0) >= PER_CELL) continue;
      taken.set(cell, (taken.get(cell) ?? 0) + 1);
      const facing = params.facing ? ` (facing: ${params.facing.label})` : '';
      tiles.push({ image: readPngRgb(imagePath(dir, plan)), label: `${plan.triple} ${plan.task}\n${params.relation.label}${facing}` });
    }
    if (tiles.length === 0) continue;
    const path = join(dir, 'contact', `${env}.png`);
    writePng(path, contactSheet(tiles, 6, { fontScale: 1 }));
    out.push(path);
  }
  return out;
}
