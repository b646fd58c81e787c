// Snowman: three stacked snowballs with a top hat, red scarf, coal eyes and buttons, a carrot
// nose and stick arms. Faces +X (towards reference view V0); stands on z = -0.97.
import type { Part, Vec3 } from '../primitives';
import { alignZ, defineObject, offset, onEllipsoid } from './build';

const SNOW = '#e6ebf2';
const COAL = '#1d1f24';
const BODY: Vec3 = [0, 0, -0.55];
const CHEST: Vec3 = [0, 0, 0.05];
const HEAD: Vec3 = [0, 0, 0.52];

function eye(side: number): Part {
  const { pos } = onEllipsoid(HEAD, [0.22, 0.22, 0.22], 28 * side, 72);
  return { kind: 'sphere', pos, size: 0.032, color: COAL, group: 'eyes' };
}

function button(polar: number): Part {
  const { pos } = onEllipsoid(CHEST, [0.31, 0.31, 0.31], 0, polar);
  return { kind: 'sphere', pos, size: 0.036, color: COAL, group: 'buttons' };
}

function arm(side: number): Part {
  const dir: Vec3 = [0, side * Math.cos(Math.PI / 6), Math.sin(Math.PI / 6)];
  const start: Vec3 = [0, side * 0.24, 0.12];
  return { kind: 'cylinder', pos: offset(start, dir, 0.24), rot: alignZ(dir), size: { radius: 0.025, height: 0.48 }, color: '#6d4a2b', group: 'arms' };
}

export const snowman = defineObject({
  name: 'snowman',
  parts: [
    { kind: 'sphere', pos: BODY, size: 0.42, color: SNOW, group: 'body' },
    { kind: 'sphere', pos: CHEST, size: 0.31, color: SNOW, group: 'body' },
    { kind: 'sphere', pos: HEAD, size: 0.22, color: SNOW, group: 'head' },
    { kind: 'cylinder', pos: [0, 0, 0.305], size: { radius: 0.235, height: 0.07 }, color: '#c62f36', group: 'scarf' },
    { kind: 'cylinder', pos: [0, 0, 0.72], size: { radius: 0.25, height: 0.04 }, color: '#22252b', group: 'hat' },
    { kind: 'cylinder', pos: [0, 0, 0.855], size: { radius: 0.15, height: 0.25 }, color: '#22252b', group: 'hat' },
    { kind: 'cylinder', pos: [0, 0, 0.77], size: { radius: 0.153, height: 0.05 }, color: '#8e2a8f', group: 'hat' },
    eye(1),
    eye(-1),
    { kind: 'cone', pos: [0.3, 0, 0.5], rot: [0, 90, 0], size: { radius: 0.05, height: 0.24 }, color: '#f08a24', group: 'nose' },
    button(62),
    button(85),
    button(108),
    arm(1),
    arm(-1),
  ],
});
