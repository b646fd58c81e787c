// `splatlab tasks build NAME [--nerf-synthetic DIR] [--capture NAME=DIR]... [--tasks DIR]`: builds a
// whole task set (src/main/authoring/task-set.ts; docs/TASKS.md "The seed's whole task set").
// Exit status: 0 when every object present was built (or was up to date), 1 when one present
// failed (the others are still built), 130 when cancelled (SIGINT: the object in progress is not
// installed; those done stay, and a rerun resumes after them).
import { join } from 'node:path';
import { TASK_SETS } from '../../authoring/task-set';
import { Grader } from '../../grader/grader';
import { labHome } from '../../io/home';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliIO } from '../command';
import { intOption } from './author-options';

export const BUILD_SET_USAGE = `splatlab tasks build NAME [--nerf-synthetic DIR] [--capture OBJECT=DIR]... [--tasks DIR]
    [--steps N] [--seed S] [--no-procedural] [--device cpu|gpu] [--no-lpips]

build: builds the task set NAME (${Object.keys(TASK_SETS).join(', ')}: the seed's fifteen objects) into
  --tasks (default: the lab home's tasks/ folder): the six procedural objects, the NeRF-Synthetic
  scenes found in --nerf-synthetic (lego, chair, hotdog, ficus, mic, drums: one folder each) and each
  --capture (a COLMAP sparse model, LLFF poses_bounds.npy or MVSNet cams/ folder with masks; the
  seed's are ignatius, caterpillar and jade), each as its sculpt, reassembly and one-shot tasks.
  Absent scenes are named in one line; objects already built from the same files are kept
  (splatbench-manifest.json); Ctrl-C stops without leaving a half-built task. --steps sets the
  reference fit's steps (default 2000).`;

export async function buildSetCommand(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, { values: ['nerf-synthetic', 'tasks', 'steps', 'seed', 'device'], repeat: ['capture'], flags: ['no-procedural', 'no-lpips'] });
  const name = args.positionals[0];
  const build = name === undefined ? undefined : TASK_SETS[name];
  if (!build) throw new CliError(`tasks build takes a task set name: ${Object.keys(TASK_SETS).join(', ')}${name === undefined ? '' : ` (got '${name}')`}`);
  if (args.positionals.length > 1) throw new CliError(`unexpected argument '${args.positionals[1]}'`);
  const device = stringOption(args, 'device') ?? 'cpu';
  if (device !== 'cpu' && device !== 'gpu') throw new CliError("--device must be 'cpu' or 'gpu'");
  const captures = (args.lists.get('capture') ?? []).map((c) => {
    const m = /^([A-Za-z0-9_.-]+)=(.+)$/.exec(c);
    if (!m || m[1].includes('__')) throw new CliError(`--capture takes OBJECT=DIR with OBJECT of letters, digits, _ . - (got '${c}')`);
    return { name: m[1], dir: m[2] };
  });
  const tasksDir = stringOption(args, 'tasks') ?? join(labHome(), 'tasks');
  const controller = new AbortController();
  const onSigint = (): void => {
    io.err('cancelling: the object in progress will not be installed...');
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  const grader = await Grader.create({ device: null, ...(args.options.has('no-lpips') ? { lpipsDir: null } : {}) });
  try {
    const nerf = stringOption(args, 'nerf-synthetic');
    const res = await build({
      tasksDir,
      ...(nerf !== undefined ? { nerfSynthetic: nerf } : {}),
      captures,
      procedural: !args.options.has('no-procedural'),
      steps: intOption(args, 'steps', 2000),
      seed: intOption(args, 'seed', 0),
      device,
      grader,
      signal: controller.signal,
      log: (line) => io.err(line),
    });
    io.out(`${res.built.length} built, ${res.skipped.length} up to date, ${res.failed.length} failed, ${res.absent.length} absent; tasks in ${tasksDir}`);
    for (const f of res.failed) io.out(`failed: ${f.object}: ${f.error}`);
    return res.failed.length ? 1 : 0;
  } catch (err) {
    if (controller.signal.aborted) {
      io.err('cancelled; every object finished before is kept (run the same command to resume)');
      return 130;
    }
    throw err;
  } finally {
    grader.destroy();
    process.off('SIGINT', onSigint);
  }
}
