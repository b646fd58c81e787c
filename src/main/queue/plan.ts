// The jobs of an evaluation run: one per (task, model, settings, run), each with a deterministic
// id and a fixed log path under the results folder, so any machine can tell from the folder
// alone which episodes are finished, broken (resumable) or not started.
// Inputs: task ids, a task glob, the model spec, the number of runs, the results folder.
// Outputs: EpisodeJobData (small JSON: ids and paths only; never scenes or images).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { logState, type LogState } from '../eval/episode';
import { providerFamily, settingsKey, type ModelSpec } from '../models/spec';

export interface EpisodeJobData {
  jobId: string;
  taskId: string;
  run: number;
  spec: ModelSpec;
  /** Absolute path of the trajectory (the meta file lies beside it). */
  log: string;
  resultsDir: string;
  family: 'openai' | 'anthropic' | 'scripted';
}

/** Characters safe in a file name and a BullMQ job id (no ':'). */
export function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9._=-]+/g, '_');
}

/** `*` and `?` over task ids; a comma separates several globs. */
export function matchTasks(glob: string, ids: readonly string[]): string[] {
  const res = glob.split(',').map((g) => new RegExp(`^${g.trim().replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`));
  return ids.filter((id) => res.some((re) => re.test(id))).sort();
}

export function jobIdOf(taskId: string, spec: ModelSpec, run: number): string {
  return slug(`${taskId}__${spec.provider}-${spec.model}__${settingsKey(spec)}__r${run}`);
}

export function planJobs(taskIds: readonly string[], spec: ModelSpec, runs: number, resultsDir: string): EpisodeJobData[] {
  // One flat folder per model and settings, so a study's models/ folder can be the results folder.
  const dir = slug(`${spec.provider}-${spec.model}__${settingsKey(spec)}`);
  const jobs: EpisodeJobData[] = [];
  for (const taskId of taskIds) {
    for (let run = 1; run <= runs; run++) {
      jobs.push({ jobId: jobIdOf(taskId, spec, run), taskId, run, spec, log: join(resultsDir, dir, `${taskId}__r${run}.jsonl`), resultsDir, family: providerFamily(spec) });
    }
  }
  return jobs;
}

export function jobStates(jobs: readonly EpisodeJobData[]): Map<string, LogState> {
  return new Map(jobs.map((j) => [j.jobId, logState(j.log)]));
}

/** A stable id for a set of jobs (the BullMQ flow parent). */
export function runIdOf(jobs: readonly EpisodeJobData[]): string {
  return createHash('sha256').update(jobs.map((j) => j.jobId).join('\n')).digest('hex').slice(0, 16);
}
