// `splatlab eval`: drives a model through many episodes. One machine: an embedded queue in this
// process. Many machines: --queue redis://... enqueues the run as a BullMQ flow (and waits), and
// `--queue URL --worker` runs a worker. Every (task, model, settings, run) is one job with a
// deterministic id and log path under --results, so a rerun skips what ended and resumes what broke.
import { resolve } from 'node:path';
import { labHome } from '../../io/home';
import { packageVersion } from '../../app/paths';
import { loadEvalConfig } from '../../models/config';
import { CAP_FLAGS, capsOption } from '../caps-options';
import { sharedGrader } from '../../eval/runtime';
import { checkKey, parseModelSpec, playerName } from '../../models/spec';
import { mulberry32 } from '../../../shared/math/random';
import { enqueueRun, startWorkers, waitForRun } from '../../queue/bullmq';
import { runEmbedded } from '../../queue/embedded';
import type { EpisodeOutcome, WorkerContext } from '../../queue/execute';
import { jobStates, matchTasks, planJobs, type EpisodeJobData } from '../../queue/plan';
import { StudyStore } from '../../study/store';
import { gradeStudyRuns } from '../../study/verify';
import { taskIds } from '../../tasks/load';
import { resolveTasksDir } from '../../tasks/paths';
import { parseArgs, stringOption, type ParsedArgs } from '../args';
import { CliError, type CliCommand, type CliIO } from '../command';

function intOption(args: ParsedArgs, name: string, fallback: number, min: number): number {
  const raw = stringOption(args, name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min) throw new CliError(`--${name} must be an integer >= ${min}`);
  return n;
}

