// Rocket: a white body with a red nose cone, a red band, four red fins, a round blue window with
// a grey frame facing +X (reference view V0) and a dark nozzle. Stands on z = -0.96.
import type { Part } from '../primitives';
import { defineObject } from './build';

const FIN_RADIUS = 0.42; // distance of a fin's centre from the body axis

function fin(azimuth: number): Part {
  const a = (azimuth * Math.PI) / 180;
  const pos: [number, number, number] = [FIN_RADIUS * Math.cos(a), FIN_RADIUS * Math.sin(a), -0.7];
  return {
    kind: 'box', pos: pos.map((v) => Math.round(v * 1e4) / 1e4) as [number, number, number], rot: [0, 0, azimuth],
    size: [0.36, 0.05, 0.44], color: '#d8322b', group: 'fins',
  };
}

export const rocket = defineObject({
  name: 'rocket',
  parts: [
    { kind: 'cylinder', pos: [0, 0, -0.25], size: { radius: 0.26, height: 1.1 }, color: '#dfe3ea', group: 'body' },
    { kind: 'cone', pos: [0, 0, 0.6], size: { radius: 0.275, height: 0.6 }, color: '#d8322b', group: 'nose' },
    { kind: 'cylinder', pos: [0, 0, -0.42], size: { radius: 0.268, height: 0.07 }, color: '#d8322b', group: 'body' },
    { kind: 'cylinder', pos: [0, 0, -0.86], size: { radius: 0.18, height: 0.2 }, color: '#4a4d55', group: 'nozzle' },
    fin(45),
    fin(135),
    fin(225),
    fin(315),
    { kind: 'cylinder', pos: [0.245, 0, 0.05], rot: [0, 90, 0], size: { radius: 0.14, height: 0.06 }, color: '#8a8f99', group: 'window' },
    { kind: 'cylinder', pos: [0.265, 0, 0.05], rot: [0, 90, 0], size: { radius: 0.1, height: 0.06 }, color: '#3d9be0', group: 'window' },
  ],
});
