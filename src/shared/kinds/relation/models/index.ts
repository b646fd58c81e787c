// Catalogue of every relation model: the validated unit-cube definition, its world scale
// (metres per half cube side, so a model stands 2 * scale tall at most) and its footprint.
// Output: lookups by model name. Invariant: keys equal each model's `name`.
import type { ProceduralObject } from '../../../authoring/primitives';
import { partAabb } from '../../../authoring/geometry';
import { snowman } from '../../../authoring/objects/snowman';
import { bear, camel, deer, fox, husky } from './animals';
import { human } from './human';
import { building, bush, dune, lamp, pine, snowyHouse, snowyPine } from './props';
import { barrel, cactus, hydrant, rock, tent, trafficCone, trashBin, tree } from './things';
import { bike, taxi, truck, vespa } from './vehicles';

export interface RelationModel {
  object: ProceduralObject;
  /** Metres per unit of the object's cube: the model is at most 2 * scale metres tall. */
  scale: number;
  /** Radius (metres) of a ground circle about the origin holding every part: the no-overlap disc. */
  footprint: number;
}

/**
 * Scales compress real sizes (a truck is not 20 times a cone) so that every object of a triple
 * stays readable at 224x224 from the same camera.
 */
const SCALES: Readonly<Record<string, number>> = {
  tree: 1.6, rock: 0.6, bear: 0.8, tent: 0.9, fox: 0.7, truck: 1.5, camel: 1.1, cactus: 1.0,
  barrel: 0.55, husky: 0.7, snowman: 0.8, deer: 0.9, bike: 0.75, trash_bin: 0.5, vespa: 0.75,
  cone: 0.5, taxi: 1.25, hydrant: 0.5, human: 0.9,
  pine: 2.2, snowy_pine: 2.2, bush: 0.8, snowy_house: 2.6, building: 4.5, lamp: 2.0, dune: 3.5,
};

const OBJECTS: readonly ProceduralObject[] = [
  tree, rock, bear, tent, fox, truck, camel, cactus, barrel, husky, snowman, deer, bike, trashBin,
  vespa, trafficCone, taxi, hydrant, human, pine, snowyPine, bush, snowyHouse, building, lamp, dune,
];

function footprint(obj: ProceduralObject, scale: number): number {
  let r = 0;
  for (const part of obj.parts) {
    const { min, max } = partAabb(part);
    for (const x of [min[0], max[0]]) for (const y of [min[1], max[1]]) r = Math.max(r, Math.hypot(x, y));
  }
  return r * scale;
}

export const RELATION_MODELS: Readonly<Record<string, RelationModel>> = Object.freeze(Object.fromEntries(OBJECTS.map((object) => {
  const scale = SCALES[object.name];
  if (scale === undefined) throw new Error(`relation model '${object.name}' has no scale`);
  return [object.name, { object, scale, footprint: footprint(object, scale) }];
})));

export function relationModel(name: string): RelationModel {
  const m = Object.hasOwn(RELATION_MODELS, name) ? RELATION_MODELS[name] : undefined;
  if (!m) throw new Error(`unknown relation model '${name}' (known: ${Object.keys(RELATION_MODELS).join(', ')})`);
  return m;
}
