// `splatlab repair LOG [--check] [--tasks DIR]`: a trajectory log damaged by an older version (a
// repeated step from two writers, a charged call that was never logged) is shown as such and,
// without --check, cut back to the part that replays, the original copied beside it
// (src/main/episodes/repair.ts). Output: one line saying what was found and done.
import { existsSync } from 'node:fs';
import { diagnoseLog, repairLog } from '../../episodes/repair';
import { readTrajectory } from '../../env/trajectory';
import { loadAnyTask } from '../../kinds/registry';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';

export const command: CliCommand = {
  name: 'repair',
  usage: 'splatlab repair LOG [--check] [--tasks DIR]\n\nFinds the first record of a trajectory log that does not replay (a repeated or missing step) and, unless --check, keeps only the lines before it so the episode can be resumed; the original is copied to LOG.damaged-<time>.',
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['tasks'], flags: ['check'] });
    const [log, ...extra] = args.positionals;
    if (!log || extra.length) throw new CliError('name one trajectory log: splatlab repair LOG');
    if (!existsSync(log)) throw new CliError(`no such log: ${log}`);
    const header = readTrajectory(log).header;
    if (!header) throw new CliError(`${log} has no header line: it is not a trajectory log`);
    const tasksDir = stringOption(args, 'tasks');
    const task = await loadAnyTask(header.task, tasksDir ? { tasksDir } : {}).catch((error: Error) => {
      throw new CliError(error.message);
    });
    const report = args.options.has('check') ? { ...diagnoseLog(log, task), backup: null } : repairLog(log, task);
    if (report.damage === null) {
      io.out(`${log}: replays cleanly (${report.validSteps} calls); nothing to repair`);
      return 0;
    }
    const what = `${log}: damaged at line ${report.line}: ${report.damage}`;
    if (!report.backup) {
      io.out(`${what}; ${report.validSteps} calls replay, ${report.droppedLines} line(s) after them would be dropped (run without --check to repair)`);
      return 1;
    }
    io.out(`${what}; kept the ${report.validSteps} calls that replay, dropped ${report.droppedLines} line(s); the original is ${report.backup}`);
    return 0;
  },
};
