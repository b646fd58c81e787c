// Issue 35: SpaRRTa's released layout in (docs/RELATION.md, "SpaRRTa import"). A fresh dataset
// (the forest, both tasks) is exported in SpaRRTa's layout by the lab's own export; two samples'
// stored labels are then tampered with. The import recomputes every label from the parameters
// with SpaRRTa's rule, recovers every original label, flags exactly the two tampered ones (left
// out, or kept with the recomputed label), keeps each image at its own size with the decoded
// JPEG's exact pixels, takes the splits from splits.json, passes `relation check`, and makes a
// trial block whose images are the imported pixels. The egocentric images have the person in
// them (a `person` actor, visible), as SpaRRTa's do, and the export lists them as `Human`.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetConfigSchema } from '../../../../src/shared/kinds/relation/dataset';
import { SPARRTA_CLASS } from '../../../../src/shared/kinds/relation/sparrta';
import { exportDataset } from '../../../../src/main/kinds/relation/export';
import { imagePath, readManifest, storedSamples, type StoredSample } from '../../../../src/main/kinds/relation/files';
import { generateDataset } from '../../../../src/main/kinds/relation/generate';
import { importSparrta } from '../../../../src/main/kinds/relation/import-sparrta';
import { checkDataset } from '../../../../src/main/kinds/relation/check';
import { writeRelationBlock } from '../../../../src/main/kinds/relation/block';
import { loadRelationTask } from '../../../../src/main/kinds/relation/kind';
import { decodeJpeg } from '../../../../src/main/io/jpeg';
import { decodePng } from '../../../../src/main/io/png';
import { MIN_VISIBLE } from '../../../../src/shared/kinds/relation/layout';
import { renderParams } from '../../../../src/shared/kinds/relation/sample';

const root = mkdtempSync(join(tmpdir(), 'splatlab-sparrta-import-'));
const dataset = join(root, 'dataset'), out = join(root, 'sparrta');
let stored: StoredSample[];
/** Export file (relative to `out`) -> the original sample. */
const original = new Map<string, StoredSample>();
const tampered: string[] = [];

afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(async () => {
  const config = DatasetConfigSchema.parse({ seed: 35, environments: ['forest'], counts: { ego: 12, allo: 12 }, splits: [0.5, 0, 0.5], samples: 1, allowEmptySplits: true });
  await generateDataset(dataset, config, { sheets: false });
  stored = storedSamples(dataset);
  exportDataset(dataset, out, 'sparrta');
  for (const perspective of ['camera', 'human']) {
    for (const key of readdirSync(join(out, perspective))) {
      const folder = join(out, perspective, key, 'mid-objects');
      for (const f of readdirSync(folder).filter((n) => n.startsWith('params_'))) {
        const json = JSON.parse(readFileSync(join(folder, f), 'utf8')) as { splatlab: { id: string; label: string } };
        original.set(`${perspective}/${key}/mid-objects/${f.replace('params_', 'img_').replace('.json', '.jpg')}`, stored.find((s) => s.plan.id === json.splatlab.id)!);
      }
    }
  }
  // Two tampered labels: one egocentric, one allocentric, each set to another class.
  for (const [file, label] of [['camera/forest_2/mid-objects/params_0002.json', ''], ['human/forest/mid-objects/params_0003.json', '']]) {
    const path = join(out, file);
    const json = JSON.parse(readFileSync(path, 'utf8')) as { splatlab: { label: string } };
    const other = Object.values(SPARRTA_CLASS).find((c) => c !== json.splatlab.label && c !== label)!;
    json.splatlab.label = other;
    writeFileSync(path, JSON.stringify(json));
    tampered.push(file.replace('params_', 'img_').replace('.json', '.jpg'));
  }
}, 600_000);

