// `splatlab search generate|check|baseline|filter|goals|export|annotation-task|judge|make-prop`: the
// search task set (docs/TASKS.md, search section); the tasks folder is --tasks DIR as elsewhere.
// generate writes procedural rooms and their episodes into a tasks folder; check runs the
// conformance check; baseline scores the random, blind, start-view and oracle players; export
// writes JSON episodes with goal images and scenes; annotation-task turns an agreed annotation
// into a task; judge runs the LLM judge over a study's free-text answers through a model runner
// (as `splatlab eval`).
import { resolve } from 'node:path';
import { labHome } from '../../io/home';
import { loadEvalConfig } from '../../models/config';
import { makeClient, parseModelSpec, playerName } from '../../models/spec';
import { judgeAgreement, judgeLogs } from './judge';
import { judgeImages } from './judge-images';
import { studySearchLogs } from './study/results';
import { StudyStore } from '../../study/store';
import { BASELINES, type Baseline } from '../../../shared/kinds/search/players';
import { exportAnnotation } from './annotations';
import { exportEpisodes } from './export';
import { checkTaskSet, generateTaskSet, loadAll, runBaseline, writeGoalImages } from './task-set';
import { runStaticBaseline, staticLine, STATIC_MODES, type StaticMode } from './static-baseline';
import { runRandomAction } from './random-action';
import { filterAnswerability, FILTER_RECORD } from './answerability-filter';
import { OBS_SIZE } from '../../../shared/kinds/search/render';
import { parseArgs, stringOption } from '../../cli/args';
import { CliError, type CliCommand } from '../../cli/command';
import { intOption } from '../../cli/commands/author-options';
import { resolveTasksDir } from '../../tasks/paths';
import { writeSplatFile } from '../../formats/write';
import { capturedPlant } from '../../../shared/kinds/search/capture-like';
import { setChance } from '../../../shared/kinds/search/chance';
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';

