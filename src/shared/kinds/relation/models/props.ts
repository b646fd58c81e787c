// Scenery of the relation environments (never a reference, target or observer): pines, bushes,
// houses, city blocks, lamp posts and dunes.
// Output: validated ProceduralObject models standing on z = -1.
import type { Part } from '../../../authoring/primitives';
import { fitted } from './fit';
import { ball, box, cone, cyl } from './kit';

const pineParts = (snow: boolean): Part[] => [
  cyl([0, 0, -0.8], 0.1, 0.4, '#5a3a22', undefined, 'trunk'),
  cone([0, 0, -0.3], 0.6, 0.8, '#245c34', undefined, 'needles'),
  cone([0, 0, 0.15], 0.48, 0.7, '#2b6a3c', undefined, 'needles'),
  cone([0, 0, 0.55], 0.34, 0.7, '#327444', undefined, 'needles'),
  ...(snow ? [cone([0, 0, 0.72], 0.22, 0.36, '#f4f7fb', undefined, 'snow')] : []),
];

export const pine = fitted('pine', pineParts(false));
export const snowyPine = fitted('snowy_pine', pineParts(true));

export const bush = fitted('bush', [
    ball([0, 0, -0.55], [0.8, 0.7, 0.45], '#3b7d2e', undefined, 'leaves'),
    ball([0.3, 0.2, -0.35], 0.4, '#4a8f36', undefined, 'leaves'),
]);

const TILT = 48;
const houseParts = (wall: string, roof: string): Part[] => [
  box([0, 0, -0.45], [1.6, 1.3, 1.1], wall, undefined, 'walls'),
  box([0, 0.36, 0.32], [1.7, 0.95, 0.1], roof, [-TILT, 0, 0], 'roof'),
  box([0, -0.36, 0.32], [1.7, 0.95, 0.1], roof, [TILT, 0, 0], 'roof'),
  box([0.805, 0, -0.7], [0.02, 0.3, 0.6], '#4b3020', undefined, 'door'),
  box([0.805, 0.42, -0.35], [0.02, 0.26, 0.26], '#f6d98a', undefined, 'windows'),
  box([0.805, -0.42, -0.35], [0.02, 0.26, 0.26], '#f6d98a', undefined, 'windows'),
];
export const snowyHouse = fitted('snowy_house', houseParts('#8c4b3a', '#f1f4f8'));

export const building = fitted('building', [
    box([0, 0, -0.02], [1.2, 1.2, 1.96], '#9aa0a8', undefined, 'block'),
    ...[-0.55, -0.05, 0.45].map((z) => box([0, 0, z], [1.22, 1.22, 0.22], '#3f5a78', undefined, 'windows')),
    box([0, 0, 0.97], [1.25, 1.25, 0.04], '#6c7078', undefined, 'roof'),
]);

export const lamp = fitted('lamp', [
    cyl([0, 0, -0.1], 0.04, 1.8, '#2e3136', undefined, 'pole'),
    box([0.12, 0, 0.8], [0.3, 0.08, 0.04], '#2e3136', undefined, 'arm'),
    ball([0.24, 0, 0.74], [0.09, 0.07, 0.05], '#fff2b8', undefined, 'light'),
]);

export const dune = fitted('dune', [ball([0, 0, -1], [0.98, 0.7, 0.4], '#d2ad74', undefined, 'sand'), ball([0.3, 0.2, -1], [0.6, 0.5, 0.3], '#dcb884', undefined, 'sand')]);
