// Baseline players of search tasks (docs/DESIGN.md section 9): E3VS's Random Action (uniform
// actions, a uniform answer over the question's answer space), a blind answer, an
// answer from the start view, and the BFS oracle that walks the shortest path to an answerable
// view and answers from it (the goal-view oracle). Each plays through the same SearchRules.
// Inputs: a task spec, the room's collider and visibility, a seed and the blind prior.
// Output: the calls the player made. Invariant: players see only what a player may see plus,
// for the oracles, what their name says (the oracle reads the answer once its view answers).
import type { ToolCall } from '../../env/step';
import { mulberry32 } from '../../math/random';
import { searchRules, type SearchTaskSpec } from './kind';
import { answerText, type Answer } from './answers';
import type { Collider } from './collide';
import { MOTION_ACTIONS } from './pose';
import type { Answerability } from './answerability';
import { motionWorld, searchAnswerable } from './world';
import { pathTo } from './astar';
import { answerSpace } from './chance';

export const BASELINES = ['random', 'blind', 'start-view', 'oracle'] as const;
export type Baseline = (typeof BASELINES)[number];

/**
 * The blind prior: per question family, the most common answer in a task set (ties: first seen).
 * Pass the set without the task being answered (leave one out), or the prior knows its answer.
 */
export function blindPrior(specs: readonly SearchTaskSpec[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const s of specs) {
    const fam = counts.get(s.question.family) ?? new Map<string, number>();
    const a = answerText(s.question.answer);
    fam.set(a, (fam.get(a) ?? 0) + 1);
    counts.set(s.question.family, fam);
  }
  const out = new Map<string, string>();
  for (const [fam, m] of counts) out.set(fam, [...m].sort((a, b) => b[1] - a[1])[0][0]);
  return out;
}

function guess(answer: Answer, prior: Map<string, string>, family: string): string {
  return prior.get(family) ?? (answer.type === 'yesno' ? 'yes' : answer.type === 'number' ? '1' : answer.type === 'choice' ? answer.choices[0] : 'red');
}

/**
 * E3VS's Random Action baseline: each step one of the eleven actions uniformly (the ten motions
 * and stop); stop, or the last step of the budget, answers uniformly over the question's answer
 * space ("I do not know" when the space is open).
 */
export function randomAction(spec: SearchTaskSpec, seed: number): ToolCall[] {
  const rng = mulberry32(seed);
  const calls: ToolCall[] = [];
  while (calls.length < spec.max_steps - 1) {
    const a = rng.int(MOTION_ACTIONS.length + 1);
    if (a === MOTION_ACTIONS.length) break;
    calls.push({ tool: MOTION_ACTIONS[a] });
  }
  const space = answerSpace(spec.question);
  calls.push({ tool: 'stop', args: { answer: space?.length ? space[rng.int(space.length)] : 'I do not know' } });
  return calls;
}

export function playBaseline(name: Baseline, spec: SearchTaskSpec, collider: Collider, vis: Answerability, prior: Map<string, string>, seed = 0): ToolCall[] {
  const q = spec.question;
  const blind = guess(q.answer, prior, q.family);
  if (name === 'blind') return [{ tool: 'stop', args: { answer: blind } }];
  if (name === 'start-view') {
    const sees = vis.answerable(spec.start, q.needs);
    return [{ tool: 'stop', args: { answer: sees ? answerText(q.answer) : blind } }];
  }
  if (name === 'random') return randomAction(spec, seed);
  const rules = searchRules(spec, collider);
  const world = motionWorld(collider, spec.radius, rules.config.motion);
  // The stored goal by A* (any heading, no state cap); the BFS to any answerable view otherwise.
  const direct = vis.answerable(spec.goal, q.needs) ? pathTo(world, spec.start, spec.goal, { maxDepth: spec.max_steps - 1 }) : null;
  const path = direct ?? searchAnswerable(world, spec.start, (p) => vis.answerable(p, q.needs), { maxDepth: spec.max_steps - 1, maxStates: 400_000, keep: 0 })?.path;
  if (!path) return [{ tool: 'stop', args: { answer: blind } }];
  return [...path.map((a) => ({ tool: a })), { tool: 'stop', args: { answer: answerText(q.answer) } }];
}
