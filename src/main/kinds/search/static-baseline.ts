// The static baselines of E3VS-Bench for any model the runners reach (docs/TASKS.md, "Baselines
// and chance"): blind (the question alone, no image) and start-view (the question with the start
// view), one answer through the `stop` tool and no movement. With a judge (any runner) each answer
// is marked by the E3VS judge through judgeOne (the pinned prompt, the ground truth, the start and
// goal views), as the answerability filter marks them (judgedStaticAnswer is the one path both
// take); the exact checker's verdict is kept beside it for the closed families. Without a judge,
// the exact checker scores every answer and the summary counts the open answers it read only
// provisionally (nothing judged them). Inputs: loaded tasks, client factories (every
// src/main/eval client fits StaticClient and JudgeClient). Output: per-task rows and the summary.
// Invariant: the model sees only what its name says: the question and choices, plus the start
// view for start-view; never the answer, the goal or the answerable viewpoints. Every row says
// which scorer scored it.
import { checkAnswer } from '../../../shared/kinds/search/answers';
import { setChance } from '../../../shared/kinds/search/chance';
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { renderViewAsync, OBS_SIZE, type AsyncViewRenderer } from '../../../shared/kinds/search/render';
import { searchToolSpecs } from '../../../shared/kinds/search/tools';
import { encodePng } from '../../io/png-encode';
import { judgeOne, judgeTruth, type JudgeClient, type JudgeImages } from './judge';
import type { RoomScene } from './scene';

export const STATIC_MODES = ['blind', 'start-view'] as const;
export type StaticMode = (typeof STATIC_MODES)[number];

export interface StaticClient {
  start(system: string, text: string, image: Uint8Array | undefined, tools: { name: string; description: string; parameters: Record<string, unknown> }[]): void;
  next(): Promise<{ calls: { name: string; args: unknown }[]; text: string }>;
}

export const STATIC_SYSTEM = 'You answer a question about a room of a 3D scene. Call the stop tool once with your short answer; you cannot move.';

export function staticPrompt(spec: SearchTaskSpec, mode: StaticMode): string {
  const a = spec.question.answer;
  const choices = a.type === 'choice' ? ` Choices: ${a.choices.join(', ')}.` : '';
  const seeing = mode === 'blind' ? 'You see nothing of the room: answer from the question alone.' : 'The image is the view from where you stand.';
  return `${seeing}\nQuestion: ${spec.question.text}${choices}`;
}

/** The model's answer: the stop call's answer, else its text (trimmed), else null. */
export async function staticAnswer(client: StaticClient, spec: SearchTaskSpec, mode: StaticMode, startView: Uint8Array | undefined): Promise<string | null> {
  const stop = searchToolSpecs().filter((t) => t.name === 'stop').map((t) => {
    const parameters = { ...t.parameters };
    delete parameters.$schema;
    return { ...t, parameters };
  });
  client.start(STATIC_SYSTEM, staticPrompt(spec, mode), mode === 'start-view' ? startView : undefined, stop);
  const turn = await client.next();
  const call = turn.calls.find((c) => c.name === 'stop');
  const given = (call?.args as { answer?: unknown } | undefined)?.answer;
  if (typeof given === 'string' && given.trim()) return given.trim();
  return turn.text.trim() || null;
}

/**
 * One static answer, judged: the runner answers in the mode (the start view only in start-view),
 * and the judge marks the answer from the question, the ground truth and the views (start and
 * goal). The one path of the static baselines and the answerability filter. A null answer gets no mark.
 */
export async function judgedStaticAnswer(
  answerer: StaticClient, judge: JudgeClient, judgeName: string, spec: SearchTaskSpec, mode: StaticMode, views: JudgeImages,
): Promise<{ answer: string | null; mark: number | null }> {
  const answer = await staticAnswer(answerer, spec, mode, mode === 'start-view' ? views.end : undefined);
  if (answer === null) return { answer, mark: null };
  return { answer, mark: (await judgeOne(judge, judgeName, spec.question.text, judgeTruth(spec), answer, views)).mark };
}

/** The start and goal views of a task as PNG (the judge's two images; the start view is the start-view runner's). */
export async function startAndGoal(spec: SearchTaskSpec, scene: RoomScene, renderer: AsyncViewRenderer | undefined, size: number): Promise<JudgeImages> {
  const png = async (pose: SearchTaskSpec['start']) => {
    const img = await renderViewAsync(scene.splats, pose, renderer, size);
    return encodePng({ width: img.width, height: img.height, data: img.rgb });
  };
  return { end: await png(spec.start), goal: await png(spec.goal) };
}

export interface StaticRow {
  task_id: string;
  answer: string | null;
  /** The judge's mark (5 or 1; null: not judged, no answer, or unparseable). */
  mark: number | null;
  /** The exact checker's verdict (for an open answer, a provisional reading). */
  exact: boolean;
  /** What scored the row: the judge's mark, else the exact checker (an open answer read only provisionally when no judge ran). */
  scored_by: 'judge' | 'exact';
}

