// The paper's tables from one study (issue 36): two participants play sculpt, reassembly,
// one-shot, a view-search task and two spatial-relation tasks through the study session; a
// scripted model runs every task twice (`splatlab eval --study`). Then: the model's relation and
// search runs have scores in the episode rows, the summary and the humans-vs-models rows; no
// "(all ...)" row pools sculpt, reassembly and one-shot; one name per model; runs numbered; a
// copy of a run is refused at import; `splatlab paper` writes every table in CSV, Markdown and
// LaTeX with a README, and an independent Python script (test/fixtures/paper/recompute.py)
// recomputes each table from paper/data/ to the printed decimals.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command as evalCommand } from '../../../src/main/cli/commands/eval';
import { command as paperCommand } from '../../../src/main/cli/commands/paper';
import { findChromium } from '../../../src/main/eval/chart-png';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createEpisodeHandlers } from '../../../src/main/services/episode';
import type { LabDeps } from '../../../src/main/services/lab';
import { createStudyHandlers } from '../../../src/main/services/study';
import { studyResults } from '../../../src/main/study/results';
import { StudyStore } from '../../../src/main/study/store';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { StudyExport } from '../../../src/shared/api/study';
import type { StudyConfig } from '../../../src/shared/study/config';
import { pairedDifferences } from '../../../src/shared/study/paired';
import { summarize } from '../../../src/shared/study/results';
import { paperCsv, type PaperTable } from '../../../src/shared/analysis/paper-table';
import { testTasks } from '../env/fixtures';
import { TEST_OBJECT } from '../../helpers/test-task';
import { writePartsTruth } from '../../helpers/paper-parts';
import { fakeServices } from '../services/fixtures';
import { facing, searchTasksDir } from '../kinds/search/study-fixture';

const RELATION = ['relation__bridge__tree-truck__ego', 'relation__bridge__tree-truck__allo'];
const SCORED = ['test__sculpt', 'test__reassembly', 'test__oneshot', 'search__t1', ...RELATION];

let handlers: Handlers;
let study: StudyConfig;
let tasksDir: string;
let home: string;
/** Where `splatlab paper` writes (the study.paper test compares with it). */
const paperOut = mkdtempSync(join(tmpdir(), 'splatlab-paper-out-'));
const oldHome = process.env.SPLATLAB_HOME;

async function call<T>(method: string, params: unknown = {}): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(`${method}: ${out.message}`);
  return out.result as T;
}

/** Plays the session's task: search by facing the cube, relation by answering, SplatBench by one Gaussian. */
async function play(person: number): Promise<void> {
  const s = await call<EpisodeSnapshot>('study.session.task');
  const step = (tool: string, args: unknown = {}) => call('episode.step', { episodeId: s.episodeId, tool, args });
  if (s.taskId.startsWith('search__')) {
    for (const c of facing(person === 1 ? 'red' : 'blue')) await step(String(c.tool), c.args ?? {});
  } else if (s.taskId.startsWith('relation__')) {
    await step('answer', { relation: person === 1 ? 'left' : 'front', rt_ms: 900 + 300 * person });
  } else if (s.taskId === 'test__reassembly') {
    await step('submit');
  } else {
    await step('add_gaussians', { gaussians: [{ pos: [0, 0, 0], scale: 0.2 + 0.1 * person, color: '#c08040' }] });
    await step('submit');
  }
}