describe('relation import --format sparrta', () => {
  it('egocentric images show the person (a visible bystander), exported as SpaRRTa\'s Human', () => {
    const ego = stored.filter((s) => s.plan.task === 'ego');
    expect(ego.length).toBe(12);
    for (const s of ego) {
      const person = s.params.actors.find((a) => a.role === 'person');
      expect(person?.label, s.plan.id).toBe('human');
      expect(s.params.actors.some((a) => a.role === 'observer'), s.plan.id).toBe(false);
    }
    const vis = renderParams(ego[0].params, { samples: 1 }).visible;
    expect(vis.person ?? 0).toBeGreaterThanOrEqual(MIN_VISIBLE);
    const json = JSON.parse(readFileSync(join(out, 'camera/forest/mid-objects/params_0001.json'), 'utf8')) as { actors: Record<string, { label: string }> };
    expect(Object.values(json.actors).map((a) => a.label).sort()).toEqual(['Human', 'Rock', 'Tree']);
  });

  it('recovers every label from the parameters and flags the two tampered samples (left out)', () => {
    const dest = join(root, 'imported');
    const res = importSparrta(out, dest);
    expect(res.flagged.map((f) => f.source).sort()).toEqual([...tampered].sort());
    for (const f of res.flagged) {
      expect(f.recomputed, f.source).toBe(original.get(f.source)!.params.relation.label);
      expect(f.stored).not.toBe(SPARRTA_CLASS[f.recomputed]);
      expect(f.kept).toBe(false);
    }
    expect(res.skipped).toEqual([]);
    const manifest = readManifest(dest);
    expect(manifest.imported?.samples).toHaveLength(22);
    expect(manifest.imported?.flagged).toHaveLength(2);
    expect(manifest.imported?.splits).toBe('splits.json');
    const imported = storedSamples(dest);
    expect(imported).toHaveLength(22);
    for (const s of imported) {
      const from = manifest.imported!.samples.find((e) => e.id === s.plan.id)!.source;
      const orig = original.get(from)!;
      expect(s.params.relation.label, from).toBe(orig.params.relation.label);
      expect(s.params.relation.angle_deg).toBeCloseTo(orig.params.relation.angle_deg, 6);
      expect(s.plan.split, from).toBe(orig.plan.split);
      expect(s.params.task).toBe(orig.params.task);
      expect(s.params.facing?.label ?? null).toBe(orig.params.facing?.label ?? null);
      // The decoded JPEG's pixels at its own size, never resampled.
      const jpg = decodeJpeg(readFileSync(join(out, from)), from);
      const png = decodePng(readFileSync(imagePath(dest, s.plan)));
      expect([png.width, png.height, png.channels]).toEqual([224, 224, 3]);
      expect(s.params.stimulus).toMatchObject({ width: 224, height: 224, format: 'jpeg', source: from });
      expect(png.data.every((v, i) => Math.round(v * 255) === jpg.data[i])).toBe(true);
    }
    const check = checkDataset(dest);
    expect(check.problems).toEqual([]);
    expect(check.samples).toBe(22);
  });

  it('--keep-flagged keeps the two with the recomputed label; a folder without splits.json draws seeded splits', () => {
    const dest = join(root, 'kept');
    const res = importSparrta(out, dest, { keepFlagged: true });
    expect(res.samples).toBe(24);
    expect(res.flagged.every((f) => f.kept)).toBe(true);
    const manifest = readManifest(dest);
    for (const e of manifest.imported!.samples) expect(e.label).toBe(original.get(e.source)!.params.relation.label);
    rmSync(join(out, 'splits.json'));
    try {
      const seeded = importSparrta(out, join(root, 'seeded'), { keepFlagged: true, splits: [0.5, 0, 0.5], seed: 3 });
      expect(seeded.samples).toBe(24);
      expect(readManifest(join(root, 'seeded')).imported?.splits).toBe('seeded');
      expect(checkDataset(join(root, 'seeded')).problems).toEqual([]);
    } finally {
      exportDataset(dataset, join(root, 'scratch'), 'sparrta');
      writeFileSync(join(out, 'splits.json'), readFileSync(join(root, 'scratch', 'splits.json')));
    }
    expect(() => importSparrta(out, dest)).toThrow(/already holds a dataset/);
    expect(() => importSparrta(join(root, 'nothing-here'), join(root, 'x'))).toThrow(/holds no SpaRRTa images/);
  });

  it('a trial block of imported images shows the imported pixels at the size the block sets', async () => {
    const dest = join(root, 'imported');
    const tasks = join(root, 'tasks');
    const res = writeRelationBlock(tasks, dest, { name: 'sparrta', split: 'train', perCell: 1, practice: 0, catchTrials: 0, seed: 2, displayPx: 336 });
    expect(res.trials).toBe(8);
    expect(res.scaling).toEqual(['224x224 shown at 336 px (x1.50)']);
    const task = loadRelationTask(tasks, { task_id: res.scored, kind: 'relation' });
    expect(task.spec.block?.display_px).toBe(336);
    const manifest = readManifest(dest);
    for (let i = 0; i < task.params.length; i++) {
      const p = task.params[i];
      const s = manifest.imported!.samples.find((e) => e.id === p.id)!;
      expect(Buffer.from(await task.image(i)).equals(readFileSync(imagePath(dest, { ...s, wanted: s.label, seed: 0, swapRoles: false })))).toBe(true);
    }
  });
});
