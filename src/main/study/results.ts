// Results of a study read back from its trajectory logs: one EpisodeResult per played episode
// (participants' logs from participants.json, imported model logs from models/), and the
// per-step view of one log for replay (score carried forward between graded calls).
// Inputs: the StudyStore, a study id and (for model search runs) the tasks folder. Outputs: rows
// of src/shared/study/results.ts.
// Invariant: numbers come from the logs only (the end record and each call's `hidden`), so the
// table always matches the files on disk; a log without an end record is marked incomplete.
import { existsSync } from 'node:fs';
import type { TrajectoryStep } from '../../shared/api/study';
import type { EpisodeResult } from '../../shared/study/results';
import type { Participant, ParticipantEpisode } from '../../shared/study/config';
import { replaySteps } from '../../shared/kinds/replay';
import { episodeTimes } from '../../shared/env/person-time';
import { readTrajectory, type Trajectory } from '../env/trajectory';
import type { KindTask, MainKindModule } from '../kinds/kind';
import type { StudyStore } from './store';
import { readSpecHead } from '../tasks/load';
import { mainKind, rulesFor } from '../kinds/registry';
import { kindModule } from '../../shared/kinds/registry';
import { runScore } from './run-score';


interface Source {
  source: string;
  kind: 'human' | 'model';
  participant: string;
  practice: boolean;
}

const seconds = (from: string, to: string): number | null => {
  const d = (Date.parse(to) - Date.parse(from)) / 1000;
  return Number.isFinite(d) ? d : null;
};

/**
 * The kind family of a log and what its score measures: from the header's kind (every writer
 * names it), else from the task file when the tasks folder is known. A log of a kind no module
 * serves any more keeps its kind's name as its family, so it still pools with nothing else.
 */
export function familyOfLog(traj: Trajectory, taskId: string, tasksDir?: string): { family: string; measure: string; taskKind?: string } {
  let kind = traj.header?.kind;
  if (kind === undefined && tasksDir) {
    try {
      kind = readSpecHead(tasksDir, traj.header?.task ?? taskId).kind;
    } catch {
      kind = undefined;
    }
  }
  if (kind === undefined) return { family: 'unknown', measure: 'score' };
  try {
    const m = kindModule(kind);
    return { family: m.family, measure: m.score.unit, taskKind: kind };
  } catch {
    return { family: kind, measure: 'score', taskKind: kind };
  }
}

export function episodeResult(traj: Trajectory, rel: string, who: Source, taskId: string, tasksDir?: string): EpisodeResult {
  const calls = traj.steps.filter((s) => s.step > 0);
  const last = calls[calls.length - 1];
  const started = traj.header?.started ?? traj.steps[0]?.t ?? '';
  const lastEnd = last ? new Date(Date.parse(last.t) + last.ms).toISOString() : started;
  const e = traj.end;
  // The one clock: pauses and downtime are out of `seconds`, and a finished episode ends at its
  // ending call's finish, before the final grading (an old log without time records: all active).
  const times = started ? episodeTimes({ started, steps: traj.steps, times: traj.times, end: { t: traj.end?.t ?? lastEnd } }) : null;
  const clock = times?.clock ?? null;
  const endT = times?.endedAt !== null && times?.endedAt !== undefined ? new Date(times.endedAt).toISOString() : lastEnd;
  return {
    ...who,
    taskId: traj.header?.task ?? taskId,
    ...familyOfLog(traj, taskId, tasksDir),
    protocol: traj.header?.protocol ?? 'unknown',
    complete: e !== null,
    score: e?.score ?? null,
    psnr: e?.psnr ?? null,
    ssim: e?.ssim ?? null,
    iou: e?.iou ?? null,
    lpips: e?.lpips ?? null,
    lpipsMissing: e?.lpips_missing ?? false,
    reward: e?.reward ?? null,
    calls: e?.calls_used ?? calls.length,
    renders: e?.renders_used ?? null,
    gaussians: e?.gaussians ?? (last?.state ? last.state.length : null),
    seconds: clock ? clock.activeMs / 1000 : null,
    wallSeconds: clock ? clock.wallMs / 1000 : started ? seconds(started, endT) : null,
    pausedSeconds: clock ? clock.pausedMs / 1000 : null,
    downSeconds: clock ? clock.downMs / 1000 : null,
    interruptions: clock ? clock.interruptions.length : null,
    pauses: clock ? clock.pauses : null,
    toolSeconds: calls.reduce((s, c) => s + c.ms, 0) / 1000,
    computeSeconds: times ? times.computeMs / 1000 : null,
    transportSeconds: times ? times.transportMs / 1000 : null,
    thinkSeconds: times ? times.thinkMs / 1000 : null,
    started,
    log: rel,
  };
}