beforeAll(async () => {
  const built = await testTasks();
  const root = mkdtempSync(join(tmpdir(), 'splatlab-paper-'));
  tasksDir = join(root, 'tasks');
  cpSync(built.tasksDir, tasksDir, { recursive: true });
  cpSync(searchTasksDir(), tasksDir, { recursive: true });
  for (const id of RELATION) {
    cpSync(join('tasks', `${id}.json`), join(tasksDir, `${id}.json`));
    cpSync(join('tasks', 'relation', `${id}.json`), join(tasksDir, 'relation', `${id}.json`));
  }
  writePartsTruth(tasksDir);
  home = join(root, 'home');
  const grader = built.grader;
  const manager = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
  const deps: LabDeps = { gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, version: '0.0.0-test', transport: 'direct', listTasks: async () => [] };
  const ctx = createLabContext({ ...deps, home, episodes: manager });
  handlers = { ...fakeServices().handlers, ...createEpisodeHandlers({ episodes: manager }), ...createStudyHandlers(ctx, { renderer: async () => grader, grader: async () => grader }) };
  study = await call<StudyConfig>('study.create', { name: 'Paper', tasks: SCORED, practiceTask: 'search__p', order: 'fixed' });
  for (const person of [1, 2]) {
    await call('study.addParticipant', { studyId: study.id });
    await call('study.session.start', { studyId: study.id, participant: `P0${person}` });
    await call('study.session.advance', { accept: true });
    await call('study.session.advance', {});
    await play(person);
    for (let i = 0; i < SCORED.length; i++) {
      await call('study.session.next');
      await play(person);
    }
    await call('study.session.next');
    await call('study.session.end');
  }
  process.env.SPLATLAB_HOME = home;
  const io = { out: () => undefined, err: () => undefined };
  const code = await evalCommand.run(['--model', 'scripted:basic', '--tasks', SCORED.join(','), '--runs', '2', '--study', study.id, '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'], io);
  if (code !== 0) throw new Error('eval --study failed');
}, 300_000);

describe('every run in every table', () => {
  it('scores the model\'s relation and search runs beside the people, kinds apart, one name, runs numbered', () => {
    const store = new StudyStore(home);
    const rows = studyResults(store, study.id, tasksDir);
    const model = rows.filter((r) => r.kind === 'model');
    expect(new Set(model.map((r) => r.source))).toEqual(new Set(['scripted:basic']));
    expect(model.filter((r) => r.taskKind === 'relation').map((r) => [r.taskId, r.run, r.score !== null])).toEqual(
      [[RELATION[1], 1, true], [RELATION[1], 2, true], [RELATION[0], 1, true], [RELATION[0], 2, true]].sort(),
    );
    const summary = summarize(rows, { resamples: 200 });
    expect(summary.some((r) => r.taskId === '(all splatbench tasks)')).toBe(false);
    for (const kind of ['sculpt', 'reassembly', 'oneshot', 'search', 'relation']) {
      for (const source of ['human', 'scripted:basic']) expect(summary.find((r) => r.source === source && r.taskId === `(all ${kind} tasks)`), `${source} ${kind}`).toBeDefined();
    }
    const paired = pairedDifferences(rows, { resamples: 200 });
    expect(paired.find((r) => r.taskId === '(all relation tasks)')).toMatchObject({ model: 'scripted:basic', runs: 2, participants: 2, tasks: 2 });
  });

  it('refuses a copy of a run already imported', async () => {
    const store = new StudyStore(home);
    const run = store.modelLogs(study.id).find((m) => m.taskId === 'search__t1');
    const text = readFileSync(store.resolveIn(study.id, run?.rel ?? ''), 'utf8');
    const out = await dispatchCall(handlers, 'study.importModel', { studyId: study.id, text, model: 'another-name' });
    expect(out.ok ? '' : out.message).toMatch(/already in the study as models\/.*search__t1__r1\.jsonl/);
  });
});

