// Tree: a brown trunk under three stacked green cones (a fir), a few red baubles and a yellow
// star-ball on top. Stands on z = -0.98.
import type { Part } from '../primitives';
import { defineObject } from './build';

function bauble(azimuth: number, radius: number, z: number): Part {
  const a = (azimuth * Math.PI) / 180;
  const r = (v: number) => Math.round(v * 1e4) / 1e4;
  return { kind: 'sphere', pos: [r(radius * Math.cos(a)), r(radius * Math.sin(a)), z], size: 0.055, color: '#d3263a', group: 'baubles' };
}

export const tree = defineObject({
  name: 'tree',
  parts: [
    { kind: 'cylinder', pos: [0, 0, -0.76], size: { radius: 0.13, height: 0.44 }, color: '#7a4f2a', group: 'trunk' },
    { kind: 'cone', pos: [0, 0, -0.26], size: { radius: 0.78, height: 0.72 }, color: '#1f6b2e', group: 'foliage' },
    { kind: 'cone', pos: [0, 0, 0.13], size: { radius: 0.62, height: 0.64 }, color: '#2e8a3c', group: 'foliage' },
    { kind: 'cone', pos: [0, 0, 0.5], size: { radius: 0.45, height: 0.58 }, color: '#3fa84b', group: 'foliage' },
    { kind: 'sphere', pos: [0, 0, 0.83], size: 0.08, color: '#f2c230', group: 'star' },
    bauble(20, 0.64, -0.5),
    bauble(140, 0.64, -0.5),
    bauble(260, 0.64, -0.5),
    bauble(80, 0.54, -0.12),
    bauble(200, 0.54, -0.12),
    bauble(320, 0.54, -0.12),
  ],
});
