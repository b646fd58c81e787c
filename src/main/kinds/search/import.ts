// Imports a model's search trajectory into a study (LabApi study.importModel on a search task):
// the log must be an agent run of the task and regrade identically through fresh pure rules
// (src/main/kinds/search/regrade.ts); the lab's own outcome is the score the study uses.
// Inputs: a parsed trajectory and its task, loaded by the caller (./kind.ts, so this file needs no
// registry: no import circle through ../registry.ts). Output: the regraded outcome, or a one-line error.
// Invariant: a log whose text, hidden part or end record differs from its replay is refused.
import type { Trajectory } from '../../env/trajectory';
import type { KindTask } from '../kind';
import type { SearchTask } from './env';
import { regradeSearch } from './regrade';
import type { SearchOutcome } from '../../../shared/kinds/search/outcome';

export function verifySearchImport(traj: Trajectory, task: KindTask): SearchOutcome {
  if (traj.header?.protocol !== 'agent') throw new Error(`this is a person's log (protocol '${traj.header?.protocol ?? 'none'}'); only model trajectories (protocol 'agent') can be imported`);
  if (!traj.end) throw new Error('the search log has no end record (the episode never stopped or ran out of steps)');
  if (task.spec.kind !== 'search') throw new Error(`task '${task.spec.task_id}' is not a search task`);
  const { outcome, problems } = regradeSearch(task as SearchTask, traj);
  if (problems.length) throw new Error(`the log does not regrade (${problems.length} difference${problems.length > 1 ? 's' : ''}; first: ${problems[0]})`);
  return outcome;
}
