// SpaRRTa's roles: every triple's reference (the rotationally symmetric object) and target (the
// oriented one) as SpaRRTa's released configuration has them (scripts/position_config.yaml of its
// public code, the list in issue 25), with its environment keys and actor labels; and the
// dataset option that swaps them, off by default and recorded in every parameters file.
import { describe, expect, it } from 'vitest';
import { DatasetConfigSchema, planDataset } from '../../../../src/shared/kinds/relation/dataset';
import { ENVIRONMENT_IDS, ENVIRONMENTS } from '../../../../src/shared/kinds/relation/environments';
import { sampleLayout } from '../../../../src/shared/kinds/relation/layout';
import { actorOf } from '../../../../src/shared/kinds/relation/params';

/** SpaRRTa's environment key -> [reference_label, target_label]. */
const SPARRTA: Record<string, [string, string]> = {
  forest: ['Tree', 'Rock'], forest_2: ['Tent', 'Bear'], forest_3: ['Rock', 'Fox'],
  desert: ['Rock', 'Truck'], desert_2: ['Cactus', 'Camel'], desert_3: ['Barrel', 'Camel'],
  winter_town: ['Tree', 'Truck'], winter_town_2: ['Snowman', 'Husky'], winter_town_3: ['Tree', 'Deer'],
  bridge: ['Tree', 'Truck'], bridge_2: ['TrashBin', 'Bike'], bridge_3: ['TrashBin', 'Vespa'],
  city: ['Cone', 'Vespa'], city_2: ['Hydrant', 'Taxi'], city_3: ['Cone', 'Bike'],
};

describe('relation triples', () => {
  it('have SpaRRTa\'s reference and target, triple by triple', () => {
    const ours: Record<string, [string, string]> = {};
    for (const env of ENVIRONMENT_IDS) {
      for (const t of ENVIRONMENTS[env].triples) {
        ours[t.sparrta.environment] = [t.sparrta.reference, t.sparrta.target];
        // The lab's model names are SpaRRTa's labels, lower case with underscores.
        expect([t.reference, t.target].map((m) => m.replace('_', ''))).toEqual([t.sparrta.reference.toLowerCase(), t.sparrta.target.toLowerCase()]);
        expect(t.id).toBe(`${t.reference}-${t.target}`);
      }
    }
    expect(ours).toEqual(SPARRTA);
  });

  it('keep SpaRRTa\'s roles by default; `roles: swapped` makes the oriented object the reference, recorded', () => {
    const plain = DatasetConfigSchema.parse({ environments: ['desert'], counts: { ego: 3, allo: 0 } });
    expect(plain.roles).toBe('sparrta');
    const swapped = DatasetConfigSchema.parse({ environments: ['desert'], counts: { ego: 3, allo: 0 }, roles: 'swapped' });
    const [a] = planDataset(plain), [b] = planDataset(swapped);
    expect(a.swapRoles).toBe(false);
    expect(b.swapRoles).toBe(true);
    const pa = sampleLayout(a), pb = sampleLayout(b);
    expect([actorOf(pa, 'reference').label, actorOf(pa, 'target').label, pa.roles]).toEqual(['rock', 'truck', 'sparrta']);
    expect([actorOf(pb, 'reference').label, actorOf(pb, 'target').label, pb.roles]).toEqual(['truck', 'rock', 'swapped']);
    expect(pb.triple).toBe('rock-truck');
  });
});
