// The SpaRRTa export read the way SpaRRTa's released loader reads it (sparrta/datasets/
// unreal_position.py of its public code, re-implemented here from its description, not copied):
// a non-recursive sorted glob of `*.jpg` / `*.jpeg` in `<root>/<environment>/mid-objects`,
// `img_<n>.jpg` paired with `params_<n>.json` (unpadded, else padded to 4 or 5 digits), the
// actors' label -> location map, X negated (Unreal's left-handed axes), and its rule:
// forward = reference - observer, rel = target - reference, angle = atan2(det, dot),
// ambiguous within `ambiguity_degrees` of 45 and 135 (bounds included), Left when the angle is
// positive. A fresh dataset of every environment and both tasks must come back with 100 % of
// its labels; without the loader's X flip every left/right label swaps, and a file not named
// img_*.jpg is not found.
import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetConfigSchema } from '../../../../src/shared/kinds/relation/dataset';
import { ENVIRONMENT_IDS, ENVIRONMENTS } from '../../../../src/shared/kinds/relation/environments';
import { MARGIN_DEG } from '../../../../src/shared/kinds/relation/labels';
import { SPARRTA_CLASS, SPARRTA_JPEG_QUALITY } from '../../../../src/shared/kinds/relation/sparrta';
import { exportDataset } from '../../../../src/main/kinds/relation/export';
import { storedSamples, type StoredSample } from '../../../../src/main/kinds/relation/files';
import { generateDataset } from '../../../../src/main/kinds/relation/generate';
import { readPngRgb } from '../../../../src/main/io/png';
import { imagePath } from '../../../../src/main/kinds/relation/files';

interface LoaderOptions {
  referenceLabel: string;
  targetLabel: string;
  perspective: 'camera' | 'human';
  ambiguityDegrees: number;
  /** The loader's X negation; false shows what a frame of the wrong handedness does. */
  flipX?: boolean;
}

type Loc = { x: number; y: number; z: number };

function classify(observer: number[], ref: number[], tgt: number[], amb: number, front = 45, back = 135): string {
  const f = [ref[0] - observer[0], ref[1] - observer[1]], r = [tgt[0] - ref[0], tgt[1] - ref[1]];
  const nf = Math.hypot(f[0], f[1]), nr = Math.hypot(r[0], r[1]);
  if (nf === 0 || nr === 0) return 'Ambiguous';
  const dot = (f[0] * r[0] + f[1] * r[1]) / (nf * nr), det = (f[0] * r[1] - f[1] * r[0]) / (nf * nr);
  const ang = (Math.atan2(det, dot) * 180) / Math.PI, a = Math.abs(ang);
  if ((a >= front - amb && a <= front + amb) || (a >= back - amb && a <= back + amb)) return 'Ambiguous';
  if (a < front - amb) return 'Front';
  if (a > back + amb) return 'Back';
  return ang > 0 ? 'Left' : 'Right';
}

function paramsFor(folder: string, image: string): string | null {
  const m = /img_(\d+)\.jpe?g$/.exec(image);
  if (!m) return null;
  const n = String(Number(m[1]));
  const names = readdirSync(folder);
  for (const name of [`params_${n}.json`, `params_${n.padStart(4, '0')}.json`, `params_${n.padStart(5, '0')}.json`]) if (names.includes(name)) return join(folder, name);
  return null;
}

/** (image file name, label) of every sample the loader keeps, in its order. */
function readLikeSparrta(folder: string, o: LoaderOptions): [string, string][] {
  const all = readdirSync(folder);
  const images = ['.jpg', '.jpeg'].flatMap((ext) => {
    const hits = all.filter((f) => f.endsWith(ext)).sort();
    return o.perspective === 'camera' ? hits.slice(0, 5000) : hits;
  });
  const sign = o.flipX === false ? 1 : -1;
  const out: [string, string][] = [];
  for (const img of images) {
    const jp = paramsFor(folder, img);
    if (!jp) continue;
    const meta = JSON.parse(readFileSync(jp, 'utf8')) as { camera: { location: Loc }; actors: Record<string, { label: string; location: Loc }> };
    const pos = new Map<string, Loc>();
    for (const a of Object.values(meta.actors)) pos.set(a.label, a.location);
    const ref = pos.get(o.referenceLabel), tgt = pos.get(o.targetLabel);
    if (!ref || !tgt) continue;
    const xy = (l: Loc) => [sign * l.x, l.y];
    const obs = o.perspective === 'camera' ? meta.camera.location : pos.get('Human');
    if (!obs) continue;
    const label = classify(xy(obs), xy(ref), xy(tgt), o.ambiguityDegrees);
    if (label !== 'Ambiguous') out.push([img, label]);
  }
  return out;
}

