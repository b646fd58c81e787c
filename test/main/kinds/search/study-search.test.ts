// Studies with search tasks (issue 15 item 4), through the study rows: a study mixing two search
// tasks with a SplatBench task (search practice task) gets the search kind's consent and
// instructions, runs a participant through consent, practice and every task, lets a second one
// withdraw mid-study, imports a model's search run (checked by its regrade, an edited log
// refused), and exports an archive whose search table has the search columns, the withdrawn
// participant's episodes marked and the rater marks beside their logs.
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { EpisodeManager } from '../../../../src/main/episodes/manager';
import { createLabContext } from '../../../../src/main/services/context';
import { dispatchCall, type Handlers } from '../../../../src/main/services/dispatch';
import { createEpisodeHandlers } from '../../../../src/main/services/episode';
import type { LabDeps } from '../../../../src/main/services/lab';
import { createSearchScoreHandlers } from '../../../../src/main/kinds/search/service/scores';
import { createStudyHandlers } from '../../../../src/main/services/study';
import type { EpisodeSnapshot } from '../../../../src/shared/api/episode';
import type { PendingRating } from '../../../../src/shared/kinds/search/api-scores';
import type { SearchResults } from '../../../../src/shared/kinds/search/scores';
import type { SessionState, StudyExport } from '../../../../src/shared/api/study';
import { searchKind } from '../../../../src/shared/kinds/search/kind';
import type { StudyConfig } from '../../../../src/shared/study/config';
import { SEARCH_TABLE } from '../../../../src/shared/kinds/search/export-table';
import { testTasks } from '../../env/fixtures';
import { fakeServices } from '../../services/fixtures';
import { facing, playLog, searchTasksDir } from './study-fixture';

let handlers: Handlers;
let study: StudyConfig;
let tasksDir: string;
let home: string;

async function call<T>(method: string, params: unknown = {}): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(`${method}: ${out.message}`);
  return out.result as T;
}

/** Plays the session's current task: a search task by turning to the cube and stopping; SplatBench by one Gaussian and submit. */
async function play(answer = 'red'): Promise<EpisodeSnapshot> {
  const s = await call<EpisodeSnapshot>('study.session.task');
  if (s.taskId.startsWith('search__')) {
    for (const c of facing(answer)) await call('episode.step', { episodeId: s.episodeId, tool: c.tool, args: c.args ?? {} });
  } else {
    await call('episode.step', { episodeId: s.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.3, color: '#c08040' }] } });
    await call('episode.step', { episodeId: s.episodeId, tool: 'submit', args: {} });
  }
  return s;
}

beforeAll(async () => {
  const built = await testTasks();
  tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-search-study-')), 'tasks');
  cpSync(built.tasksDir, tasksDir, { recursive: true });
  cpSync(searchTasksDir(), tasksDir, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'splatlab-search-study-home-'));
  const grader = built.grader;
  const manager = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
  const deps: LabDeps = { gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, version: '9.8.7-test', transport: 'direct', listTasks: async () => [] };
  const ctx = createLabContext({ ...deps, home, episodes: manager });
  handlers = {
    ...fakeServices().handlers,
    ...createEpisodeHandlers({ episodes: manager }),
    ...createStudyHandlers(ctx, { renderer: async () => grader, grader: async () => grader }),
    ...(createSearchScoreHandlers(ctx) as unknown as Handlers),
  };
  study = await call<StudyConfig>('study.create', { name: 'Search mixed', tasks: ['search__t1', 'test__sculpt', 'search__t2'], practiceTask: 'search__p', order: 'fixed' });
  for (let i = 0; i < 2; i++) await call('study.addParticipant', { studyId: study.id });
}, 120_000);

