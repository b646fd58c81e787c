// Four-legged animals of the relation environments: bear, fox, camel, husky and deer, each with
// the silhouette cues that make it recognisable at 224x224 (ears, snout, hump, antlers, tail).
// Output: validated ProceduralObject models facing +X and standing on z = -1.
import type { Part, Vec3 } from '../../../authoring/primitives';
import { fitted } from './fit';
import { ball, cone, rod } from './kit';

interface Quadruped {
  body: Vec3; // body semi-axes
  leg: number; // leg length below the body
  legRadius: number;
  color: string;
  head: number; // head radius
  neck: Vec3; // head centre offset from the body front-top
  snout: number; // snout length
  dark?: string; // nose, eyes
}

/** Body, four legs, neck and head with a snout; returns the parts and the head centre. */
function quadruped(q: Quadruped): { parts: Part[]; head: Vec3; tailRoot: Vec3 } {
  const [bx, by, bz] = q.body;
  const zBody = -1 + q.leg + bz * 0.8;
  const dark = q.dark ?? '#1a1410';
  const parts: Part[] = [ball([0, 0, zBody], q.body, q.color, undefined, 'body')];
  for (const sx of [1, -1]) {
    for (const sy of [1, -1]) {
      parts.push(rod([sx * bx * 0.6, sy * by * 0.55, zBody], [sx * bx * 0.6, sy * by * 0.55, -1 + q.legRadius * 0.2], q.legRadius, q.color, 'legs'));
    }
  }
  const shoulder: Vec3 = [bx * 0.75, 0, zBody + bz * 0.4];
  const head: Vec3 = [shoulder[0] + q.neck[0], 0, shoulder[2] + q.neck[2]];
  parts.push(rod(shoulder, head, q.head * 0.55, q.color, 'neck'));
  parts.push(ball(head, q.head, q.color, undefined, 'head'));
  parts.push(ball([head[0] + q.head * 0.7 + q.snout / 2, 0, head[2] - q.head * 0.25], [q.snout / 2 + 0.02, q.head * 0.45, q.head * 0.4], q.color, undefined, 'snout'));
  parts.push(ball([head[0] + q.head * 0.7 + q.snout + 0.01, 0, head[2] - q.head * 0.2], q.head * 0.18, dark, undefined, 'nose'));
  for (const sy of [1, -1]) parts.push(ball([head[0] + q.head * 0.75, sy * q.head * 0.5, head[2] + q.head * 0.3], q.head * 0.13, dark, undefined, 'eyes'));
  return { parts, head, tailRoot: [-bx * 0.95, 0, zBody + bz * 0.3] };
}

const bearBody = quadruped({ body: [0.62, 0.4, 0.38], leg: 0.42, legRadius: 0.14, color: '#5a3a22', head: 0.24, neck: [0.22, 0, 0.05], snout: 0.16 });
export const bear = fitted('bear', [
    ...bearBody.parts,
    ...[1, -1].map((sy) => ball([bearBody.head[0] - 0.05, sy * 0.17, bearBody.head[2] + 0.2], 0.08, '#4a2e1a', undefined, 'ears')),
    ball([bearBody.head[0] + 0.32, 0, bearBody.head[2] - 0.05], [0.1, 0.11, 0.08], '#a07a55', undefined, 'muzzle'),
]);

const foxBody = quadruped({ body: [0.5, 0.2, 0.2], leg: 0.36, legRadius: 0.06, color: '#d9661f', head: 0.17, neck: [0.2, 0, 0.14], snout: 0.2, dark: '#20150e' });
export const fox = fitted('fox', [
    ...foxBody.parts,
    ...[1, -1].map((sy) => cone([foxBody.head[0] - 0.02, sy * 0.09, foxBody.head[2] + 0.2], 0.07, 0.18, '#b8501a', undefined, 'ears')),
    ball([foxBody.tailRoot[0] - 0.25, 0, foxBody.tailRoot[2] - 0.05], [0.3, 0.11, 0.11], '#d9661f', [0, 20, 0], 'tail'),
    ball([foxBody.tailRoot[0] - 0.5, 0, foxBody.tailRoot[2] - 0.13], 0.1, '#f4efe8', undefined, 'tail'),
    ball([foxBody.head[0] + 0.15, 0, foxBody.head[2] - 0.1], [0.12, 0.1, 0.06], '#f4efe8', undefined, 'chin'),
]);

