// Free-play episodes (issue 30 item 6; docs/STUDIES.md "Free play in Results"): the episodes a
// person plays from the Play screen, outside any study, logged under <home>/trajectories/. Results
// lists them per task beside the studies, with the one score per run (run-score.ts), the replay
// and the CSV, and the study archive carries them in a free-play/ folder apart from the study's
// own statistics. Inputs: the trajectories folder, the tasks folder. Outputs: EpisodeResult rows
// (source 'free play', participant = the player id), the archive's free-play files.
// Invariant: a free-play row never enters a study's statistics; its score is the lab log's own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { EpisodeResult } from '../../shared/study/results';
import { episodesCsv, summarize, summaryCsv } from '../../shared/study/results';
import { BOOTSTRAP_DEFAULTS } from '../../shared/analysis/bootstrap';
import { processLogPath } from '../../shared/env/process-log';
import { readTrajectory } from '../env/trajectory';
import { episodeResult } from './results';
import { runScore } from './run-score';

/** The source column of a free-play row. */
export const FREE_PLAY_SOURCE = 'free play';

/** File names of the free-play logs (trajectories, not their process logs), oldest first. */
export function freePlayLogs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
}

/** A log name from the client: one file of the folder, never a path out of it. */
export function freePlayPath(dir: string, log: string): string {
  if (basename(log) !== log || !log.endsWith('.jsonl') || !freePlayLogs(dir).includes(log)) throw new Error(`no free-play episode '${log}'`);
  return join(dir, log);
}

/** One row per free-play episode, in task then start order; the score is the run's one score. */
export function freePlayResults(dir: string, tasksDir?: string): EpisodeResult[] {
  const rows = freePlayLogs(dir).flatMap((log) => {
    const traj = readTrajectory(join(dir, log));
    if (!traj.header) return [];
    const row = episodeResult(traj, log, { source: FREE_PLAY_SOURCE, kind: 'human', participant: traj.header.player ?? 'anonymous', practice: false }, traj.header.task, tasksDir);
    return [{ ...row, score: runScore(traj, { kind: 'human' }).score }];
  });
  return rows.sort((a, b) => a.taskId.localeCompare(b.taskId) || a.started.localeCompare(b.started));
}

/** The free-play part of an archive: its two tables and every log (with its process log). */
export function freePlayArchiveFiles(dir: string, tasksDir?: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const rows = freePlayResults(dir, tasksDir);
  if (rows.length === 0) return files;
  const enc = new TextEncoder();
  files.set('free-play/episodes.csv', enc.encode(episodesCsv(rows)));
  files.set('free-play/summary.csv', enc.encode(summaryCsv(summarize(rows, BOOTSTRAP_DEFAULTS))));
  for (const r of rows) {
    const path = join(dir, r.log);
    files.set(`free-play/trajectories/${r.log}`, readFileSync(path));
    if (existsSync(processLogPath(path))) files.set(`free-play/trajectories/${basename(processLogPath(path))}`, readFileSync(processLogPath(path)));
  }
  return files;
}
