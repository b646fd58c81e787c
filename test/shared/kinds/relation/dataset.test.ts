// Layouts, parameters files, the independent label check and the stratified splits of the
// relation datasets.
import { describe, expect, it } from 'vitest';
import { DatasetConfigSchema, planDataset, sampleId, SPLITS } from '../../../../src/shared/kinds/relation/dataset';
import { ENVIRONMENT_IDS, ENVIRONMENTS } from '../../../../src/shared/kinds/relation/environments';
import { sampleLayout } from '../../../../src/shared/kinds/relation/layout';
import { relationModel } from '../../../../src/shared/kinds/relation/models/index';
import { RelationParamsSchema } from '../../../../src/shared/kinds/relation/params';
import { generateSample, renderParams } from '../../../../src/shared/kinds/relation/sample';
import { verifyParams } from '../../../../src/shared/kinds/relation/verify';

describe('sampleLayout', () => {
  const config = DatasetConfigSchema.parse({ seed: 7, counts: { ego: 3, allo: 3 } });
  const plan = planDataset(config);
  const layouts = plan.map((s) => sampleLayout({ ...s }));

  it('covers all five environments, their three triples and both tasks', () => {
    for (const env of ENVIRONMENT_IDS) {
      for (const task of ['ego', 'allo']) {
        const got = new Set(layouts.filter((p) => p.environment === env && p.task === task).map((p) => p.triple));
        expect([...got].sort()).toEqual(ENVIRONMENTS[env].triples.map((t) => t.id).sort());
      }
    }
  });

  it('stores labels that an independent recomputation from the parameters file agrees with', () => {
    for (const p of layouts) {
      const reparsed = RelationParamsSchema.parse(JSON.parse(JSON.stringify(p)));
      expect(verifyParams(reparsed)).toEqual([]);
    }
  });

  it('places the wanted class, the roles by name, and never overlapping footprints', () => {
    for (const [i, p] of layouts.entries()) {
      expect(p.relation.label).toBe(plan[i].wanted);
      expect(p.actors.map((a) => a.role).sort()).toEqual(p.task === 'ego' ? ['person', 'reference', 'target'] : ['observer', 'reference', 'target']);
      const discs = [...p.actors, ...p.props].map((a) => ({ x: a.position[0], y: a.position[1], r: relationModel(a.label).footprint }));
      for (let a = 0; a < discs.length; a++) {
        for (let b = a + 1; b < discs.length; b++) {
          expect(Math.hypot(discs[a].x - discs[b].x, discs[a].y - discs[b].y)).toBeGreaterThan(discs[a].r + discs[b].r);
        }
      }
    }
  });

  it('is deterministic in its seed', () => {
    expect(sampleLayout({ ...plan[5] })).toEqual(layouts[5]);
  });
});

describe('verifyParams', () => {
  const p = sampleLayout({ environment: 'city', triple: 'hydrant-taxi', task: 'allo', wanted: 'left', seed: 3, id: 'x' });
  it('catches a swapped label, a moved target and an ambiguous position', () => {
    expect(verifyParams(p)).toEqual([]);
    expect(verifyParams({ ...p, relation: { ...p.relation, label: 'right' } }).join()).toMatch(/stored label right, recomputed left/);
    const ref = p.actors.find((a) => a.role === 'reference')!;
    const obs = p.actors.find((a) => a.role === 'observer')!;
    // Move the target onto the diagonal 45 deg left of forward: ambiguous.
    const f = Math.atan2(ref.position[1] - obs.position[1], ref.position[0] - obs.position[0]) + Math.PI / 4;
    const moved = p.actors.map((a) => a.role === 'target' ? { ...a, position: [ref.position[0] + 2 * Math.cos(f), ref.position[1] + 2 * Math.sin(f), 0] as [number, number, number] } : a);
    expect(verifyParams({ ...p, actors: moved }).join()).toMatch(/ambiguous sample/);
    expect(verifyParams({ ...p, facing: p.facing ? { ...p.facing, label: p.facing.label === 'back' ? 'front' : 'back' } : { angle_deg: 0, label: 'front' } }).join()).toMatch(/facing label/);
  });
});