const USAGE = `splatlab search generate [--tasks DIR] [--rooms N] [--questions Q] [--per-question K] [--seed S] [--no-props] [--closed]
splatlab search check [--tasks DIR] [--task ID]
splatlab search baseline [--tasks DIR] [--player random|blind|start-view|oracle|all] [--seed S] [--seeds K]
splatlab search baseline --model SPEC [--player blind|start-view] [--judge SPEC] [--config FILE] [--tasks DIR]
                         [--task ID] [--size PX]
splatlab search baseline --player random-action --model SPEC --judge SPEC [--config FILE] [--tasks DIR]
                         [--task ID] [--seed S]
splatlab search filter --model SPEC --judge SPEC [--config FILE] [--tasks DIR] [--task ID] [--size PX]
splatlab search goals [--tasks DIR] [--task ID] --out OUTDIR
splatlab search export [--tasks DIR] [--task ID] --out OUTDIR
splatlab search annotation-task [--tasks DIR] --annotation ID
splatlab search judge --study ID --model SPEC [--config FILE] [--tasks DIR] [--force]
splatlab search make-prop --out FILE [--seed S]

DIR is the tasks folder (default SPLATLAB_TASKS_DIR, else <lab home>/tasks over the built-in set,
which refuses the built-in rooms: --tasks tasks regenerates them; --dir and --tasks-dir are older
spellings of --tasks).
generate: N procedural rooms (seeds 1..N, default 30) with up to Q questions each (default 24) and
K episodes per question (default 1). Every third room has a captured prop behind its cabinet
(search/props/plant.ply, written from a seed when absent; --no-props: none). Each episode's start is
made as E3VS makes them: a viewpoint on spheres around the question's objects, looking at them,
that does not answer and is not a view of one colour; the goal is the nearest answerable view by
BFS, 3..10 actions away; answers are balanced per question family (no answer above a third of its
family) and rooms are split by scene into train, val and test. Questions are open (free-text
answers the judge scores, as E3VS's); --closed gives the closed forms the exact checker scores.
check: every task's start is collision-free and unanswerable, an answerable view is reachable
within the step budget (A* to the stored goal, else BFS), the stored answer equals the room's, and
every room's tasks share one split; prints the rooms and episodes per split.
baseline: accuracy, success, steps, path length and collision rate of a baseline player beside the
analytic chance of the set (random, printed as answer-space chance: uniform actions, then a uniform
answer over each question's answer space; blind: the family's most common answer among the other tasks;
start-view: answers only when the start view answers; oracle: walks to the goal and answers).
--seeds K averages the random player over seeds S..S+K-1. With --model SPEC (the clients and
--config of splatlab eval) a model plays blind (the question alone) or start-view (the question and
the start view): one answer through the stop tool; with --judge SPEC the judge marks each answer as
the filter does (the pinned prompt with the start and goal views at --size PX, default 512) and it
prints judge accuracy, the exact checker on the closed families beside it and the chance; without
--judge the exact checker scores every answer, and the line says how many open answers it read only
provisionally (not judged). The rule players' accuracy (random, blind, start-view, oracle) is the
exact checker's, labelled so (exact%), an open answer's a provisional reading.
--player random-action is E3VS's Random Action: uniform random motions for each episode's budget,
then the model SPEC answers from the final view and the judge --judge SPEC marks it (5 or 1, the
pinned prompt with the end and goal views); prints judge accuracy, the exact checker's accuracy on
the closed families beside it, average steps and collision rate.
filter: E3VS's answerability filter: the model SPEC answers each task blind and from the start
view, the judge --judge SPEC marks both answers (the pinned prompt with the start and goal views),
and a task with a mark of 3 or more is removed from the tasks folder and listed with its marks in
search/answerability-filter.json; every kept task records its marks (answerability_filter).
--size PX renders the start and goal views at PX (default 512, recorded when not 512).
goals: renders each task's goal image (512x512 at 90 degrees from the goal viewpoint) into OUTDIR.
export: writes OUTDIR/episodes/<task>.json (scene, question, answer, answer type, start, answerable
poses, goal), OUTDIR/goals/<task>.png and the scenes beside them (OUTDIR/scenes/...), and index.json.
annotation-task: turns an agreed annotation (DIR/search/annotations/ID.json) into a search task.
judge: sends each free-text search answer of the study with the pinned E3VS/OpenEQA prompt (its
few-shot examples, the question, the correct answer and synonyms, the given answer, and the end
and goal images) to the model SPEC (PROVIDER:MODEL[@EFFORT], the clients and --config of splatlab
eval; scripted:basic is a deterministic judge) and stores its mark (5 correct, 1 wrong) with the
prompt's hash beside the log (<log>.judge.json); answers already judged by SPEC are skipped
unless --force. Ends with Spearman's rho of the judge's and the human raters' marks.
make-prop: writes the capture-like potted plant (INRIA .ply, Y up) used as a prop.`;

/** The analytic chance per question family and per split, one line each. */
function chanceByGroup(specs: readonly SearchTaskSpec[]): string[] {
  const line = (title: string, key: (s: SearchTaskSpec) => string) => {
    const groups = new Map<string, SearchTaskSpec[]>();
    for (const s of specs) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
    return `chance by ${title}: ${[...groups].sort((a, b) => a[0].localeCompare(b[0])).map(([k, g]) => `${k} ${(100 * setChance(g.map((x) => x.question))).toFixed(1)}% (${g.length})`).join(', ')}`;
  };
  return [line('family', (s) => s.question.family), line('split', (s) => s.split ?? 'none')];
}

/** What scored the rule players' accuracy: the exact checker, provisional on open answers (no judge marks them). */
function ruleLabel(specs: readonly SearchTaskSpec[]): string {
  const open = specs.filter((s) => s.question.answer.type === 'text').length;
  return `exact%: the exact checker's accuracy, not judged${open ? `; ${open} of ${specs.length} episodes have open answers, which E3VS's judge scores: for them it is a provisional reading` : ''}`;
}