const root = mkdtempSync(join(tmpdir(), 'relation-sparrta-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dataset = join(root, 'ds');
const out = join(root, 'sparrta');
let stored: StoredSample[] = [];

/** Every (folder, loader options) pair: SpaRRTa's roles, per perspective, environment key. */
function folders(): { folder: string; opts: LoaderOptions; expected: Map<string, string> }[] {
  const res: { folder: string; opts: LoaderOptions; expected: Map<string, string> }[] = [];
  for (const envId of ENVIRONMENT_IDS) {
    for (const t of ENVIRONMENTS[envId].triples) {
      for (const task of ['ego', 'allo'] as const) {
        const perspective = task === 'ego' ? 'camera' : 'human';
        const expected = new Map(stored.filter((s) => s.plan.environment === envId && s.plan.triple === t.id && s.plan.task === task)
          .map((s) => [`img_${String(s.plan.index + 1).padStart(4, '0')}.jpg`, SPARRTA_CLASS[s.params.relation.label]]));
        res.push({
          folder: join(out, perspective, t.sparrta.environment, 'mid-objects'), expected,
          opts: { referenceLabel: t.sparrta.reference, targetLabel: t.sparrta.target, perspective, ambiguityDegrees: MARGIN_DEG[task] },
        });
      }
    }
  }
  return res;
}

describe('relation export --format sparrta, read as SpaRRTa reads it', () => {
  beforeAll(async () => {
    // Two samples per triple and task: all four classes over each environment's triples.
    const config = DatasetConfigSchema.parse({ seed: 25, counts: { ego: 6, allo: 6 }, samples: 1, allowEmptySplits: true });
    await generateDataset(dataset, config, { sheets: false });
    stored = storedSamples(dataset);
    exportDataset(dataset, out, 'sparrta');
  }, 600_000);

  it('recovers 100 % of the labels of every environment, triple and task from the files alone', () => {
    expect(stored).toHaveLength(60);
    let recovered = 0;
    for (const { folder, opts, expected } of folders()) {
      const got = new Map(readLikeSparrta(folder, opts));
      expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [img, label] of expected) {
        expect(got.get(img), `${folder}/${img}`).toBe(label);
        recovered++;
      }
    }
    expect(recovered).toBe(60);
    const classes = new Set(stored.map((s) => `${s.plan.task}/${s.params.relation.label}`));
    expect(classes.size).toBe(8);
  });

  it('without the loader\'s X flip every left/right label swaps; front/back stay', () => {
    let swapped = 0, lateral = 0;
    for (const { folder, opts, expected } of folders()) {
      const got = new Map(readLikeSparrta(folder, { ...opts, flipX: false }));
      for (const [img, label] of expected) {
        if (label === 'Left' || label === 'Right') {
          lateral++;
          if (got.get(img) === (label === 'Left' ? 'Right' : 'Left')) swapped++;
        } else expect(got.get(img)).toBe(label);
      }
    }
    expect(lateral).toBeGreaterThan(10);
    expect(swapped).toBe(lateral);
  });

  it('writes JPEGs of the stated quality at 224x224, in centimetres, with the lab\'s split beside', () => {
    const s = stored.find((x) => x.plan.task === 'allo')!;
    const t = ENVIRONMENTS[s.plan.environment].triples.find((x) => x.id === s.plan.triple)!;
    const folder = join(out, 'human', t.sparrta.environment, 'mid-objects');
    const name = `img_${String(s.plan.index + 1).padStart(4, '0')}.jpg`;
    const img = jpeg.decode(readFileSync(join(folder, name)), { useTArray: true });
    expect([img.width, img.height]).toEqual([224, 224]);
    // The JPEG is the stored PNG, compressed: mean absolute difference under 3 of 255.
    const png = readPngRgb(imagePath(dataset, s.plan));
    let diff = 0;
    for (let i = 0; i < 224 * 224; i++) for (let k = 0; k < 3; k++) diff += Math.abs(img.data[i * 4 + k] - png.data[i * 3 + k] * 255);
    expect(diff / (224 * 224 * 3)).toBeLessThan(3);
    const params = JSON.parse(readFileSync(join(folder, name.replace('img_', 'params_').replace('.jpg', '.json')), 'utf8'));
    expect(params.camera.location.x).toBeCloseTo(-s.params.camera.position[0] * 100, 6);
    expect(params.camera.location.y).toBeCloseTo(s.params.camera.position[1] * 100, 6);
    expect(Object.values(params.actors).map((a) => (a as { label: string }).label).sort()).toEqual(['Human', t.sparrta.reference, t.sparrta.target].sort());
    const manifest = JSON.parse(readFileSync(join(out, 'sparrta-export.json'), 'utf8'));
    expect(manifest.image).toMatchObject({ format: 'jpeg', quality: SPARRTA_JPEG_QUALITY });
    expect(manifest.folders).toHaveLength(30);
    const splits = JSON.parse(readFileSync(join(out, 'splits.json'), 'utf8'));
    expect(Object.keys(splits)).toHaveLength(60);
    expect(splits[`human/${t.sparrta.environment}/mid-objects/${name}`]).toBe(s.plan.split);
  });

  it('a file not named img_*.jpg is not found by the loader', () => {
    const { folder, opts } = folders()[0];
    const before = readLikeSparrta(folder, opts).length;
    renameSync(join(folder, 'img_0001.jpg'), join(folder, 'img_0001.png'));
    expect(readLikeSparrta(folder, opts)).toHaveLength(before - 1);
    renameSync(join(folder, 'img_0001.png'), join(folder, 'image_0001.jpg'));
    expect(readLikeSparrta(folder, opts)).toHaveLength(before - 1);
    renameSync(join(folder, 'image_0001.jpg'), join(folder, 'img_0001.jpg'));
  });
});
