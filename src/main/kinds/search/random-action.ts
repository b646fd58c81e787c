// E3VS's Random Action baseline as the paper runs it (docs/TASKS.md, "Baselines and chance"):
// uniform random motions for the episode's step budget (no stop), then an answering model (any
// runner: a StaticClient) answers from the final view, and the E3VS judge (any runner: a
// JudgeClient, the pinned prompt through judgeOne) marks the answer 5 or 1 from the question, the
// ground truth, the end view and the goal view. The exact checker's verdict is kept beside it for
// the closed families, each answer saying which scored it. Not the lab's uniform guess over the
// answer space ("answer-space chance", ../../../shared/kinds/search/players.ts randomAction).
// Inputs: loaded tasks, two client factories, a seed, a renderer and image size. Output: per-task
// rows and the paper's metrics (judge accuracy, average steps, collision rate).
// Invariant: the answering model sees only the question and the final view; an unparseable judge
// reply scores nothing and is counted.
import { checkAnswer } from '../../../shared/kinds/search/answers';
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { searchRules } from '../../../shared/kinds/search/kind';
import { MOTION_ACTIONS } from '../../../shared/kinds/search/pose';
import { renderViewAsync, OBS_SIZE, type AsyncViewRenderer } from '../../../shared/kinds/search/render';
import { mulberry32 } from '../../../shared/math/random';
import { encodePng } from '../../io/png-encode';
import { judgeOne, judgeTruth, type JudgeClient } from './judge';
import type { RoomScene } from './scene';
import { staticAnswer, type StaticClient } from './static-baseline';

/** The prompt mode the answering model gets: the start-view prompt, with the final view as the image. */
const ANSWER_MODE = 'start-view';

export interface RandomActionRow {
  task_id: string;
  family: string;
  answer: string | null;
  /** The judge's mark (5 or 1; null: unparseable) and score (100 or 0). */
  mark: number | null;
  judge_score: number | null;
  /** The exact checker's verdict, for closed answer types (null for free text). */
  exact: boolean | null;
  /** Which scored the answer in the paper's metric: always the judge; the exact checker is beside it. */
  scored_by: 'judge';
  steps: number;
  collisions: number;
}

export interface RandomActionSummary {
  episodes: number;
  /** Mean judge score / 100 over the judged answers (E3VS's accuracy). */
  judgeAccuracy: number;
  judged: number;
  unparseable: number;
  /** The exact checker over the closed-answer episodes only. */
  exactAccuracy: number | null;
  closed: number;
  /** Mean actions taken (the answer not counted), and the share of episodes with a collision. */
  steps: number;
  collisionRate: number;
  rows: RandomActionRow[];
}

export interface RandomActionOptions {
  seed?: number;
  renderer?: AsyncViewRenderer;
  /** Side of the final and goal views in pixels (default the observation's 512). */
  size?: number;
  judge: string;
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
}

/** The uniform random motions of one episode: its budget less the answer. */
export function randomMotions(spec: SearchTaskSpec, seed: number): string[] {
  const rng = mulberry32(seed);
  return Array.from({ length: spec.max_steps - 1 }, () => MOTION_ACTIONS[rng.int(MOTION_ACTIONS.length)]);
}

export async function runRandomAction(
  all: readonly { spec: SearchTaskSpec; scene: RoomScene }[], makeAnswerer: () => StaticClient, makeJudge: () => JudgeClient, o: RandomActionOptions,
): Promise<RandomActionSummary> {
  const rows: RandomActionRow[] = [];
  const size = o.size ?? OBS_SIZE;
  const png = async (scene: RoomScene, pose: SearchTaskSpec['start']) => {
    const img = await renderViewAsync(scene.splats, pose, o.renderer, size);
    return encodePng({ width: img.width, height: img.height, data: img.rgb });
  };
  for (const [i, { spec, scene }] of all.entries()) {
    if (o.signal?.aborted) throw new Error(`Random Action cancelled after ${i} of ${all.length} tasks`);
    const rules = searchRules(spec, scene.collider);
    for (const tool of randomMotions(spec, (o.seed ?? 0) * 7919 + i)) rules.step({ tool });
    const end = await png(scene, rules.currentPose());
    const answer = await staticAnswer(makeAnswerer(), spec, ANSWER_MODE, end);
    const a = spec.question.answer;
    const rec = answer === null ? null : await judgeOne(makeJudge(), o.judge, spec.question.text, judgeTruth(spec), answer, { end, goal: await png(scene, spec.goal) });
    const row: RandomActionRow = {
      task_id: spec.task_id, family: spec.question.family, answer, mark: rec?.mark ?? null, judge_score: rec?.score ?? (answer === null ? 0 : null),
      exact: a.type === 'text' ? null : answer !== null && checkAnswer(a, answer), scored_by: 'judge', steps: rules.stepCount, collisions: rules.collisions(),
    };
    rows.push(row);
    o.onProgress?.(`${spec.task_id}: ${JSON.stringify(answer)} judge ${row.mark ?? 'unparseable'}${row.exact === null ? '' : `, exact ${row.exact ? 'correct' : 'wrong'}`}`);
  }
  const judged = rows.filter((r) => r.judge_score !== null);
  const closed = rows.filter((r) => r.exact !== null);
  const n = Math.max(1, rows.length);
  return {
    episodes: rows.length,
    judgeAccuracy: judged.length ? judged.reduce((s, r) => s + r.judge_score!, 0) / 100 / judged.length : 0,
    judged: judged.length, unparseable: rows.length - judged.length,
    exactAccuracy: closed.length ? closed.filter((r) => r.exact).length / closed.length : null, closed: closed.length,
    steps: rows.reduce((s, r) => s + r.steps, 0) / n,
    collisionRate: rows.filter((r) => r.collisions > 0).length / n,
    rows,
  };
}
