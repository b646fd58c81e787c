// Robot: a boxy grey head with cyan eyes, a mouth slot and an antenna; a blue chest with a yellow
// panel, a dark lower torso, grey arms and two legs with feet. Faces +X (reference view V0);
// stands on z = -0.98.
import type { Part } from '../primitives';
import { defineObject } from './build';

const METAL = '#9aa3b0';

function arm(side: number): Part {
  return { kind: 'box', pos: [0, side * 0.39, -0.06], size: [0.16, 0.15, 0.56], color: METAL, group: 'arms' };
}

function leg(side: number): Part {
  return { kind: 'box', pos: [0, side * 0.15, -0.68], size: [0.19, 0.17, 0.5], color: '#525b69', group: 'legs' };
}

function foot(side: number): Part {
  return { kind: 'box', pos: [0.05, side * 0.15, -0.925], size: [0.32, 0.21, 0.11], color: '#373d48', group: 'legs' };
}

function eye(side: number): Part {
  return { kind: 'sphere', pos: [0.19, side * 0.1, 0.52], size: 0.055, color: '#22c8e6', group: 'head' };
}

export const robot = defineObject({
  name: 'robot',
  parts: [
    { kind: 'box', pos: [0, 0, 0.5], size: [0.38, 0.46, 0.36], color: METAL, group: 'head' },
    eye(1),
    eye(-1),
    { kind: 'box', pos: [0.19, 0, 0.4], size: [0.03, 0.22, 0.045], color: '#2a2f38', group: 'head' },
    { kind: 'cylinder', pos: [0, 0, 0.76], size: { radius: 0.02, height: 0.22 }, color: '#5b6270', group: 'head' },
    { kind: 'sphere', pos: [0, 0, 0.89], size: 0.055, color: '#e0383e', group: 'head' },
    { kind: 'cylinder', pos: [0, 0, 0.27], size: { radius: 0.09, height: 0.14 }, color: '#5b6270', group: 'neck' },
    { kind: 'box', pos: [0, 0, -0.02], size: [0.44, 0.64, 0.5], color: '#2f6fd6', group: 'chest' },
    { kind: 'box', pos: [0.215, 0, 0.04], size: [0.03, 0.26, 0.18], color: '#f2c230', group: 'chest' },
    { kind: 'box', pos: [0, 0, -0.36], size: [0.36, 0.5, 0.2], color: '#1f3c78', group: 'lower torso' },
    arm(1),
    arm(-1),
    leg(1),
    leg(-1),
    foot(1),
    foot(-1),
  ],
});