function context(args: ParsedArgs, io: CliIO, signal: AbortSignal): WorkerContext {
  const device = stringOption(args, 'device') ?? 'gpu';
  if (device !== 'gpu' && device !== 'cpu') throw new CliError('--device is gpu or cpu');
  let config;
  try {
    config = loadEvalConfig(stringOption(args, 'config'));
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const caps = capsOption(args, config.caps);
  config = { ...config, ...(caps ? { caps } : {}) };
  return { tasksDir: resolveTasksDir(stringOption(args, 'tasks-folder')), grader: sharedGrader({ device, lpips: !args.options.has('no-lpips') }, (l) => io.err(l)), config, version: packageVersion(), signal };
}

/** The lab's verdict beside each new run of the study, as an import would store it. */
async function gradeRuns(study: string, ctx: WorkerContext, io: CliIO): Promise<void> {
  const { graded, problems } = await gradeStudyRuns(new StudyStore(labHome()), study, ctx.tasksDir, await ctx.grader());
  for (const p of problems) io.err(`not graded: ${p}`);
  if (graded) io.out(`graded ${graded} runs for study ${study} (the lab's replay and held-out grade, as an import)`);
}

function line(done: number, total: number, job: EpisodeJobData, outcome: EpisodeOutcome | Error): string {
  const head = `[${done}/${total}] ${job.taskId} run ${job.run}`;
  if (outcome instanceof Error) return `${head}: broken (${outcome.message}); rerun to resume`;
  const did = outcome.skipped ? 'already finished' : !outcome.played ? 'finished by its earlier delivery' : outcome.resumed ? 'resumed and finished' : 'finished';
  return `${head}: ${did}${outcome.costUsd !== null ? `, $${outcome.costUsd.toFixed(4)}` : ''}, ${outcome.wallS.toFixed(1)} s`;
}

export const command: CliCommand = {
  name: 'eval',
  usage: `splatlab eval --model SPEC --tasks GLOB [--runs N] [--concurrency K] [--results DIR | --study ID]
              [--temperature T] [--config FILE] [--tasks-folder DIR] [--device gpu|cpu] [--no-lpips]
              [--seed N] [--max-cost-usd X] [--max-tokens N] [--max-messages N] [--max-wall-s S]
              [--queue redis://HOST:PORT [--no-wait]]
splatlab eval --queue redis://HOST:PORT --worker [--concurrency K] [--lock-ms MS] [...]

SPEC is PROVIDER:MODEL[@EFFORT] with PROVIDER openai-chat, openai-responses, anthropic or
scripted (a built-in scripted player, e.g. scripted:basic). GLOB matches task ids (* and ?,
comma-separated) in the tasks folder (--tasks-folder, default SPLATLAB_TASKS_DIR, else the lab home's over the built-in set; here
--tasks is the glob). Logs (trajectory + .meta.json with tokens, cost, wall time, retries, model
version) go to --results (default ~/SplatLab/eval)/<provider-model>__<settings>/<task>__rN.jsonl;
--study ID puts them in that study's models/ folder, so Results shows them beside the participants.
A rerun skips finished episodes and resumes broken ones from their logs.
API keys come from the environment variables named in --config (default OPENAI_API_KEY,
ANTHROPIC_API_KEY); base URLs and the price table too (see docs/AGENTS.md).
--seed N: every random choice derives from N (the order of the episodes, each episode's seed from
N, task and run: sent to APIs that take one and used by scripted:random); it is in the job id.
--max-*: per-episode caps; an episode that reaches one ends as truncated (also "caps" in --config).
--queue: enqueue the run as a BullMQ flow on Redis and wait for it; --worker: pull episodes
(at most K at once per provider) until stopped with Ctrl+C.`,
  async run(argv, io) {
    const abort = new AbortController();
    const stop = (): void => abort.abort();
    process.once('SIGINT', stop);
    try {
      return await runEval(argv, io, abort.signal);
    } finally {
      process.off('SIGINT', stop);
    }
  },
};

async function runEval(argv: string[], io: CliIO, signal: AbortSignal): Promise<number> {
  // Elsewhere --tasks-dir is another spelling of --tasks (the folder); here --tasks is the glob.
  if (argv.some((a) => a === '--tasks-dir' || a.startsWith('--tasks-dir='))) throw new CliError('eval: --tasks is the task glob here; give the tasks folder with --tasks-folder DIR');
  const args = parseArgs(argv, {
    values: ['model', 'tasks', 'runs', 'concurrency', 'results', 'study', 'temperature', 'config', 'tasks-folder', 'device', 'queue', 'lock-ms', 'seed', ...CAP_FLAGS],
    flags: ['no-lpips', 'worker', 'no-wait'],
  });
  const ctx = context(args, io, signal);
  const concurrency = intOption(args, 'concurrency', 1, 1);
  const queue = stringOption(args, 'queue');
  if (args.options.has('worker')) {
    if (!queue) throw new CliError('--worker needs --queue redis://...');
    const per = ctx.config.concurrency;
    const limits = { openai: per.openai ?? concurrency, anthropic: per.anthropic ?? concurrency, scripted: per.scripted ?? concurrency };
    const workers = startWorkers(queue, ctx, { concurrency: limits, lockMs: intOption(args, 'lock-ms', 30_000, 200), onError: (l) => io.err(l), onEpisode: (j, o) => io.out(line(0, 0, j, o).replace('[0/0] ', '')) });
    io.err(`worker ready on ${queue} (episodes at once: openai ${limits.openai}, anthropic ${limits.anthropic}, scripted ${limits.scripted})`);
    await new Promise<void>((r) => {
      process.once('SIGTERM', () => r());
      signal.addEventListener('abort', () => r());
    });
    await workers.close();
    return 0;
  }
  const modelSpec = stringOption(args, 'model');
  const glob = stringOption(args, 'tasks');
  if (!modelSpec || !glob) throw new CliError('--model and --tasks are required');
  const t = stringOption(args, 'temperature');
  let spec;
  const seedRaw = stringOption(args, 'seed');
  const seed = seedRaw === undefined ? undefined : Number(seedRaw);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) throw new CliError('--seed must be an integer 0..4294967295');
  try {
    spec = { ...parseModelSpec(modelSpec, t === undefined ? null : Number(t)), ...(seed !== undefined ? { seed } : {}) };
    // Keys are checked once, here, not per episode.
    checkKey(spec, ctx.config, process.env);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const ids = matchTasks(glob, taskIds(ctx.tasksDir));
  if (!ids.length) throw new CliError(`no task in ${ctx.tasksDir} matches '${glob}'`);
  const study = stringOption(args, 'study');
  if (study && !new StudyStore(labHome()).exists(study)) throw new CliError(`no study '${study}' in ${labHome()}/studies`);
  const results = resolve(study ? new StudyStore(labHome()).resolveIn(study, 'models') : (stringOption(args, 'results') ?? `${labHome()}/eval`));
  const planned = planJobs(ids, spec, intOption(args, 'runs', 1, 1), results);
  // A seeded run plays its episodes in an order drawn from the seed (else in task order).
  const jobs = seed === undefined ? planned : mulberry32(seed).shuffle([...planned]);
  const states = jobStates(jobs);
  const todo = jobs.filter((j) => states.get(j.jobId) !== 'ended');
  const broken = todo.filter((j) => states.get(j.jobId) === 'partial').length;
  io.out(`${playerName(spec)}: ${jobs.length} episodes (${jobs.length - todo.length} finished, ${broken} to resume, ${todo.length - broken} new) -> ${results}`);
  if (!todo.length) {
    io.out('nothing to do');
    return 0;
  }
  if (queue) {
    const parent = await enqueueRun(queue, todo);
    io.out(`enqueued ${todo.length} episodes as flow ${parent} on ${queue}`);
    if (args.options.has('no-wait')) return 0;
    let last = -1;
    const state = await waitForRun(queue, parent, () => {
      const ended = [...jobStates(jobs).values()].filter((s) => s === 'ended').length;
      if (ended !== last) io.out(`[${ended}/${jobs.length}] episodes finished`);
      last = ended;
    });
    const ended = [...jobStates(jobs).values()].filter((s) => s === 'ended').length;
    io.out(`run ${state}: ${ended}/${jobs.length} episodes finished`);
    if (study) await gradeRuns(study, ctx, io);
    return state === 'completed' ? 0 : 1;
  }
  const outcomes = await runEmbedded(todo, ctx, { concurrency, onProgress: (d, n, j, o) => io.out(line(d, n, j, o)) });
  const failed = outcomes.filter((o) => o instanceof Error).length;
  io.out(failed ? `${failed} episodes broke; rerun the same command to resume them` : `all ${todo.length} episodes finished`);
  if (study) await gradeRuns(study, ctx, io);
  return failed ? 1 : 0;
}