const camelBody = quadruped({ body: [0.5, 0.22, 0.22], leg: 0.85, legRadius: 0.06, color: '#c49a5e', head: 0.13, neck: [0.3, 0, 0.55], snout: 0.16 });
export const camel = fitted('camel', [
    ...camelBody.parts,
    ball([0.12, 0, -1 + 0.85 + 0.18 + 0.22], [0.2, 0.16, 0.2], '#b88d52', undefined, 'hump'),
    ball([-0.22, 0, -1 + 0.85 + 0.18 + 0.2], [0.18, 0.15, 0.18], '#b88d52', undefined, 'hump'),
    rod(camelBody.tailRoot, [camelBody.tailRoot[0] - 0.08, 0, camelBody.tailRoot[2] - 0.3], 0.025, '#8a6a3e', 'tail'),
    ...[1, -1].map((sy) => ball([camelBody.head[0] - 0.05, sy * 0.08, camelBody.head[2] + 0.1], 0.035, '#8a6a3e', undefined, 'ears')),
]);

const huskyBody = quadruped({ body: [0.5, 0.22, 0.24], leg: 0.4, legRadius: 0.07, color: '#6d7278', head: 0.18, neck: [0.18, 0, 0.14], snout: 0.16 });
export const husky = fitted('husky', [
    ...huskyBody.parts,
    ball([0.05, 0, -1 + 0.4 + 0.1], [0.42, 0.19, 0.14], '#f1f1ef', undefined, 'belly'),
    ball([huskyBody.head[0] + 0.2, 0, huskyBody.head[2] - 0.06], [0.12, 0.1, 0.08], '#f1f1ef', undefined, 'mask'),
    ...[1, -1].map((sy) => cone([huskyBody.head[0] - 0.03, sy * 0.09, huskyBody.head[2] + 0.2], 0.06, 0.15, '#4a4e53', undefined, 'ears')),
    ball([huskyBody.tailRoot[0] - 0.05, 0, huskyBody.tailRoot[2] + 0.2], [0.09, 0.08, 0.2], '#d8dadc', [0, -30, 0], 'tail'),
]);

const deerBody = quadruped({ body: [0.48, 0.2, 0.22], leg: 0.7, legRadius: 0.05, color: '#9a6234', head: 0.13, neck: [0.18, 0, 0.35], snout: 0.13 });
const antler = (sy: number): Part[] => {
  const base: Vec3 = [deerBody.head[0] - 0.04, sy * 0.07, deerBody.head[2] + 0.1];
  const top: Vec3 = [base[0] - 0.08, sy * 0.22, base[2] + 0.32];
  return [
    rod(base, top, 0.022, '#e0cfa8', 'antlers'),
    rod([base[0] - 0.04, sy * 0.14, base[2] + 0.15], [base[0] + 0.1, sy * 0.2, base[2] + 0.3], 0.018, '#e0cfa8', 'antlers'),
  ];
};
export const deer = fitted('deer', [
    ...deerBody.parts,
    ...antler(1),
    ...antler(-1),
    ball([deerBody.tailRoot[0] - 0.03, 0, deerBody.tailRoot[2] + 0.02], 0.07, '#f3ead8', undefined, 'tail'),
    ...[1, -1].map((sy) => ball([deerBody.head[0] - 0.02, sy * 0.12, deerBody.head[2] + 0.05], [0.03, 0.07, 0.04], '#7d4f2a', undefined, 'ears')),
]);
