// The five relation environments (forest, desert, winter town, bridge, city): ground and sky
// colours, the scenery drawn around every layout, fixed structures and the three object triples.
// Output: frozen EnvironmentSpec records by id. Invariant: each triple names two models of the
// catalogue (reference first, target second) with SpaRRTa's roles (the rotationally symmetric
// object is the reference, the oriented one the target; docs/RELATION.md, "Roles") and the
// SpaRRTa configuration it comes from; the observer of the allocentric task is `human`.
import type { Part } from '../../authoring/primitives';
import { box } from './models/kit';

export const ENVIRONMENT_IDS = ['forest', 'desert', 'winter_town', 'bridge', 'city'] as const;
export type EnvironmentId = (typeof ENVIRONMENT_IDS)[number];

export interface TripleSpec {
  /** Folder-safe id, `<reference>-<target>` (SpaRRTa's roles, also when a dataset swaps them). */
  id: string;
  reference: string;
  target: string;
  /**
   * Where SpaRRTa configures this triple: its environment key (the data folder
   * `<key>/mid-objects` and the `environment=` of its training command) and its Unreal actor
   * labels (`dataset.reference_label`, `dataset.target_label`), from scripts/position_config.yaml
   * of SpaRRTa's released code (docs/RELATION.md cites the commit).
   */
  sparrta: { environment: string; reference: string; target: string };
}

export interface PropSpec {
  model: string;
  /** How many to scatter around the layout (they land beyond the objects, never on them). */
  count: number;
}

export interface EnvironmentSpec {
  id: EnvironmentId;
  title: string;
  ground: string; // '#rrggbb'
  /** A second ground colour for a coarse 2 m checker of tiles, the cue for distance. */
  groundAlt: string;
  sky: string; // at the horizon
  zenith: string;
  props: PropSpec[];
  /** Fixed world-space parts (a bridge deck and its railings), in metres. */
  structures: Part[];
  /** Where the objects stand: a disc of this radius (metres) about the origin... */
  layoutRadius: number;
  /** ...and, for a bridge, inside |y| <= this half width. */
  halfWidth?: number;
  /** Camera azimuths (degrees about the layout) allowed; default the full circle. */
  cameraAzimuths?: [number, number][];
  triples: [TripleSpec, TripleSpec, TripleSpec];
}

/** SpaRRTa's actor label of a model: `trash_bin` -> `TrashBin`. */
export const sparrtaLabel = (model: string): string => model.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('');

/** The k-th triple (1-based) of an environment; SpaRRTa keys the second and third `<env>_2`, `<env>_3`. */
const triple = (env: string, k: number, reference: string, target: string): TripleSpec => ({
  id: `${reference}-${target}`, reference, target,
  sparrta: { environment: k === 1 ? env : `${env}_${k}`, reference: sparrtaLabel(reference), target: sparrtaLabel(target) },
});
const triples = (env: string, ...pairs: [string, string][]): [TripleSpec, TripleSpec, TripleSpec] =>
  pairs.map(([r, t], i) => triple(env, i + 1, r, t)) as [TripleSpec, TripleSpec, TripleSpec];

/** The bridge deck spans x in [-30, 30], |y| <= 4.2, top at z = 0, over water at z = -3. */
const DECK_HALF_WIDTH = 4.2;
const bridgeStructures: Part[] = [
  box([0, 0, -0.4], [60, 2 * DECK_HALF_WIDTH, 0.8], '#6b6b70', undefined, 'deck'),
  box([0, 0, 0.003], [60, 0.12, 0.01], '#e8e2c0', undefined, 'centre line'),
  ...[1, -1].flatMap((sy): Part[] => [
    box([0, sy * (DECK_HALF_WIDTH - 0.1), 0.95], [60, 0.12, 0.1], '#9a3b2c', undefined, 'railings'),
    box([0, sy * (DECK_HALF_WIDTH - 0.1), 0.45], [60, 0.05, 0.05], '#9a3b2c', undefined, 'railings'),
    ...[-24, -16, -8, 0, 8, 16, 24].map((x) => box([x, sy * (DECK_HALF_WIDTH - 0.1), 0.5], [0.14, 0.14, 1], '#9a3b2c', undefined, 'posts')),
  ]),
];

export const ENVIRONMENTS: Readonly<Record<EnvironmentId, EnvironmentSpec>> = Object.freeze({
  forest: {
    id: 'forest', title: 'Forest', ground: '#5d7a36', groundAlt: '#557232', sky: '#cfe1ee', zenith: '#7fa9d6',
    props: [{ model: 'pine', count: 7 }, { model: 'bush', count: 4 }],
    structures: [], layoutRadius: 3.2,
    triples: triples('forest', ['tree', 'rock'], ['tent', 'bear'], ['rock', 'fox']),
  },
  desert: {
    id: 'desert', title: 'Desert', ground: '#d9bd8c', groundAlt: '#d2b584', sky: '#f0e2c4', zenith: '#8fb5d8',
    props: [{ model: 'dune', count: 4 }, { model: 'rock', count: 2 }],
    structures: [], layoutRadius: 3.2,
    triples: triples('desert', ['rock', 'truck'], ['cactus', 'camel'], ['barrel', 'camel']),
  },
  winter_town: {
    id: 'winter_town', title: 'Winter town', ground: '#eef2f6', groundAlt: '#e3e9ef', sky: '#d5dce4', zenith: '#9fb1c6',
    props: [{ model: 'snowy_house', count: 4 }, { model: 'snowy_pine', count: 4 }],
    structures: [], layoutRadius: 3.2,
    triples: triples('winter_town', ['tree', 'truck'], ['snowman', 'husky'], ['tree', 'deer']),
  },
  bridge: {
    id: 'bridge', title: 'Bridge', ground: '#3f6f8c', groundAlt: '#3b6985', sky: '#d9e6ef', zenith: '#86aed3',
    props: [{ model: 'lamp', count: 4 }],
    structures: bridgeStructures, layoutRadius: 3.4, halfWidth: DECK_HALF_WIDTH - 0.5,
    cameraAzimuths: [[-40, 40], [140, 220]],
    triples: triples('bridge', ['tree', 'truck'], ['trash_bin', 'bike'], ['trash_bin', 'vespa']),
  },
  city: {
    id: 'city', title: 'City', ground: '#5b5e63', groundAlt: '#54575c', sky: '#d3dbe3', zenith: '#8da9c7',
    props: [{ model: 'building', count: 6 }, { model: 'lamp', count: 3 }],
    structures: [], layoutRadius: 3.2,
    triples: triples('city', ['cone', 'vespa'], ['hydrant', 'taxi'], ['cone', 'bike']),
  },
});

/** Height of the ground plane: the bridge's water lies below the deck the objects stand on. */
export function groundLevel(env: EnvironmentSpec): number {
  return env.id === 'bridge' ? -3 : 0;
}

export function environment(id: string): EnvironmentSpec {
  const env = (ENVIRONMENTS as Record<string, EnvironmentSpec | undefined>)[id];
  if (!env) throw new Error(`unknown relation environment '${id}' (known: ${ENVIRONMENT_IDS.join(', ')})`);
  return env;
}

export function tripleOf(env: EnvironmentSpec, tripleId: string): TripleSpec {
  const t = env.triples.find((x) => x.id === tripleId);
  if (!t) throw new Error(`environment ${env.id} has no triple '${tripleId}' (known: ${env.triples.map((x) => x.id).join(', ')})`);
  return t;
}
