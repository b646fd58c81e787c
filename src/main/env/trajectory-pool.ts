// Trajectory text parsed where it does not hold up other clients: small logs on this thread (a
// round trip to a worker costs more than they do), large ones as a worker-pool job.
// Input: the pool and the caller's queue. Output: a parse function for SourceOptions.parse and
// the like. Invariant: the same Trajectory either way (one parser, parseTrajectory).
import { parseTrajectory, type Trajectory } from './trajectory';
import type { WorkerPool } from '../workers/pool';

/** Texts from this length (UTF-16 code units) on are parsed on the pool. */
export const OFF_LOOP_TRAJECTORY_CHARS = 256 * 1024;

export function trajectoryParser(pool: WorkerPool, client: string, signal?: AbortSignal): (text: string) => Promise<Trajectory> {
  return async (text) => {
    if (text.length < OFF_LOOP_TRAJECTORY_CHARS) return parseTrajectory(text);
    return pool.run('trajectory.parse', { text }, signal ? { client, signal } : { client });
  };
}
