// `splatlab tasks [--kind K] [--split S] [--json] [--tasks DIR]`: every task of the tasks folder
// from the one task registry (src/main/kinds/task-registry.ts), with kind, family, budgets, split,
// source and content hash. Unreadable tasks are named on stderr and make the exit status 1.
// `splatlab tasks build NAME ...` builds a whole task set (build-set.ts).
import { TASK_SPLITS } from '../../../shared/task/registry';
import { taskRegistry } from '../../kinds/task-registry';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { BUILD_SET_USAGE, buildSetCommand } from './build-set';

export const command: CliCommand = {
  name: 'tasks',
  usage: `splatlab tasks [--kind K] [--split S] [--json] [--tasks DIR]
${BUILD_SET_USAGE}

Lists every task of the tasks folder (--tasks, default SPLATLAB_TASKS_DIR, else the lab home's tasks beside the built-in set) with its kind,
family, budgets (calls / Gaussians / renders), split (${TASK_SPLITS.join(', ')}), source (the data it is
made from) and content hash (sha256 of the spec and its data). --kind and --split filter; --json
prints the entries as a JSON array (the same entries as the RL protocol's GET /tasks).`,
  async run(argv, io) {
    if (argv[0] === 'build') return buildSetCommand(argv.slice(1), io);
    const args = parseArgs(argv, { values: ['kind', 'split', 'tasks'], flags: ['json'] });
    const kind = stringOption(args, 'kind');
    const split = stringOption(args, 'split');
    if (split !== undefined && !(TASK_SPLITS as readonly string[]).includes(split)) throw new CliError(`--split is one of ${TASK_SPLITS.join(', ')}`);
    const dir = resolveTasksDir(stringOption(args, 'tasks'));
    const reg = taskRegistry(dir);
    if (kind !== undefined && !reg.tasks.some((t) => t.kind === kind || t.family === kind)) {
      throw new CliError(`no task of kind '${kind}' in ${dir} (kinds there: ${[...new Set(reg.tasks.map((t) => t.kind))].join(', ') || 'none'})`);
    }
    const shown = reg.tasks.filter((t) => (kind === undefined || t.kind === kind || t.family === kind) && (split === undefined || t.split === split));
    for (const p of reg.problems) io.err(`unreadable task: ${p}`);
    if (args.options.get('json')) io.out(JSON.stringify(shown, null, 1));
    else {
      for (const t of shown) {
        const b = t.budgets;
        io.out(`${t.id}  ${t.kind} (${t.family})  calls ${b.max_tool_calls}${b.max_gaussians ? `, Gaussians ${b.max_gaussians}, renders ${b.max_renders}` : ''}  ${t.split}  ${t.source}  ${t.content_hash.slice(0, 12)}`);
      }
      io.out(`${shown.length} of ${reg.tasks.length} tasks in ${dir}`);
    }
    return reg.problems.length ? 1 : 0;
  },
};
