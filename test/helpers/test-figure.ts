// The test task's known scene: a 12-Gaussian figure (legs, body, arms, head with nose, eyes, hat
// and a feather) in two groups, plus its perturbed "fit" and its scrambled reassembly start.
// Pure data + seeded transforms, shared by the test-task builder, tests and the UI's fixtures.
// Invariant: the figure is asymmetric (nose towards +X, feather towards +Y) so orientation errors
// show in every metric, and every value lies inside the scene limits.
import { eulerToQuat, quatNormalize } from '../../src/shared/math/quaternion';
import { mulberry32 } from '../../src/shared/math/random';
import type { Vec3 } from '../../src/shared/math/vec3';
import type { GaussianRecord } from '../../src/shared/scene/gaussian';
import { transformRecords } from '../../src/shared/scene/transform';

type Part = [group: string, pos: Vec3, scale: Vec3, euler: Vec3, color: string, opacity?: number];

const PARTS: Part[] = [
  ['body', [0, 0, -0.15], [0.28, 0.22, 0.32], [0, 0, 0], '#c8413a'],
  ['body', [0, -0.38, -0.02], [0.06, 0.2, 0.06], [25, 0, 0], '#3c9a48'],
  ['body', [0, 0.38, -0.02], [0.06, 0.2, 0.06], [-25, 0, 0], '#3c9a48'],
  ['body', [0, -0.13, -0.7], [0.08, 0.08, 0.2], [0, 0, 0], '#2f56b8'],
  ['body', [0, 0.13, -0.7], [0.08, 0.08, 0.2], [0, 0, 0], '#2f56b8'],
  ['body', [0.27, 0, -0.05], [0.03, 0.1, 0.1], [0, 0, 0], '#f2f2a0'],
  ['head', [0, 0, 0.38], [0.19, 0.19, 0.18], [0, 0, 0], '#e8b64a'],
  ['head', [0.2, 0, 0.36], [0.07, 0.035, 0.035], [0, 0, 0], '#e0701c'],
  ['head', [0.16, -0.07, 0.45], [0.025, 0.025, 0.025], [0, 0, 0], '#1a1a1a'],
  ['head', [0.16, 0.07, 0.45], [0.025, 0.025, 0.025], [0, 0, 0], '#1a1a1a'],
  ['head', [0, 0, 0.57], [0.22, 0.22, 0.035], [0, 0, 0], '#5a2e78'],
  ['head', [0, 0.12, 0.72], [0.025, 0.025, 0.11], [30, 0, 0], '#d23ca0', 0.9],
];

function hex(c: string): Vec3 {
  const n = parseInt(c.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/** Parts are laid out at unit size and enlarged so the figure fills most of the bounds cube. */
const SIZE = 1.35;

/** The true scene: 12 Gaussians, ids 0..11, groups 'body' and 'head'. */
export function testFigure(): GaussianRecord[] {
  return PARTS.map(([group, pos, scale, euler, color, opacity], id) => ({
    id,
    pos: pos.map((v) => v * SIZE) as Vec3,
    scale: scale.map((v) => v * SIZE) as Vec3,
    quat: quatNormalize(eulerToQuat(euler)),
    color: hex(color),
    opacity: opacity ?? 1,
    group,
  }));
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** A slightly wrong copy (seeded): the test task's stand-in for the gradient-descent fit. */
export function perturbedFigure(seed = 7): GaussianRecord[] {
  const rng = mulberry32(seed);
  return testFigure().map((r) => ({
    ...r,
    pos: r.pos.map((v) => v + rng.uniform(-0.02, 0.02)) as Vec3,
    scale: r.scale.map((v) => clamp(v * rng.uniform(0.93, 1.07), 0.005, 0.5)) as Vec3,
    color: r.color.map((v) => clamp(v + rng.uniform(-0.04, 0.04), 0, 1)) as Vec3,
  }));
}

/** How the reassembly start was made from the truth (for tests and part-pose analysis). */
export const SCRAMBLE = [
  { from: 'head', label: 'part_2', rotateDeg: 120, translate: [0.35, 0.45, -0.75] as Vec3 },
  { from: 'body', label: 'part_1', rotateDeg: -75, translate: [-0.25, -0.3, 0.25] as Vec3 },
] as const;

/** The truth with each group turned about Z about its centroid, moved, and relabelled. */
export function scrambledFigure(): GaussianRecord[] {
  const truth = testFigure();
  const out: GaussianRecord[] = [];
  for (const s of SCRAMBLE) {
    const part = truth.filter((r) => r.group === s.from);
    const moved = transformRecords(part, { rotateDeg: s.rotateDeg, translate: [...s.translate] }).records;
    out.push(...moved.map((r) => ({ ...r, group: s.label })));
  }
  return out.sort((a, b) => a.id - b.id);
}
