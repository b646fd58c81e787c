// Table: a wooden top on four legs with a green ball, a red cup and a blue book on it, laid out
// as in the seed's example build call. Stands on z = -0.985; the top surface is at z = 0.12.
import type { Part } from '../primitives';
import { defineObject } from './build';

const TOP_Z = 0.12;

function leg(x: number, y: number): Part {
  // Legs reach 0.025 into the top so no visible faces are coplanar.
  return { kind: 'box', pos: [x, y, -0.46], size: [0.1, 0.1, 1.05], color: '#614019', group: 'legs' };
}

export const table = defineObject({
  name: 'table',
  parts: [
    { kind: 'box', pos: [0, 0, TOP_Z - 0.04], size: [1.7, 1.2, 0.08], color: '#805e31', group: 'top' },
    leg(0.7, 0.48),
    leg(0.7, -0.48),
    leg(-0.7, 0.48),
    leg(-0.7, -0.48),
    { kind: 'sphere', pos: [-0.4, -0.12, TOP_Z + 0.18], size: 0.19, color: '#15952d', group: 'ball' },
    { kind: 'cylinder', pos: [0.36, 0.03, TOP_Z + 0.14], size: { radius: 0.13, height: 0.3 }, color: '#b51c20', group: 'cup' },
    { kind: 'box', pos: [0, 0.23, TOP_Z + 0.05], rot: [0, 0, 12], size: [0.46, 0.32, 0.11], color: '#1c3aba', group: 'book' },
  ],
});
