// `splatlab check [--task ID]`: the environment conformance check over one task or every task.
import { acquireGpu } from '../../gpu/device';
import { Grader, graderDevice } from '../../grader/grader';
import { checkTask } from '../../episodes/conformance';
import { taskIds } from '../../tasks/load';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';

export const command: CliCommand = {
  name: 'check',
  usage: `splatlab check [--task ID] [--tasks DIR] [--device gpu|cpu]

Runs the environment conformance check (like Gymnasium's env checker) on one task or on every
task in the tasks folder: the spec and kind budgets, photos and cameras, the first observation
and footer, that invalid calls cost one call and change nothing, that calls after the end are
refused, that no text leaks held-out data, and that the empty scene grades 0 and the fit 100.
Exit status 1 when any task fails.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['task', 'tasks', 'device'] });
    const device = stringOption(args, 'device') ?? 'gpu';
    if (device !== 'gpu' && device !== 'cpu') throw new CliError("--device must be 'gpu' or 'cpu'");
    const tasksDir = resolveTasksDir(stringOption(args, 'tasks'));
    const ids = stringOption(args, 'task') ? [stringOption(args, 'task') as string] : taskIds(tasksDir);
    if (ids.length === 0) throw new CliError(`no tasks in ${tasksDir}`);
    const gpu = await acquireGpu({ forceCpu: device === 'cpu' });
    const grader = await Grader.create(graderDevice(gpu));
    let failed = 0;
    for (const id of ids) {
      const report = await checkTask(id, grader, tasksDir);
      if (report.problems.length) failed++;
      io.out(`${report.problems.length ? 'FAIL' : 'ok  '} ${id}${report.notes.length ? `  (${report.notes.join('; ')})` : ''}`);
      for (const problem of report.problems) io.out(`     - ${problem}`);
    }
    io.out(`${ids.length - failed}/${ids.length} tasks conform (${grader.kind} grader).`);
    return failed ? 1 : 0;
  },
};