describe('splatlab paper', () => {
  it('writes every table as CSV, Markdown and LaTeX, and Python recomputes each from paper/data', async () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    // The figures as SVG and PNG (a headless Chromium; CI=true requires one).
    const chromium = findChromium();
    if (!chromium && process.env.CI === 'true') throw new Error('CI=true but no Chromium for the paper\'s PNG figures');
    expect(await paperCommand.run([study.id, '--out', paperOut, '--tasks', tasksDir, ...(chromium ? [] : ['--no-png'])], io)).toBe(0);
    const svgs = readdirSync(join(paperOut, 'figures')).filter((f) => f.endsWith('.svg'));
    expect(svgs.length).toBeGreaterThan(0);
    if (chromium) for (const f of svgs) expect(existsSync(join(paperOut, 'figures', f.replace(/\.svg$/, '.png'))), f).toBe(true);
    const tables = ['splatbench-leaderboard', 'splatbench-by-kind', 'splatbench-by-source', 'splatbench-effort', 'splatbench-oneshot', 'splatbench-mirror', 'splatbench-best-final',
      'splatbench-score-over-calls', 'search-e3vs', 'search-by-family', 'relation-accuracy', 'relation-reaction-times', 'relation-confusion', 'relation-probes'];
    for (const t of tables) for (const ext of ['csv', 'md', 'tex']) expect(existsSync(join(paperOut, `${t}.${ext}`)), `${t}.${ext}`).toBe(true);
    expect(readdirSync(paperOut).some((f) => /^splatbench-heading-.*\.md$/.test(f))).toBe(true);
    // Parts named from the authoring, and the final score under them.
    const heading = readFileSync(join(paperOut, `splatbench-heading-${TEST_OBJECT}.md`), 'utf8');
    expect(heading).toMatch(/\| Head \| \d+°/);
    expect(heading).toMatch(/\| Body \| \d+°/);
    expect(heading).toMatch(/\| Final score \| -?\d+\.\d \|/);
    const readme = readFileSync(join(paperOut, 'README.md'), 'utf8');
    for (const t of tables) expect(readme).toContain(`\`${t}.csv\``);
    const board = readFileSync(`${join(paperOut, 'splatbench-leaderboard')}.md`, 'utf8');
    expect(board).toMatch(/\| People \| -?\d+\.\d \[-?\d+\.\d, -?\d+\.\d\] \(k=2<5\) \|/);
    expect(board).toContain('Unit: SplatScore');
    const py = spawnSync('python3', [join('test', 'fixtures', 'paper', 'recompute.py'), paperOut], { encoding: 'utf8' });
    expect(py.stderr + py.stdout).toMatch(/^checked \d+ cells in 1[0-9] tables$/m);
    expect(py.status, py.stderr).toBe(0);
  }, 120_000);

  it('gives Results the same tables and page over LabApi (study.paper)', async () => {
    const paper = await call<{ tables: PaperTable[]; figures: { id: string }[]; html: string }>('study.paper', { studyId: study.id });
    expect(paper.tables.map((t) => t.id).sort()).toEqual(readdirSync(paperOut).filter((f) => f.endsWith('.csv')).map((f) => f.slice(0, -4)).sort());
    for (const t of paper.tables) expect(paperCsv(t), t.id).toBe(readFileSync(join(paperOut, `${t.id}.csv`), 'utf8'));
    expect(paper.html).toBe(readFileSync(join(paperOut, 'index.html'), 'utf8'));
    expect(paper.figures.length).toBeGreaterThan(0);
  }, 120_000);

  it('puts the paper and a README naming every file into the export archive', async () => {
    const exp = await call<StudyExport>('study.export', { studyId: study.id });
    const files = unzipSync(readFileSync(exp.path));
    const names = Object.keys(files).map((f) => f.slice(f.indexOf('/') + 1));
    expect(names).toContain('paper/relation-accuracy.tex');
    expect(names).toContain('paper/splatbench-mirror.csv');
    const readme = new TextDecoder().decode(files[Object.keys(files).find((f) => f.endsWith('/README.md') && f.split('/').length === 2) ?? '']);
    for (const n of names.filter((f) => f !== 'README.md')) expect(readme, n).toContain(`\`${n}\``);
  }, 120_000);
});

afterAll(() => {
  if (oldHome === undefined) delete process.env.SPLATLAB_HOME;
  else process.env.SPLATLAB_HOME = oldHome;
});
