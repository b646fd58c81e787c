// `splatlab author build OBJECT|--all [--steps N] [--seed S] [--k K] [--tasks-dir D] [--device cpu|gpu]`:
// builds the sculpt, reassembly and one-shot tasks of procedural objects, printing one line per
// stage. Fit and anchors use the CPU references unless --device gpu (the CPU path is the
// deterministic one: it rebuilds the committed tasks bit for bit).
import { PROCEDURAL_OBJECT_NAMES } from '../../../shared/authoring/objects/index';
import { buildObject, DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS, DEFAULT_PARTS } from '../../authoring/build';
import { acquireGpu } from '../../gpu/device';
import { Grader } from '../../grader/grader';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, stringOption, type ParsedArgs } from '../args';
import { CliError, type CliCommand } from '../command';

const USAGE = `splatlab author build OBJECT|--all [--steps N] [--seed S] [--k K] [--tasks-dir DIR] [--device cpu|gpu]

Builds tasks/<object>__sculpt.json, __reassembly.json and __oneshot.json with the object's folder
tasks/objects/<object>/ (photos, masks, cameras, fit, scramble, anchors). Objects: ${PROCEDURAL_OBJECT_NAMES.join(', ')}.
  --steps N     fit steps (default ${DEFAULT_BUILD_STEPS})
  --seed S      fit seed; the scramble seed is derived from S and the object name (default ${DEFAULT_BUILD_SEED})
  --k K         reassembly parts (default ${DEFAULT_PARTS})
  --device gpu  fit and compute anchors on the GPU (default cpu: deterministic CPU references)
Everything is written to a staging folder first and moved into place at the end.`;

/** A non-negative integer option, or the default. */
export function intOption(args: ParsedArgs, name: string, fallback: number, min = 0): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(v) || v < min) throw new CliError(`--${name} must be an integer >= ${min} (got '${raw}')`);
  return v;
}

export const command: CliCommand = {
  name: 'author',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'build') throw new CliError(`unknown author subcommand '${sub ?? ''}' (use: splatlab author build OBJECT|--all)`);
    const args = parseArgs(rest, { values: ['steps', 'seed', 'k', 'tasks-dir', 'device'], flags: ['all'] });
    const objects = args.options.has('all') ? [...PROCEDURAL_OBJECT_NAMES] : args.positionals;
    if (objects.length === 0) throw new CliError('name an object or pass --all');
    const unknown = objects.filter((o) => !PROCEDURAL_OBJECT_NAMES.includes(o));
    if (unknown.length) throw new CliError(`unknown object ${unknown.join(', ')} (known: ${PROCEDURAL_OBJECT_NAMES.join(', ')})`);
    const steps = intOption(args, 'steps', DEFAULT_BUILD_STEPS);
    const seed = intOption(args, 'seed', DEFAULT_BUILD_SEED);
    const k = intOption(args, 'k', DEFAULT_PARTS, 1);
    const deviceName = stringOption(args, 'device') ?? 'cpu';
    if (deviceName !== 'cpu' && deviceName !== 'gpu') throw new CliError(`--device must be cpu or gpu (got '${deviceName}')`);
    const device = deviceName === 'gpu' ? (await acquireGpu()).device : null;
    if (deviceName === 'gpu' && !device) io.err('no GPU adapter found; using the CPU references');
    const tasksDir = resolveTasksDir(stringOption(args, 'tasks-dir'));
    const grader = await Grader.create({ device });
    if (grader.lpipsProblem) io.err(`LPIPS unavailable (${grader.lpipsProblem}); anchors record lpips null`);
    const started = Date.now();
    try {
      for (const object of objects) {
        const r = await buildObject(object, { steps, seed, k, tasksDir, grader, device, log: (line) => io.out(line) });
        io.out(`${object}: wrote ${r.specs.map((s) => s.task_id).join(', ')} in ${tasksDir}`);
      }
    } finally {
      grader.destroy();
    }
    io.out(`built ${objects.length} object(s) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return 0;
  },
};