export interface StaticSummary {
  mode: StaticMode;
  episodes: number;
  /** The exact checker over every episode (for open answers a provisional reading). */
  correct: number;
  chance: number;
  /** The judge's name, or null when none ran (then every row is scored by the exact checker). */
  judge: string | null;
  /** Share of judged answers marked 5 (E3VS's accuracy); null without a judge. */
  judgeAccuracy: number | null;
  judged: number;
  /** Answers the judge gave no readable mark (a null answer counts as wrong, judged or not). */
  unparseable: number;
  /** The exact checker over the closed-answer episodes only (null when none). */
  exactAccuracy: number | null;
  closed: number;
  /** Open answers that only the exact checker read (no judge ran): its provisional reading. */
  unjudgedOpen: number;
  rows: StaticRow[];
}

export interface StaticOptions {
  renderer?: AsyncViewRenderer;
  /** Side of the start and goal views in pixels (default the observation's 512). */
  size?: number;
  /** The E3VS judge: its name and a client factory. Without it the exact checker scores (labelled). */
  judge?: { name: string; make: () => JudgeClient };
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
}

export async function runStaticBaseline(all: readonly { spec: SearchTaskSpec; scene: RoomScene }[], mode: StaticMode, makeClient: () => StaticClient, opts: StaticOptions = {}): Promise<StaticSummary> {
  const rows: StaticRow[] = [];
  let unparseable = 0;
  for (const [i, { spec, scene }] of all.entries()) {
    if (opts.signal?.aborted) throw new Error(`static baseline cancelled after ${i} of ${all.length} tasks`);
    const needViews = mode === 'start-view' || opts.judge !== undefined;
    const views = needViews ? await startAndGoal(spec, scene, opts.renderer, opts.size ?? OBS_SIZE) : null;
    const { answer, mark } = opts.judge
      ? await judgedStaticAnswer(makeClient(), opts.judge.make(), opts.judge.name, spec, mode, views!)
      : { answer: await staticAnswer(makeClient(), spec, mode, views?.end), mark: null };
    if (opts.judge && answer !== null && mark === null) unparseable++;
    const exact = answer !== null && checkAnswer(spec.question.answer, answer);
    rows.push({ task_id: spec.task_id, answer, mark, exact, scored_by: mark === null ? 'exact' : 'judge' });
    opts.onProgress?.(`${spec.task_id}: ${JSON.stringify(answer)}${opts.judge ? ` judge ${mark ?? (answer === null ? '-' : 'unparseable')},` : ''} exact ${exact ? 'correct' : 'wrong'}${!opts.judge && spec.question.answer.type === 'text' ? ' (open answer, not judged: provisional)' : ''}`);
  }
  const closedRows = rows.filter((_, i) => all[i].spec.question.answer.type !== 'text');
  // Judged: every answered row with a readable mark, plus the null answers (wrong, nothing to judge).
  const judgedRows = opts.judge ? rows.filter((r) => r.mark !== null || r.answer === null) : [];
  return {
    mode, episodes: all.length, correct: all.length ? rows.filter((r) => r.exact).length / all.length : 0, chance: setChance(all.map((a) => a.spec.question)),
    judge: opts.judge?.name ?? null,
    judgeAccuracy: opts.judge ? (judgedRows.length ? judgedRows.filter((r) => r.mark === 5).length / judgedRows.length : 0) : null,
    judged: judgedRows.length, unparseable,
    exactAccuracy: closedRows.length ? closedRows.filter((r) => r.exact).length / closedRows.length : null, closed: closedRows.length,
    unjudgedOpen: opts.judge ? 0 : all.length - closedRows.length,
    rows,
  };
}

/** The static baseline's summary line: judge accuracy when judged, else the exact checker labelled. */
export function staticLine(model: string, s: StaticSummary): string {
  const chance = `analytic chance ${(100 * s.chance).toFixed(1)}%`;
  const closed = s.exactAccuracy === null ? 'no closed ones' : `${(100 * s.exactAccuracy).toFixed(1)}% on the ${s.closed} closed ones`;
  if (s.judge !== null) {
    return `${model} ${s.mode}: judge accuracy ${(100 * (s.judgeAccuracy ?? 0)).toFixed(1)}% over ${s.judged} judged answers (${s.unparseable} unparseable) of ${s.episodes} episodes, judged by ${s.judge}; exact checker ${closed}; ${chance}`;
  }
  return `${model} ${s.mode}: exact checker ${(100 * s.correct).toFixed(1)}% over ${s.episodes} episodes, not judged${s.unjudgedOpen ? ` (${s.unjudgedOpen} open answers read only provisionally: --judge SPEC marks them as E3VS does)` : ''}; ${chance}`;
}