describe('a study with search tasks', () => {
  it('tells participants about the search tasks and runs consent, practice and every task', async () => {
    expect(study.texts.consent).toContain(searchKind.participant?.about ?? 'missing');
    await call('study.session.start', { studyId: study.id, participant: 'P01' });
    expect(await call<SessionState>('study.session.advance', { accept: true })).toMatchObject({ stage: 'instructions' });
    await call('study.session.advance', {});
    expect((await play()).taskId).toBe('search__p');
    for (const [i, answer] of ['scarlet', null, 'yes'].entries()) {
      expect(await call<SessionState>('study.session.next')).toMatchObject({ stage: 'task', taskNumber: i + 1 });
      await play(answer ?? undefined);
    }
    expect(await call<SessionState>('study.session.next')).toMatchObject({ stage: 'thanks' });
    await call('study.session.end');
    const res = await call<SearchResults>('search.results', { studyId: study.id });
    expect(res.episodes.map((e) => [e.taskId, e.answer, e.accuracy, e.steps])).toEqual([['search__t1', 'scarlet', 100, 7], ['search__t2', 'yes', 100, 7]]);
  }, 120_000);

  it('lets a participant withdraw during a search task; their episodes leave the statistics', async () => {
    await call('study.session.start', { studyId: study.id, participant: 'P02' });
    // The hidden answers never reach anyone while a participant session runs.
    for (const m of ['search.results', 'search.pending']) expect((await dispatchCall(handlers, m, { studyId: study.id })).ok).toBe(false);
    await call('study.session.advance', { accept: true });
    await call('study.session.advance', {});
    await play();
    await call('study.session.next');
    await play('crimson'); // search__t1 answered
    await call('study.session.next');
    const s = await call<EpisodeSnapshot>('study.session.task'); // test__sculpt left open
    expect(s.taskId).toBe('test__sculpt');
    await call('study.session.withdraw', { reason: 'had to leave' });
    const res = await call<SearchResults>('search.results', { studyId: study.id });
    expect(res.episodes.find((e) => e.answer === 'crimson')).toMatchObject({ excluded: 'participant withdrew' });
    expect(res.cells.find((c) => c.source === 'humans' && c.group === 'all')).toMatchObject({ n: 2, answerers: 1 });
    expect((await call<PendingRating[]>('search.pending', { studyId: study.id })).map((p) => p.given)).toEqual(['scarlet']);
  }, 120_000);

  it('imports a model search run checked by its regrade and refuses an edited one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-search-import-'));
    await playLog(tasksDir, 'search__t1', join(dir, 'run.jsonl'), facing('red'), 'bot-1');
    const text = readFileSync(join(dir, 'run.jsonl'), 'utf8').replace('"protocol":"matched"', '"protocol":"agent"');
    const out = await call<{ model: string; score: number }>('study.importModel', { studyId: study.id, text });
    expect(out).toMatchObject({ model: 'bot-1', score: 100 });
    const edited = await dispatchCall(handlers, 'study.importModel', { studyId: study.id, text: text.replace('"answer":"red"', '"answer":"blue"') });
    expect(edited.ok).toBe(false);
    expect(edited.ok ? '' : edited.message).toMatch(/does not regrade/);
    const res = await call<SearchResults>('search.results', { studyId: study.id });
    expect(res.cells.find((c) => c.source === 'bot-1' && c.group === 'all')).toMatchObject({ who: 'model', n: 1 });
    // The study's episode table scores the run by its checked answer (it has no scene verdict).
    const episodes = (await call<{ episodes: { source: string; taskId: string; score: number | null }[] }>('study.results', { studyId: study.id })).episodes;
    expect(episodes.find((e) => e.source === 'bot-1')).toMatchObject({ taskId: 'search__t1', score: 100 });
  }, 60_000);

  it('exports the search table with its columns and the rater marks beside the logs', async () => {
    const pending = await call<PendingRating[]>('search.pending', { studyId: study.id });
    await call('search.rate', { studyId: study.id, ref: pending[0].ref, rater: 'R1', mark: 1 });
    const ex = await call<StudyExport>('study.export', { studyId: study.id });
    const files = new Map<string, string>();
    for (const [name, bytes] of Object.entries(unzipSync(readFileSync(ex.path)))) files.set(name.slice(name.indexOf('/') + 1), new TextDecoder().decode(bytes));
    const csv = files.get(SEARCH_TABLE.file) ?? '';
    const [head, ...lines] = csv.trim().split('\r\n');
    expect(head.split(',')).toEqual(SEARCH_TABLE.columns.map((c) => c.name));
    expect(head).toContain('accuracy,scored_by,success,search_steps,path_length,collision');
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [head.split(',')[i], v])));
    expect(rows.map((r) => `${r.answerer}/${r.task}/${r.answer}/${r.accuracy}/${r.scored_by}/${r.excluded}`)).toEqual([
      'P01/search__t1/scarlet/0/rater/', 'P01/search__t2/yes/100/exact/', 'P02/search__t1/crimson/100/exact/participant withdrew', 'bot-1#r1/search__t1/red/100/exact/',
    ]);
    expect(files.has(pending[0].ref.replace(/\.jsonl$/, '.rating.json'))).toBe(true);
    const dict = JSON.parse(files.get('dataset_description.json') ?? '{}') as { dataDictionary: Record<string, unknown> };
    expect(Object.keys(dict.dataDictionary)).toContain(SEARCH_TABLE.file);
    expect(readdirSync(join(home, 'studies', study.id, 'models', 'bot-1')).sort()).toEqual(['model.json', 'search__t1__r1.jsonl']);
  }, 60_000);

  it('ends a search task whose time ran out with the kind\'s give-up (stop, unanswered)', async () => {
    const timed = await call<StudyConfig>('study.create', { name: 'Search timed', tasks: ['search__t1'], practiceTask: 'search__p', order: 'fixed', taskTimeLimitS: 0.05 });
    await call('study.addParticipant', { studyId: timed.id });
    await call('study.session.start', { studyId: timed.id, participant: 'P01' });
    await call('study.session.advance', { accept: true });
    await call('study.session.advance', {});
    await play();
    await call('study.session.next');
    const s = await call<EpisodeSnapshot>('study.session.task');
    await call('episode.step', { episodeId: s.episodeId, tool: 'turn_left', args: {} });
    await new Promise((r) => setTimeout(r, 120));
    const out = await call<{ done: boolean }>('episode.step', { episodeId: s.episodeId, tool: 'turn_left', args: {} });
    expect(out.done).toBe(true);
    await call('study.session.next');
    await call('study.session.end');
    const res = await call<SearchResults>('search.results', { studyId: timed.id });
    // The time may already be up at the first call (the first view's render counts): one or two steps.
    expect(res.episodes[0]).toMatchObject({ taskId: 'search__t1', answer: 'I do not know', accuracy: 0 });
    expect(res.episodes[0].steps).toBeLessThanOrEqual(2);
  }, 60_000);
});