/** Why an episode is out of the statistics: its exclusion, or the participant's withdrawal. */
export function exclusionOf(p: Participant, ep: ParticipantEpisode): string | null {
  if (ep.excluded) return ep.excluded.reason;
  return p.withdrawal ? 'participant withdrew' : null;
}

/** 1-based position of a task in the participant's scored order, 0 for practice. */
export function orderPositionOf(p: Participant, ep: ParticipantEpisode): number | null {
  if (ep.practice) return 0;
  const i = p.order.indexOf(ep.taskId);
  return i < 0 ? null : i + 1;
}

/**
 * Every episode of the study: participants in id order (their episodes in play order), then
 * models. Excluded episodes (and all of a withdrawn participant's) are listed with the reason.
 */
export function studyResults(store: StudyStore, studyId: string, tasksDir?: string): EpisodeResult[] {
  // A model run of a kind regraded from its calls (search) has no scene verdict: with the tasks
  // folder its kind scores the log here (MainKindModule.runScore).
  const kindRegrade = (traj: Trajectory, taskId: string): number | null => {
    if (!tasksDir) return null;
    let score: MainKindModule['runScore'];
    try {
      score = mainKind(readSpecHead(tasksDir, taskId).kind).runScore;
    } catch {
      return null;
    }
    return score ? score(traj, tasksDir, taskId) : null;
  };
  const rows: EpisodeResult[] = [];
  for (const p of store.participants(studyId)) {
    for (const ep of p.episodes) {
      const path = store.resolveIn(studyId, ep.log);
      if (!existsSync(path)) continue;
      const row = episodeResult(readTrajectory(path), ep.log, { source: 'human', kind: 'human', participant: p.id, practice: ep.practice }, ep.taskId, tasksDir);
      rows.push({ ...row, excluded: exclusionOf(p, ep), orderPosition: orderPositionOf(p, ep), run: null });
    }
  }
  for (const m of store.modelLogs(studyId)) {
    const traj = readTrajectory(store.resolveIn(studyId, m.rel));
    const row = episodeResult(traj, m.rel, { source: m.model, kind: 'model', participant: m.model, practice: false }, m.taskId, tasksDir);
    // The one score of a run (run-score.ts): the lab's regrade, never what the file claimed.
    const v = m.verdict;
    const rs = runScore(traj, { kind: 'model', verdict: v, regrade: v ? null : kindRegrade(traj, m.taskId) });
    const metrics = v ? { reward: v.reward, psnr: v.psnr, ssim: v.ssim, iou: v.iou, lpips: v.lpips } : { reward: null, psnr: null, ssim: null, iou: null, lpips: null };
    rows.push({ ...row, ...metrics, score: rs.score, scoreMismatch: rs.claimed, run: m.run });
  }
  return rows;
}

/**
 * Each logged record as the replay shows it; `score` is the latest hidden score at that call and
 * `error` comes from the call's outcome as the one replay recomputes it (never from its text).
 */
export function trajectorySteps(traj: Trajectory, task: KindTask): TrajectoryStep[] {
  const ok = new Map<number, boolean>();
  for (const { record, result } of replaySteps(rulesFor(task), traj.steps)) ok.set(record.step, result.ok);
  let score: number | null = null;
  return traj.steps.map((s) => {
    if (s.hidden) score = s.hidden.score;
    return {
      step: s.step,
      tool: s.tool,
      args: s.args,
      text: s.text,
      t: s.t,
      ms: s.ms,
      score,
      graded: s.hidden !== undefined,
      error: s.step > 0 && !(ok.get(s.step) ?? s.ok ?? true),
      gaussians: s.state ? s.state.length : null,
    };
  });
}
