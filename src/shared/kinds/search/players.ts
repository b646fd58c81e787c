// Baseline players of search tasks (docs/DESIGN.md section 9): random actions, a blind answer, an
// answer from the start view, and the BFS oracle that walks the shortest path to an answerable
// view and answers from it (the goal-view oracle). Each plays through the same SearchRules.
// Inputs: a task spec, the room's collider and visibility, a seed and the blind prior.
// Output: the calls the player made. Invariant: players see only what a player may see plus,
// for the oracles, what their name says (the oracle reads the answer once its view answers).
import type { ToolCall } from '../../env/episode';
import { mulberry32 } from '../../math/random';
import { searchRules, type SearchTaskSpec } from './kind';
import { answerText, type Answer } from './answers';
import type { Collider } from './collide';
import { MOTION_ACTIONS } from './pose';
import type { Answerability } from './answerability';
import { motionWorld, searchAnswerable } from './world';

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

export function playBaseline(name: Baseline, spec: SearchTaskSpec, collider: Collider, vis: Answerability, prior: Map<string, string>, seed = 0): ToolCall[] {
  const q = spec.question;
  const blind = guess(q.answer, prior, q.family);
  if (name === 'blind') return [{ tool: 'stop', args: { answer: blind } }];
  if (name === 'start-view') {
    const sees = vis.answerable(spec.start, q.needs);
    return [{ tool: 'stop', args: { answer: sees ? answerText(q.answer) : blind } }];
  }
  if (name === 'random') {
    const rng = mulberry32(seed);
    const calls: ToolCall[] = [];
    for (let i = 0; i < spec.max_steps - 1; i++) {
      if (rng.next() < 1 / spec.max_steps) break;
      calls.push({ tool: MOTION_ACTIONS[rng.int(MOTION_ACTIONS.length)] });
    }
    calls.push({ tool: 'stop', args: { answer: blind } });
    return calls;
  }
  const rules = searchRules(spec, collider);
  const world = motionWorld(collider, spec.radius, rules.config.motion);
  const found = searchAnswerable(world, spec.start, (p) => vis.answerable(p, q.needs), { maxDepth: spec.max_steps - 1, maxStates: 400_000, keep: 0 });
  if (!found) return [{ tool: 'stop', args: { answer: blind } }];
  return [...found.path.map((a) => ({ tool: a })), { tool: 'stop', args: { answer: answerText(q.answer) } }];
}
