// `splatlab play`: plays one episode from a file of calls ({tool, args} per line), printing each
// result text, writing the trajectory and saving every returned image beside the log.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadAnyTask, mainKind } from '../../kinds/registry';
import { sharedGrader } from '../../grader/grader';
import { acquireGpu } from '../../gpu/device';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { mulberry32 } from '../../../shared/math/random';
import { randomCall } from '../../../shared/env/random-player';
import { kindModule } from '../../../shared/kinds/registry';

/** One call per non-empty line; a line that is not JSON is still played (as an unknown tool). */
export function readCalls(path: string): { tool: unknown; args?: unknown }[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      try {
        const v = JSON.parse(line) as { tool?: unknown; args?: unknown };
        return { tool: v?.tool, args: v?.args };
      } catch {
        return { tool: line.trim() };
      }
    });
}

export const command: CliCommand = {
  name: 'play',
  usage: [
    'splatlab play --task ID (--calls calls.jsonl | --random) --log out.jsonl [--seed N] [--out-dir DIR] [--device gpu|cpu] [--tasks DIR] [--player NAME]',
    '',
    'Plays one episode: each line of calls.jsonl is {"tool": ..., "args": {...}}. Prints every result',
    'text, writes the trajectory to --log and saves images as step-NNN.png beside the log (or in',
    '--out-dir). The hidden score goes to the log only; the final line prints it for the experimenter.',
    '--random plays the seeded random player (src/shared/env/random-player.ts) instead of a calls file;',
    '--seed N (default 0) is its seed and is recorded in the log\'s header: the same seed gives the same',
    'trajectory, less times.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['task', 'calls', 'log', 'out-dir', 'device', 'tasks', 'player', 'seed'], flags: ['random'] });
    const seedRaw = stringOption(args, 'seed');
    const seed = seedRaw === undefined ? undefined : Number(seedRaw);
    if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) throw new CliError('--seed must be an integer 0..4294967295');
    const random = args.options.has('random');
    if (random === args.options.has('calls')) throw new CliError('give exactly one of --calls FILE and --random');
    const device = stringOption(args, 'device') ?? 'gpu';
    if (device !== 'gpu' && device !== 'cpu') throw new CliError('--device is gpu or cpu');
    const log = requireOption(args, 'log');
    const outDir = stringOption(args, 'out-dir') ?? dirname(log);
    const calls = random ? [] : readCalls(requireOption(args, 'calls'));
    const tasksDir = stringOption(args, 'tasks');
    const task = await loadAnyTask(requireOption(args, 'task'), tasksDir ? { tasksDir } : {});
    const gpu = await acquireGpu({ forceCpu: device === 'cpu' });
    io.err(`GPU: ${gpu.status.path}: ${gpu.status.summary}`);
    const grader = await sharedGrader(gpu, {}, (why) => io.err(`GPU grader unavailable (${why}); grading on the CPU reference instead.`))();
    mkdirSync(outDir, { recursive: true });
    const stem = basename(log).replace(/\.jsonl$/, '');
    const save = (step: number, png: Uint8Array | undefined): void => {
      if (png) writeFileSync(join(outDir, `${stem}-step-${String(step).padStart(3, '0')}.png`), png);
    };
    const headerExtra = seed !== undefined || random ? { seed: seed ?? 0 } : {};
    const { env, obs } = await mainKind(task).reset(task, { grader, log, protocol: 'agent', player: stringOption(args, 'player') ?? (random ? 'random' : 'play'), headerExtra });
    if (random) {
      const rng = mulberry32(seed ?? 0);
      const tools = kindModule(task.spec.kind).toolSpecs().map((t) => t.name);
      for (let i = 0; i < env.budgets().callsLeft; i++) {
        const c = randomCall(tools, rng);
        calls.push({ tool: c.name, args: c.args });
      }
    }
    io.out(obs.text);
    save(0, obs.image);
    let step = 0;
    for (const call of calls) {
      if (env.done) break;
      step += 1;
      const out = await env.step(call);
      io.out(`\n> ${typeof call.tool === 'string' ? call.tool : '?'}`);
      io.out(out.text);
      save(step, out.image);
    }
    env.close();
    const grade = env.finalGrade();
    if (grade) io.err(`hidden score ${grade.score.toFixed(2)} (reward ${grade.reward.toFixed(3)}${'lpipsMissing' in grade && grade.lpipsMissing ? ', LPIPS missing' : ''})`);
    else io.err(`episode not finished: ${calls.length} calls played, ${env.budgets().callsLeft} calls left`);
    grader.destroy();
    return 0;
  },
};