function pct(v: number): string {
  return (100 * v).toFixed(1).padStart(6);
}

export const command: CliCommand = {
  name: 'search',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const args = parseArgs(rest, { values: ['tasks', 'dir', 'rooms', 'questions', 'per-question', 'seed', 'seeds', 'player', 'task', 'out', 'annotation', 'study', 'model', 'judge', 'config', 'size'], flags: ['force', 'no-props', 'closed'] });
    const dir = resolveTasksDir(stringOption(args, 'tasks') ?? stringOption(args, 'dir'));
    if (sub === 'generate') {
      const n = intOption(args, 'rooms', 30, 1);
      const ids = await generateTaskSet(dir, {
        rooms: Array.from({ length: n }, (_, i) => i + 1), questions: intOption(args, 'questions', 24, 1), perQuestion: intOption(args, 'per-question', 1, 1),
        seed: intOption(args, 'seed', 0), propEvery: args.options.has('no-props') ? 0 : 3, closed: args.options.has('closed'), onProgress: io.out,
      });
      io.out(`wrote ${ids.length} search tasks over ${n} rooms to ${dir}`);
      return 0;
    }
    if (sub === 'check') {
      const task = stringOption(args, 'task');
      const r = await checkTaskSet(dir, io.out, task ? [task] : undefined);
      const bad = r.tasks.filter((t) => t.problems.length > 0);
      for (const p of r.problems) io.out(p);
      io.out(`${r.tasks.length - bad.length}/${r.tasks.length} search tasks conform over ${r.rooms} rooms; splits by scene: ${Object.entries(r.splits).map(([k, v]) => `${k} ${v.rooms} rooms / ${v.episodes} episodes`).join(', ')}`);
      return bad.length || r.problems.length ? 1 : 0;
    }
    if (sub === 'filter' || (sub === 'baseline' && stringOption(args, 'player') === 'random-action')) {
      const model = stringOption(args, 'model'), judgeSpec = stringOption(args, 'judge');
      if (!model || !judgeSpec) throw new CliError(`search ${sub === 'filter' ? 'filter' : 'baseline --player random-action'} needs --model SPEC (the answering model) and --judge SPEC`);
      let answerer, judge;
      try {
        const config = loadEvalConfig(stringOption(args, 'config'));
        const a = parseModelSpec(model), j = parseModelSpec(judgeSpec);
        makeClient(a, config);
        makeClient(j, config);
        answerer = () => makeClient(a, config);
        judge = () => makeClient(j, config);
      } catch (e) {
        throw new CliError((e as Error).message);
      }
      const task = stringOption(args, 'task');
      if (sub === 'filter') {
        const r = await filterAnswerability(dir, await loadAll(dir, task ? [task] : undefined), answerer, judge, { model, judge: judgeSpec, size: intOption(args, 'size', OBS_SIZE, 16), onProgress: io.out });
        io.out(`answerability filter (${model}, judged by ${judgeSpec}): kept ${r.kept.length}, excluded ${r.excluded.length} (listed in ${FILTER_RECORD})`);
        return 0;
      }
      const s = await runRandomAction(await loadAll(dir, task ? [task] : undefined), answerer, judge, { judge: judgeSpec, seed: intOption(args, 'seed', 0), onProgress: io.out });
      io.out(`Random Action (${model}, judged by ${judgeSpec}): judge accuracy ${pct(s.judgeAccuracy).trim()}% over ${s.judged} judged answers (${s.unparseable} unparseable) of ${s.episodes} episodes; `
        + `exact checker on the ${s.closed} closed ones ${s.exactAccuracy === null ? '-' : `${pct(s.exactAccuracy).trim()}%`}; average steps ${s.steps.toFixed(1)}; collision rate ${s.collisionRate.toFixed(3)}`);
      return 0;
    }
    if (sub === 'baseline' && stringOption(args, 'model')) {
      const mode = stringOption(args, 'player') ?? 'blind';
      if (!(STATIC_MODES as readonly string[]).includes(mode)) throw new CliError(`a model plays the static baselines only: --player ${STATIC_MODES.join(' or ')}`);
      const model = stringOption(args, 'model')!, judgeSpec = stringOption(args, 'judge');
      let make, judge;
      try {
        const spec = parseModelSpec(model);
        const config = loadEvalConfig(stringOption(args, 'config'));
        makeClient(spec, config);
        make = () => makeClient(spec, config);
        if (judgeSpec) {
          const j = parseModelSpec(judgeSpec);
          makeClient(j, config);
          judge = { name: judgeSpec, make: () => makeClient(j, config) };
        }
      } catch (e) {
        throw new CliError((e as Error).message);
      }
      const task = stringOption(args, 'task');
      const s = await runStaticBaseline(await loadAll(dir, task ? [task] : undefined), mode as StaticMode, make, { judge, size: intOption(args, 'size', OBS_SIZE, 16), onProgress: io.out });
      io.out(staticLine(model, s));
      return 0;
    }
    if (sub === 'baseline') {
      const which = stringOption(args, 'player') ?? 'all';
      if (which !== 'all' && !(BASELINES as readonly string[]).includes(which)) throw new CliError(`unknown player '${which}' (use ${BASELINES.join(', ')} or all)`);
      const players = which === 'all' ? [...BASELINES] : [which as Baseline];
      const seed = intOption(args, 'seed', 0);
      const seeds = intOption(args, 'seeds', 1, 1);
      io.out('player               episodes     exact%  chance%  success%  steps  path_m  collision_rate');
      let chanceLines: string[] = [];
      let specsOf: readonly SearchTaskSpec[] = [];
      for (const p of players) {
        const runs = p === 'random' ? seeds : 1;
        const sums = await Promise.all(Array.from({ length: runs }, async (_, k) => (await runBaseline(dir, p, seed + k)).summary));
        const m = (f: (s: (typeof sums)[number]) => number) => sums.reduce((a, s) => a + f(s), 0) / sums.length;
        const s = sums[0];
        if (p === players[0]) {
          chanceLines = chanceByGroup(sums[0].specs);
          specsOf = sums[0].specs;
        }
        io.out(`${(p === 'random' ? 'answer-space chance' : p).padEnd(20)} ${String(s.episodes * runs).padStart(8)}  ${pct(m((x) => x.correct)).padStart(9)}  ${pct(s.chance).padStart(7)}  ${pct(m((x) => x.success)).padStart(8)}  ${m((x) => x.steps).toFixed(1).padStart(5)}  ${m((x) => x.pathLength).toFixed(2).padStart(6)}  ${m((x) => x.collisionRate).toFixed(3).padStart(14)}`);
      }
      for (const l of chanceLines) io.out(l);
      io.out(ruleLabel(specsOf));
      return 0;
    }
    if (sub === 'make-prop') {
      const out = stringOption(args, 'out');
      if (!out) throw new CliError('search make-prop needs --out FILE');
      const splats = capturedPlant(intOption(args, 'seed', 1));
      await writeSplatFile(resolve(out), splats, { format: 'ply', up: '+y' });
      io.out(`wrote ${splats.count} Gaussians to ${resolve(out)}`);
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
      const logs = studySearchLogs(store, study, dir);
      const r = await judgeLogs(logs, make, name, { force: args.options.has('force'), onProgress: io.out, images: judgeImages(dir) });
      io.out(`${name}: ${r.judged} judged, ${r.unparseable} unparseable, ${r.skipped} skipped (closed answer, no answer or judged already)`);
      const agree = judgeAgreement(logs, name);
      io.out(`judge vs human raters: Spearman rho ${agree.rho === null ? 'n/a' : agree.rho.toFixed(3)} over ${agree.pairs} answers rated by both`);
      return 0;
    }
    throw new CliError(`usage: ${USAGE.split('\n')[0]} (got '${sub ?? ''}')`);
  },
};
