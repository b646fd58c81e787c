// `splatlab search generate|check|baseline|goals|export|annotation-task|judge`: the search task
// set (docs/TASKS.md, search section).
// generate writes procedural rooms and their episodes into a tasks folder; check runs the
// conformance check; baseline scores the random, blind, start-view and oracle players; export
// writes JSON episodes with goal images and scenes; annotation-task turns an agreed annotation
// into a task; judge runs the LLM judge over a study's free-text answers through a model runner
// (as `splatlab eval`).
import { resolve } from 'node:path';
import { labHome } from '../../app/home';
import { loadEvalConfig } from '../../eval/config';
import { makeClient, parseModelSpec, playerName } from '../../eval/spec';
import { judgeLogs } from '../../kinds/search/judge';
import { studySearchLogs } from '../../kinds/search/study/results';
import { StudyStore } from '../../studies/store';
import { BASELINES, type Baseline } from '../../../shared/kinds/search/players';
import { exportAnnotation } from '../../kinds/search/annotations';
import { exportEpisodes } from '../../kinds/search/export';
import { checkTaskSet, generateTaskSet, runBaseline, writeGoalImages } from '../../kinds/search/task-set';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { intOption } from './author-options';

const USAGE = `splatlab search generate [--dir DIR] [--rooms N] [--questions Q] [--seed S]
splatlab search check [--dir DIR]
splatlab search baseline [--dir DIR] [--player random|blind|start-view|oracle|all] [--seed S]
splatlab search goals [--dir DIR] [--task ID] --out OUTDIR
splatlab search export [--dir DIR] [--task ID] --out OUTDIR
splatlab search annotation-task [--dir DIR] --annotation ID
splatlab search judge --study ID --model SPEC [--config FILE] [--dir DIR] [--force]

generate: N procedural rooms (seeds 1..N, default 6) with up to Q questions each (default 12);
each question gets a start viewpoint drawn from the unanswerable set at 3..10 actions from the
nearest answerable view (BFS); answers are balanced per question family over the set (no\nanswer above a third of its family). Writes DIR/search/rooms/*.json
and DIR/search__*.json (default DIR: tasks, the lab's tasks folder).
check: every task's start is unanswerable, an answerable view is reachable within the step budget
(BFS over the action graph), and the stored answer equals the room's.
baseline: correctness, success, steps, path length and collision rate of a baseline player\n(the blind prior of each task is learnt from the other tasks of the set).
goals: renders each task's goal image (512x512 at 90 degrees from the goal viewpoint) into OUTDIR.
export: writes OUTDIR/episodes/<task>.json (scene, question, answer, answer type, start, answerable
poses, goal), OUTDIR/goals/<task>.png and the scenes beside them (OUTDIR/scenes/...), and index.json.
annotation-task: turns an agreed annotation (DIR/search/annotations/ID.json) into a search task.
judge: sends each free-text search answer of the study (question, correct answer and synonyms,
the given answer) with the pinned OpenEQA prompt to the model SPEC (PROVIDER:MODEL[@EFFORT], the
clients and --config of splatlab eval; scripted:basic is a deterministic judge) and stores its
mark beside the log (<log>.judge.json); answers already judged by SPEC are skipped unless --force.`;

export const command: CliCommand = {
  name: 'search',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const args = parseArgs(rest, { values: ['dir', 'rooms', 'questions', 'seed', 'player', 'task', 'out', 'annotation', 'study', 'model', 'config'], flags: ['force'] });
    const dir = resolve(stringOption(args, 'dir') ?? 'tasks');
    if (sub === 'generate') {
      const n = intOption(args, 'rooms', 6, 1);
      const ids = generateTaskSet(dir, { rooms: Array.from({ length: n }, (_, i) => i + 1), questions: intOption(args, 'questions', 12, 1), seed: intOption(args, 'seed', 0), onProgress: io.out });
      io.out(`wrote ${ids.length} search tasks over ${n} rooms to ${dir}`);
      return 0;
    }
    if (sub === 'check') {
      const reports = await checkTaskSet(dir, io.out);
      const bad = reports.filter((r) => r.problems.length > 0);
      io.out(`${reports.length - bad.length}/${reports.length} search tasks conform`);
      return bad.length ? 1 : 0;
    }
    if (sub === 'baseline') {
      const which = stringOption(args, 'player') ?? 'all';
      if (which !== 'all' && !(BASELINES as readonly string[]).includes(which)) throw new CliError(`unknown player '${which}' (use ${BASELINES.join(', ')} or all)`);
      const players = which === 'all' ? [...BASELINES] : [which as Baseline];
      io.out('player      episodes  correct  success  steps  path_m  collision_rate');
      for (const p of players) {
        const s = (await runBaseline(dir, p, intOption(args, 'seed', 0))).summary;
        io.out(`${p.padEnd(11)} ${String(s.episodes).padStart(8)}  ${s.correct.toFixed(3).padStart(7)}  ${s.success.toFixed(3).padStart(7)}  ${s.steps.toFixed(1).padStart(5)}  ${s.pathLength.toFixed(2).padStart(6)}  ${s.collisionRate.toFixed(3).padStart(14)}`);
      }
      return 0;
    }
    if (sub === 'goals') {
      const out = stringOption(args, 'out');
      if (!out) throw new CliError('search goals needs --out OUTDIR');
      const task = stringOption(args, 'task');
      const paths = await writeGoalImages(dir, resolve(out), task ? [task] : undefined, io.out);
      if (paths.length === 0) throw new CliError(`no search task${task ? ` '${task}'` : 's'} in ${dir}`);
      io.out(`wrote ${paths.length} goal images`);
      return 0;
    }
    if (sub === 'export') {
      const out = stringOption(args, 'out');
      if (!out) throw new CliError('search export needs --out OUTDIR');
      const task = stringOption(args, 'task');
      try {
        const r = await exportEpisodes(dir, resolve(out), { only: task ? [task] : undefined, onProgress: (done, total, id) => io.out(`${done}/${total} ${id}`) });
        io.out(`wrote ${r.episodes.length} episodes over ${r.scenes.length} scenes to ${r.dir}`);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      return 0;
    }
    if (sub === 'annotation-task') {
      const id = stringOption(args, 'annotation');
      if (!id) throw new CliError('search annotation-task needs --annotation ID');
      try {
        const r = await exportAnnotation(dir, id);
        io.out(`wrote ${r.taskId} (BFS ${r.report.bfsSteps} steps to an agreed answerable viewpoint)`);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      return 0;
    }
    if (sub === 'judge') {
      const study = stringOption(args, 'study');
      const model = stringOption(args, 'model');
      if (!study || !model) throw new CliError('search judge needs --study ID and --model SPEC');
      const store = new StudyStore(labHome());
      if (!store.exists(study)) throw new CliError(`no study '${study}' in ${labHome()}/studies`);
      let make;
      let name;
      try {
        const spec = parseModelSpec(model);
        const config = loadEvalConfig(stringOption(args, 'config'));
        makeClient(spec, config);
        make = () => makeClient(spec, config);
        name = playerName(spec);
      } catch (e) {
        throw new CliError((e as Error).message);
      }
      const r = await judgeLogs(studySearchLogs(store, study, dir), make, name, { force: args.options.has('force'), onProgress: io.out });
      io.out(`${name}: ${r.judged} judged, ${r.unparseable} unparseable, ${r.skipped} skipped (closed answer, no answer or judged already)`);
      return 0;
    }
    throw new CliError(`usage: ${USAGE.split('\n')[0]} (got '${sub ?? ''}')`);
  },
};