describe('planDataset splits', () => {
  const plan = planDataset(DatasetConfigSchema.parse({ seed: 11, counts: { ego: 600, allo: 1200 } }));
  it('are disjoint, 80/10/10 within every environment, triple, task and class', () => {
    expect(new Set(plan.map((s) => s.id)).size).toBe(plan.length);
    const strata = new Map<string, Record<string, number>>();
    for (const s of plan) {
      const key = `${s.environment}/${s.triple}/${s.task}/${s.wanted}`;
      const c = strata.get(key) ?? { train: 0, val: 0, test: 0 };
      c[s.split]++;
      strata.set(key, c);
    }
    expect(strata.size).toBe(5 * 3 * 2 * 4);
    for (const [key, c] of strata) {
      const n = c.train + c.val + c.test;
      expect(n, key).toBe(key.includes('/ego/') ? 50 : 100);
      expect(c.train, key).toBe(Math.round(n * 0.8));
      expect(c.val, key).toBe(Math.round(n * 0.1));
    }
  });
  it('are seeded: the same seed gives the same split, another seed another', () => {
    const again = planDataset(DatasetConfigSchema.parse({ seed: 11, counts: { ego: 600, allo: 1200 } }));
    expect(again.map((s) => s.split)).toEqual(plan.map((s) => s.split));
    const other = planDataset(DatasetConfigSchema.parse({ seed: 12, counts: { ego: 600, allo: 1200 } }));
    expect(other.map((s) => s.split)).not.toEqual(plan.map((s) => s.split));
  });
  it('takes configurable fractions and rejects ones that do not add up', () => {
    const p = planDataset(DatasetConfigSchema.parse({ environments: ['forest'], counts: { ego: 240, allo: 0 }, splits: [0.5, 0.25, 0.25] }));
    expect(SPLITS.map((s) => p.filter((x) => x.split === s).length)).toEqual([120, 60, 60]);
    expect(DatasetConfigSchema.safeParse({ splits: [0.8, 0.1, 0.2] }).success).toBe(false);
  });
});

describe('generateSample', () => {
  it('renders a 224x224 image that the parameters file alone reproduces exactly', () => {
    const s = generateSample({ environment: 'forest', triple: 'tent-bear', task: 'allo', wanted: 'back', seed: 5, id: 'y' }, { samples: 1 });
    expect([s.image.width, s.image.height]).toEqual([224, 224]);
    expect(s.params.camera.intrinsics.fov_deg).toBe(53);
    for (const role of ['reference', 'target', 'observer']) expect(s.params.visible_pixels[role]).toBeGreaterThan(20);
    const again = renderParams(RelationParamsSchema.parse(JSON.parse(JSON.stringify(s.params))), { samples: 1 });
    expect(Buffer.from(again.rgb.data.buffer).equals(Buffer.from(s.image.data.buffer))).toBe(true);
  });
});

describe('the splat renderer option', () => {
  it('draws the actors as Gaussians close to the exact image', () => {
    const s = generateSample({ environment: 'city', triple: 'hydrant-taxi', task: 'ego', wanted: 'left', seed: 8, id: 'z' }, { samples: 1 });
    const splat = renderParams(s.params, { samples: 1, renderer: 'splats' });
    const env = renderParams({ ...s.params, actors: [] }, { samples: 1 }).rgb;
    let diff = 0, actorPixels = 0, actorDiff = 0;
    for (let i = 0; i < s.image.data.length; i += 3) {
      const d = Math.abs(splat.rgb.data[i] - s.image.data[i]) + Math.abs(splat.rgb.data[i + 1] - s.image.data[i + 1]) + Math.abs(splat.rgb.data[i + 2] - s.image.data[i + 2]);
      diff += d;
      // Pixels where the exact image shows an actor (it differs from the empty environment).
      if (Math.abs(env.data[i] - s.image.data[i]) + Math.abs(env.data[i + 1] - s.image.data[i + 1]) > 0.15) {
        actorPixels++;
        actorDiff += d;
      }
    }
    expect(actorPixels).toBeGreaterThan(100);
    expect(diff / (s.image.data.length / 3)).toBeLessThan(0.03);
    expect(actorDiff / actorPixels).toBeLessThan(0.3);
    expect(splat.visible).toMatchObject({ reference: expect.any(Number), target: expect.any(Number) });
  });
});

describe('sample ids', () => {
  it('join environment, triple, task and a five-digit index with double underscores', () => {
    expect(sampleId('kitchen', 'cup-plate-fork', 'ego', 7)).toBe('kitchen__cup-plate-fork__ego__00007');
    expect(sampleId('a', 'b', 'ego', 123456)).toBe('a__b__ego__123456');
  });
});
