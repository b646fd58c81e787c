// The LLM judge of free-text search answers (E3VS after OpenEQA's LLM-Match): each free-text
// episode's question, correct answer with its synonyms and the given answer go through the pinned
// few-shot prompt (src/shared/kinds/search/judge-prompt.ts) with the end and goal images to a model runner client (the same clients and config as
// `splatlab eval`); the reply's "Your mark:" is parsed and a judgement record is stored beside
// the log. Inputs: search log refs, a client factory (any eval JudgeClient fits JudgeClient), the
// judge's name. Output: counts.
// Invariant: an unparseable reply is recorded (raw text, mark and score null) and never scored;
// a log already judged by the same judge and prompt hash is skipped unless forced.
import type { JudgeRecord } from '../../../shared/kinds/search/scores';
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { parseJudgeMark, promptHash } from '../../../shared/kinds/search/answers';
import { bytesHash, E3VS_JUDGE_PROMPT, E3VS_JUDGE_SYSTEM, e3vsJudgePrompt } from '../../../shared/kinds/search/judge-prompt';
import { readTrajectory, type Trajectory } from '../../env/trajectory';
import { appendJudgement, readJudgements, readRatings } from './judge-store';
import { spearman } from '../../../shared/kinds/search/agreement';

/** What the judge needs of a model runner client (every src/main/eval ModelClient has it). */
export interface JudgeClient {
  start(system: string, text: string, image: readonly Uint8Array[] | undefined, tools: []): void;
  next(): Promise<{ text: string; model: string | null }>;
}

/** The answer of the log's accepted `stop` call, or null (steps ran out, or never stopped). */
export function stopAnswer(traj: Trajectory): string | null {
  for (const s of traj.steps) {
    if (s.step === 0 || s.tool !== 'stop' || s.ok === false) continue;
    const a = (s.args as { answer?: unknown } | null)?.answer;
    if (typeof a === 'string') return a;
  }
  return null;
}

/** The system line sent with the pinned prompt (hashed with it). */
export const JUDGE_SYSTEM = E3VS_JUDGE_SYSTEM;
export const JUDGE_HASH = promptHash(`${JUDGE_SYSTEM}\n${E3VS_JUDGE_PROMPT}`);

/** The two images the E3VS judge sees: the agent's end view and the goal view (PNG). */
export interface JudgeImages {
  end: Uint8Array;
  goal: Uint8Array;
}

/** The correct answer as the judge reads it: the answer, then the synonyms also accepted. */
export function judgeAnswerText(spec: SearchTaskSpec): string | null {
  const a = spec.question.answer;
  if (a.type !== 'text') return null;
  return a.synonyms.length ? `${a.correct} (also correct: ${a.synonyms.join(', ')})` : a.correct;
}

/** The ground truth as the judge reads it, for any answer type (the filter and the static and Random Action baselines judge closed answers too). */
export function judgeTruth(spec: SearchTaskSpec): string {
  const a = spec.question.answer;
  return a.type === 'text' ? judgeAnswerText(spec)! : String(a.correct);
}

/** One judgement of one answer: the prompt through the client, the mark parsed. */
export async function judgeOne(client: JudgeClient, judge: string, question: string, answer: string, response: string, images: JudgeImages | null, now: () => Date = () => new Date()): Promise<JudgeRecord> {
  client.start(JUDGE_SYSTEM, e3vsJudgePrompt(question, answer, response), images ? [images.end, images.goal] : undefined, []);
  const turn = await client.next();
  const parsed = parseJudgeMark(turn.text);
  return {
    judge, model: turn.model, prompt_hash: JUDGE_HASH, raw: turn.text, mark: parsed?.mark ?? null, score: parsed?.score ?? null, at: now().toISOString(),
    ...(images ? { end_image_hash: bytesHash(images.end), goal_image_hash: bytesHash(images.goal) } : {}),
  };
}

export interface JudgeRun {
  judged: number;
  unparseable: number;
  skipped: number;
}

export interface JudgeLog {
  path: string;
  rel: string;
  spec: SearchTaskSpec;
}

/**
 * Judges every free-text log of the list not yet judged by this judge and prompt (all with force).
 * A closed answer type, or an episode without an answer, is skipped (the exact checker scores it).
 */
export async function judgeLogs(logs: readonly JudgeLog[], makeClient: () => JudgeClient, judge: string, opts: { force?: boolean; onProgress?: (line: string, done: number, total: number) => void; signal?: AbortSignal; images?: (log: JudgeLog) => Promise<JudgeImages | null> } = {}): Promise<JudgeRun> {
  const run: JudgeRun = { judged: 0, unparseable: 0, skipped: 0 };
  for (const [i, log] of logs.entries()) {
    if (opts.signal?.aborted) throw new Error(`judging cancelled after ${i} of ${logs.length} logs`);
    const answer = judgeAnswerText(log.spec);
    const given = answer === null ? null : stopAnswer(readTrajectory(log.path));
    const done = readJudgements(log.path).some((j) => j.judge === judge && j.prompt_hash === JUDGE_HASH);
    if (answer === null || given === null || (done && !opts.force)) {
      run.skipped++;
      continue;
    }
    const rec = await judgeOne(makeClient(), judge, log.spec.question.text, answer, given, (await opts.images?.(log)) ?? null);
    appendJudgement(log.path, rec);
    if (rec.mark === null) run.unparseable++;
    else run.judged++;
    opts.onProgress?.(`${log.rel}: ${rec.mark === null ? `unparseable judge output (${JSON.stringify(rec.raw.slice(0, 60))})` : `mark ${rec.mark} (score ${rec.score})`}`, i + 1, logs.length);
  }
  return run;
}

/**
 * Judge-vs-rater agreement as E3VS reports it: Spearman's rho between the judge's newest mark
 * (this judge and prompt) and the mean rater mark, over the answers that have both.
 */
export function judgeAgreement(logs: readonly JudgeLog[], judge: string): { pairs: number; rho: number | null } {
  const js: number[] = [], rs: number[] = [];
  for (const log of logs) {
    const mark = [...readJudgements(log.path)].reverse().find((j) => j.judge === judge && j.prompt_hash === JUDGE_HASH && j.mark !== null)?.mark;
    const rates = readRatings(log.path);
    if (mark == null || !rates.length) continue;
    js.push(mark);
    rs.push(rates.reduce((a, r) => a + r.mark, 0) / rates.length);
  }
  return { pairs: js.length, rho: spearman(js, rs) };
}
