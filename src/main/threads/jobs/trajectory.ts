// Job 'trajectory.parse': a trajectory log's text parsed on a worker thread (parseTrajectory,
// linear in the text). Input: the JSONL text. Output: the Trajectory, as parseTrajectory returns it.
import { parseTrajectory, type Trajectory } from '../../env/trajectory';

export function parseTrajectoryJob(input: { text: string }): Trajectory {
  return parseTrajectory(input.text);
}
