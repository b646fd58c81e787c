// `splatlab author generate`: a batch of seeded random multi-object tasks (sculpt, reassembly and
// one-shot per scene) with the batch's budgets, in one command. Part of the `author` command.
import { DEFAULT_BUILD_STEPS, DEFAULT_PARTS } from '../../authoring/build';
import { composeScene, fittedLibrary, generateBatch, parsePlacements, sceneLibrary } from '../../authoring/generate';
import { Grader } from '../../grader/grader';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliIO } from '../command';
import { BUDGET_OPTIONS, budgetOptions, intOption, optionalInt } from './author-options';

export const GENERATE_USAGE = `splatlab author generate --count N [--seed S] [--prefix P] [--objects MIN..MAX] [--library a,b,...]
    [--fitted] [--steps N] [--k K] [--gaussians N] [--calls N] [--renders N] [--tasks DIR]

Generates N scenes of 2..4 objects drawn from the library (the built-ins and every authored
object of the task set, or --library), each with a random scale, heading and colour, standing on
the ground plane without overlapping, and builds each as the three tasks <P><S>_<i>__sculpt,
__reassembly and __oneshot (photos, fit, scramble, anchors) with the given budgets
(default 300 Gaussians, 40 calls, 16 renders). --steps is the reference fit (default ${DEFAULT_BUILD_STEPS}).
Each scene's object.json is kept, so 'splatlab author build NAME' rebuilds it alone.
--fitted composes each scene from the objects' fits instead of their primitives, so any built
object can be drawn (imported NeRF and .ply objects too; --library names them); the photos are
then renders of the composed Gaussians, and the scene is rebuilt from its photos.`;

function objectRange(raw: string | undefined): { minObjects?: number; maxObjects?: number } {
  if (raw === undefined) return {};
  const m = /^(\d+)(?:\.\.(\d+))?$/.exec(raw);
  if (!m) throw new CliError(`--objects must be N or MIN..MAX (got '${raw}')`);
  const lo = Number(m[1]);
  const hi = Number(m[2] ?? m[1]);
  if (lo < 1 || hi < lo || hi > 8) throw new CliError(`--objects must satisfy 1 <= MIN <= MAX <= 8 (got '${raw}')`);
  return { minObjects: lo, maxObjects: hi };
}

export async function generateCommand(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--help')) {
    io.out(GENERATE_USAGE);
    return 0;
  }
  const args = parseArgs(argv, { values: ['count', 'seed', 'prefix', 'objects', 'library', 'steps', 'k', 'tasks', ...BUDGET_OPTIONS], flags: ['fitted'] });
  if (args.positionals.length) throw new CliError(`unexpected argument '${args.positionals[0]}'`);
  const count = optionalInt(args, 'count', 1);
  if (count === undefined) throw new CliError('--count is required (how many scenes to generate)');
  const prefix = stringOption(args, 'prefix') ?? 'gen';
  if (!/^[a-z][a-z0-9_-]{0,20}$/.test(prefix)) throw new CliError(`--prefix must be lower-case letters, digits, _ or - starting with a letter (got '${prefix}')`);
  const tasksDir = resolveTasksDir(stringOption(args, 'tasks'));
  const library = stringOption(args, 'library')?.split(',').map((s) => s.trim()).filter(Boolean);
  const fitted = args.options.has('fitted');
  try {
    if (fitted) fittedLibrary(tasksDir, library);
    else sceneLibrary(tasksDir, library);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const grader = await Grader.create({ device: null });
  if (grader.lpipsProblem) io.err(`LPIPS unavailable (${grader.lpipsProblem}); anchors record lpips null`);
  const started = Date.now();
  try {
    const results = await generateBatch({
      seed: intOption(args, 'seed', 0),
      count,
      prefix,
      ...(library ? { library } : {}),
      ...(fitted ? { fitted } : {}),
      ...objectRange(stringOption(args, 'objects')),
      steps: intOption(args, 'steps', DEFAULT_BUILD_STEPS),
      k: intOption(args, 'k', DEFAULT_PARTS, 1),
      budgets: budgetOptions(args),
      tasksDir,
      grader,
      log: (line) => io.out(line),
    });
    for (const r of results) io.out(`${r.object}: wrote ${r.specs.map((s) => s.task_id).join(', ')}`);
    io.out(`generated ${results.length} scene(s) (${results.length * 3} tasks) in ${tasksDir} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    grader.destroy();
  }
  return 0;
}

export const COMPOSE_USAGE = `splatlab author compose NAME --place "OBJ@X,Y[,SCALE[,HEADING[,HUE]]];OBJ@..." [--steps N] [--k K]
    [--gaussians N] [--calls N] [--renders N] [--tasks DIR]

Composes a scene by hand from built objects of the task set (built-ins, authored, imported NeRF or
.ply objects), each from its fit: centred at (X, Y) on the ground plane, scaled (default 0.45),
turned HEADING degrees about Z and hue-turned HUE degrees. Footprints must not overlap. Builds the
three tasks NAME__sculpt, __reassembly and __oneshot from renders of the composed Gaussians.`;

export async function composeCommand(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--help')) {
    io.out(COMPOSE_USAGE);
    return 0;
  }
  const args = parseArgs(argv, { values: ['place', 'steps', 'k', 'tasks', ...BUDGET_OPTIONS] });
  const [name, ...extra] = args.positionals;
  if (!name || extra.length) throw new CliError('name the scene to compose: splatlab author compose NAME --place ...');
  if (!/^[a-z][a-z0-9_-]{0,40}$/.test(name)) throw new CliError(`the scene name must be lower-case letters, digits, _ or - starting with a letter (got '${name}')`);
  const place = stringOption(args, 'place');
  if (!place) throw new CliError('--place is required (e.g. --place "tree@0.4,0;mushroom@-0.4,0.1,0.4,30")');
  const tasksDir = resolveTasksDir(stringOption(args, 'tasks'));
  let placements;
  try {
    placements = parsePlacements(place);
    fittedLibrary(tasksDir, placements.map((p) => p.object));
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const grader = await Grader.create({ device: null });
  try {
    const r = await composeScene(name, { placements, steps: intOption(args, 'steps', DEFAULT_BUILD_STEPS), k: intOption(args, 'k', DEFAULT_PARTS, 1), budgets: budgetOptions(args), tasksDir, grader, log: (line) => io.out(line) }).catch((err: Error) => {
      throw new CliError(err.message);
    });
    io.out(`${r.object}: wrote ${r.specs.map((s) => s.task_id).join(', ')} in ${tasksDir}`);
  } finally {
    grader.destroy();
  }
  return 0;
}
