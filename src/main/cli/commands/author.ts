// `splatlab author build NAME...|--all [--steps N] [--seed S] [--k K] [--gaussians N] [--calls N]
// [--renders N] [--tasks DIR] [--device cpu|gpu]`: builds the sculpt, reassembly and one-shot tasks
// of objects, printing one line per stage. A name is a built-in or any object of the task set
// (authored, generated or imported: see rebuild.ts); the recipe defaults to the object's previous
// build. Fit and anchors use the CPU references unless --device gpu (the CPU path is the
// deterministic one: it rebuilds the committed tasks bit for bit).
import { PROCEDURAL_OBJECT_NAMES } from '../../../shared/authoring/objects/index';
import { DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS, DEFAULT_PARTS } from '../../authoring/build';
import { buildableObjects, rebuildObject } from '../../authoring/rebuild';
import { acquireGpu } from '../../gpu/device';
import { Grader } from '../../grader/grader';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, stringOption } from '../args';
import { BUDGET_OPTIONS, budgetOptions, optionalInt } from './author-options';
import { CliError, type CliCommand } from '../command';
import { composeCommand, generateCommand } from './author-generate';

const USAGE = `splatlab author build NAME...|--all [--steps N] [--seed S] [--k K] [--gaussians N] [--calls N] [--renders N] [--tasks DIR] [--device cpu|gpu]
splatlab author generate --count N [options]   (see splatlab author generate --help)
splatlab author compose NAME --place ...      (see splatlab author compose --help)

Builds DIR/<name>__sculpt.json, __reassembly.json and __oneshot.json with the object's folder
DIR/objects/<name>/ (photos, masks, cameras, fit, scramble, anchors, build.json with its history).
DIR is --tasks (default SPLATLAB_TASKS_DIR, else the lab home's tasks/, where the built-in set's
objects are refused: --tasks tasks rebuilds the committed set).
NAME is a built-in (${PROCEDURAL_OBJECT_NAMES.join(', ')}) or any object of the task set: one with an
object.json (authored, generated) is ray-cast again from it; an imported one keeps its photos and
is refitted. --all builds the built-ins and every object of the task set.
  --steps N     fit steps (default: the previous build's, else ${DEFAULT_BUILD_STEPS})
  --seed S      fit seed; the scramble seed is derived from S and the name (default: previous, else ${DEFAULT_BUILD_SEED})
  --k K         reassembly parts (default: previous, else ${DEFAULT_PARTS})
  --gaussians N, --calls N, --renders N   task budgets (default: previous, else 300, 40, 16)
  --device gpu  fit and compute anchors on the GPU (default cpu: deterministic CPU references)
Everything is written to a staging folder first and moved into place at the end.`;

export const command: CliCommand = {
  name: 'author',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'generate') return generateCommand(rest, io);
    if (sub === 'compose') return composeCommand(rest, io);
    if (sub !== 'build') throw new CliError(`unknown author subcommand '${sub ?? ''}' (use: splatlab author build NAME|--all, splatlab author generate, or splatlab author compose)`);
    const args = parseArgs(rest, { values: ['steps', 'seed', 'k', 'tasks', 'device', ...BUDGET_OPTIONS], flags: ['all'] });
    const tasksDir = resolveTasksDir(stringOption(args, 'tasks'));
    const known = buildableObjects(tasksDir);
    const objects = args.options.has('all') ? known : args.positionals;
    if (objects.length === 0) throw new CliError('name an object or pass --all');
    const unknown = objects.filter((o) => !known.includes(o));
    if (unknown.length) throw new CliError(`unknown object ${unknown.join(', ')} (known: ${known.join(', ')})`);
    const steps = optionalInt(args, 'steps', 0);
    const seed = optionalInt(args, 'seed', 0);
    const k = optionalInt(args, 'k', 1);
    const budgets = budgetOptions(args);
    const deviceName = stringOption(args, 'device') ?? 'cpu';
    if (deviceName !== 'cpu' && deviceName !== 'gpu') throw new CliError(`--device must be cpu or gpu (got '${deviceName}')`);
    const device = deviceName === 'gpu' ? (await acquireGpu()).device : null;
    if (deviceName === 'gpu' && !device) io.err('no GPU adapter found; using the CPU references');
    const grader = await Grader.create({ device });
    if (grader.lpipsProblem) io.err(`LPIPS unavailable (${grader.lpipsProblem}); anchors record lpips null`);
    const started = Date.now();
    try {
      for (const object of objects) {
        const r = await rebuildObject(object, { steps, seed, k, budgets, tasksDir, grader, device, log: (line) => io.out(line) });
        io.out(`${object}: wrote ${r.specs.map((s) => s.task_id).join(', ')} in ${tasksDir}`);
      }
    } finally {
      grader.destroy();
    }
    io.out(`built ${objects.length} object(s) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return 0;
  },
};
