// A seeded random player over any kind's tools (docs/AGENTS.md "Seeds"): the `scripted:random`
// model of `splatlab eval` and `splatlab play --random` draw their calls from it, so the same seed
// gives the same calls and, the environment being deterministic, the same trajectory less times.
// Inputs: the tool names the episode offers, a seeded Random. Output: one {tool, args} per draw.
// Invariant: only the Random decides (no clock, no Math.random); calls are well formed, but may be
// refused by the environment like any player's (a render with no renders left).
import type { Random } from '../math/random';

export interface RandomCall {
  name: string;
  args: Record<string, unknown>;
}

const RELATIONS = ['front', 'back', 'left', 'right'] as const;
const MOVES = ['move_forward', 'move_back', 'move_left', 'move_right', 'turn_left', 'turn_right', 'look_up', 'look_down'] as const;
const round = (v: number): number => Math.round(v * 1000) / 1000;

function gaussian(rng: Random): Record<string, unknown> {
  const hex = (): string => rng.int(256).toString(16).padStart(2, '0');
  return { pos: [round(rng.uniform(-0.8, 0.8)), round(rng.uniform(-0.8, 0.8)), round(rng.uniform(-0.8, 0.8))], color: `#${hex()}${hex()}${hex()}`, scale: round(rng.uniform(0.03, 0.25)) };
}

/** The next call of the random player for an episode offering `tools`. */
export function randomCall(tools: readonly string[], rng: Random): RandomCall {
  if (tools.includes('answer')) return { name: 'answer', args: { relation: RELATIONS[rng.int(RELATIONS.length)] } };
  if (tools.includes('stop')) {
    if (rng.next() < 0.15) return { name: 'stop', args: { answer: 'red' } };
    return { name: MOVES[rng.int(MOVES.length)], args: {} };
  }
  const r = rng.next();
  if (r < 0.1 && tools.includes('submit')) return { name: 'submit', args: {} };
  if (r < 0.2 && tools.includes('describe_groups')) return { name: 'describe_groups', args: {} };
  if (r < 0.3 && tools.includes('render_angle')) return { name: 'render_angle', args: { azimuth: rng.int(360), elevation: rng.int(80) } };
  return { name: 'add_gaussians', args: { gaussians: Array.from({ length: 1 + rng.int(3) }, () => gaussian(rng)) } };
}
