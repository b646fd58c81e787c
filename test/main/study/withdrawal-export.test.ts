// Issue 11 items 3, 5 and 7 through the study rows against the 32x32 test tasks: questionnaires at
// their points of the flow, withdrawal from a running task (recorded, session over, never again),
// exclusion (out of the statistics, in the export), paired differences with a model, the export
// archive (every trajectory, tables whose every column is in the data dictionary, version, task
// hash, chunked download) and deletion on request (files gone from disk, a record without data).
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createEpisodeHandlers } from '../../../src/main/services/episode';
import { createStudyHandlers } from '../../../src/main/services/study';
import { createLabContext } from '../../../src/main/services/context';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import type { LabDeps } from '../../../src/main/services/lab';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { SessionState, StudyExport, StudyResults } from '../../../src/shared/api/study';
import type { DeletionRecord, Participant, StudyConfig } from '../../../src/shared/study/config';
import { callRows } from '../../../src/main/study/export';
import type { Trajectory } from '../../../src/main/env/trajectory';
import { fakeServices } from '../services/fixtures';
import { runCli } from '../cli/run';
import { testTasks } from '../env/fixtures';
import { JOURNAL, readJournal } from '../../../src/main/study/store';

let home: string;
let tasks: string;
let handlers: Handlers;
let study: StudyConfig;

async function call<T>(method: string, params: unknown = {}): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(`${method}: ${out.message}`);
  return out.result as T;
}

async function refused(method: string, params: unknown = {}): Promise<string> {
  const out = await dispatchCall(handlers, method, params);
  if (out.ok) throw new Error(`${method} was not refused`);
  return out.message;
}

/** Plays the current session task: one Gaussian, then (unless told not to) submit. */
async function play(submit = true): Promise<EpisodeSnapshot> {
  const s = await call<EpisodeSnapshot>('study.session.task');
  await call('episode.step', { episodeId: s.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.3, color: '#c08040' }] } });
  if (submit) await call('episode.step', { episodeId: s.episodeId, tool: 'submit', args: {} });
  return s;
}

/** Consent, the demographic questionnaire and the instructions: on the practice screen. */
async function toPractice(participant: string): Promise<void> {
  await call('study.session.start', { studyId: study.id, participant });
  await call('study.session.advance', { accept: true });
  await call('study.session.answer', { values: { vision: 'normal' } });
  await call('study.session.advance', {});
}

/** The archive's members by path below its top folder. */
function unzip(path: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, bytes] of Object.entries(unzipSync(readFileSync(path)))) out.set(name.slice(name.indexOf('/') + 1), new TextDecoder().decode(bytes));
  return out;
}

const header = (csv: string): string[] => csv.split('\r\n')[0].split(',');
const rowsOf = (csv: string): Record<string, string>[] => {
  const [head, ...lines] = csv.trim().split('\r\n');
  const cols = head.split(',');
  // The test's values hold no commas or quotes, so a plain split reads them back.
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
};

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  tasks = tasksDir;
  home = mkdtempSync(join(tmpdir(), 'splatlab-withdraw-'));
  const manager = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
  const deps: LabDeps = { gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, version: '9.8.7-test', transport: 'direct', listTasks: async () => [] };
  handlers = {
    ...fakeServices().handlers,
    ...createEpisodeHandlers({ episodes: manager }),
    ...createStudyHandlers(createLabContext({ ...deps, home, episodes: manager }), { renderer: async () => grader, grader: async () => grader }),
  };
  study = await call<StudyConfig>('study.create', {
    name: 'Withdrawal',
    tasks: ['test__sculpt', 'test__oneshot'],
    practiceTask: 'test__reassembly',
    questionnaires: {
      demographic: [
        { id: 'vision', kind: 'choice', prompt: 'Vision?', options: ['normal', 'corrected to normal'], required: true },
        { id: 'colour_vision', kind: 'choice', prompt: 'Colour blind?', options: ['no', 'yes'] },
      ],
      postTask: [
        { id: 'confidence', kind: 'scale', prompt: 'Confident?', max: 7 },
        { id: 'strategy', kind: 'text', prompt: 'How?' },
      ],
    },
  });
  for (let i = 0; i < 4; i++) await call('study.addParticipant', { studyId: study.id });
});

describe('questionnaires and withdrawal', () => {
  it('asks the demographic questionnaire after consent and the post-task one after each scored task', async () => {
    await call('study.session.start', { studyId: study.id, participant: 'P01' });
    const demo = await call<SessionState>('study.session.advance', { accept: true });
    expect(demo).toMatchObject({ stage: 'demographics', taskId: null });
    expect(demo.questions?.map((q) => q.id)).toEqual(['vision', 'colour_vision']);
    expect(await refused('study.session.advance', {})).toMatch(/send the questionnaire/);
    expect(await refused('study.session.answer', { values: { colour_vision: 'no' } })).toMatch(/please answer: Vision\?/);
    expect(await refused('study.session.answer', { values: { vision: 'blurry' } })).toMatch(/'vision' takes one of: normal, corrected to normal/);
    expect(await refused('study.session.answer', { values: { vision: 'normal', shoe_size: 'x' } })).toMatch(/'shoe_size' is not a question/);
    expect(await call<SessionState>('study.session.answer', { values: { vision: 'corrected to normal', colour_vision: 'no' } })).toMatchObject({ stage: 'instructions', questions: [] });
    await call('study.session.advance', {});
    await play();
    // The practice task has no questionnaire; a scored one has.
    expect(await call<SessionState>('study.session.next')).toMatchObject({ stage: 'task', taskNumber: 1 });
    await play();
    const post = await call<SessionState>('study.session.next');
    expect(post).toMatchObject({ stage: 'post-task', taskNumber: 1, taskId: null });
    expect(post.questions?.map((q) => q.id)).toEqual(['confidence', 'strategy']);
    expect(await refused('study.session.answer', { values: { confidence: 9 } })).toMatch(/from 1 to 7/);
    expect(await call<SessionState>('study.session.answer', { values: { confidence: 5, strategy: 'outline first' } })).toMatchObject({ stage: 'task', taskNumber: 2 });
    await play();
    await call('study.session.next');
    expect(await call<SessionState>('study.session.answer', { values: { confidence: 3 } })).toMatchObject({ stage: 'thanks' });
    await call('study.session.end');
    const p = (await call<{ participants: Participant[] }>('study.get', { studyId: study.id })).participants[0];
    expect(p.status).toBe('completed');
    expect(p.answers?.demographic?.values).toEqual({ vision: 'corrected to normal', colour_vision: 'no' });
    expect(Object.keys(p.answers?.postTask ?? {})).toEqual([p.order[0], p.order[1]]);
    expect(p.answers?.postTask[p.order[0]].values).toEqual({ confidence: 5, strategy: 'outline first' });
  });

  it('lets a participant withdraw in the middle of a task: recorded with the reason, the session ends for good', async () => {
    await toPractice('P02');
    await play();
    await call('study.session.next');
    await play(false); // the scored task is open, not submitted
    expect(await refused('study.session.withdraw', { reason: '  ' })).toMatch(/give a reason/);
    const out = await call<{ ended: boolean; participant: Participant }>('study.session.withdraw', { reason: 'felt unwell' });
    expect(out.participant).toMatchObject({ status: 'withdrawn', withdrawal: { by: 'participant', reason: 'felt unwell' } });
    expect(await call('study.session.get')).toBeNull();
    // Unlocked: experimenter rows answer again; the participant cannot be restarted.
    expect((await call<{ participants: Participant[] }>('study.get', { studyId: study.id })).participants[1].status).toBe('withdrawn');
    expect(await refused('study.session.start', { studyId: study.id, participant: 'P02' })).toMatch(/P02 withdrew/);
    const sessions = readFileSync(join(home, 'studies', study.id, 'sessions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { participant: string; outcome: string });
    expect(sessions.map((s) => `${s.participant}:${s.outcome}`)).toEqual(['P01:completed', 'P02:withdrawn']);
  });

  it('records an experimenter withdrawal outside a session and refuses experimenter rows during one', async () => {
    const p3 = await call<Participant>('study.withdraw', { studyId: study.id, participant: 'P03', reason: 'no longer eligible' });
    expect(p3).toMatchObject({ status: 'withdrawn', withdrawal: { by: 'experimenter', reason: 'no longer eligible' } });
    expect(await refused('study.withdraw', { studyId: study.id, participant: 'P03', reason: 'again' })).toMatch(/already withdrew/);
    await call('study.session.start', { studyId: study.id, participant: 'P04' });
    for (const [method, params] of [
      ['study.withdraw', { studyId: study.id, participant: 'P04', reason: 'x' }],
      ['study.deleteParticipant', { studyId: study.id, participant: 'P04', requestedBy: 'participant' }],
      ['study.exclude', { studyId: study.id, participant: 'P01', taskId: 'test__sculpt', reason: 'x' }],
      ['study.export', { studyId: study.id }],
      ['study.assignSlot', { studyId: study.id, participant: 'P04', slot: 1 }],
    ] as const) {
      expect(await refused(method, params)).toMatch(/locked while participant P04's session/);
    }
    await call('study.session.end');
  });
});

describe('slots, exclusion and statistics', () => {
  it('lets the experimenter assign a counterbalancing slot before the first session only', async () => {
    const p5 = await call<Participant>('study.addParticipant', { studyId: study.id });
    expect(p5.slot).toBe(0); // five participants, a cycle of two orders
    const moved = await call<Participant>('study.assignSlot', { studyId: study.id, participant: p5.id, slot: 1 });
    expect(moved).toMatchObject({ slot: 1, order: ['test__oneshot', 'test__sculpt'] });
    expect(await refused('study.assignSlot', { studyId: study.id, participant: 'P01', slot: 1 })).toMatch(/already started/);
    expect(await refused('study.assignSlot', { studyId: study.id, participant: p5.id, slot: 2 })).toMatch(/slot 3 does not exist: this study's cycle has 2 orders/);
  });

  it('leaves an excluded episode (and a withdrawn participant) out of the statistics and pairs humans with a model', async () => {
    const p1 = (await call<{ participants: Participant[] }>('study.get', { studyId: study.id })).participants[0];
    const before = await call<StudyResults>('study.results', { studyId: study.id });
    const humanRows = (r: StudyResults): string[] => r.summary.filter((s) => s.source === 'human').map((s) => `${s.taskId}/${s.n}`);
    // P02's open (incomplete) episode never counted; P01's two scored tasks do.
    expect(humanRows(before)).toEqual(['test__oneshot/1', '(all oneshot tasks)/1', 'test__sculpt/1', '(all sculpt tasks)/1']);
    expect(before.episodes.filter((e) => e.participant === 'P02').every((e) => e.excluded === 'participant withdrew')).toBe(true);
    const excluded = await call<Participant>('study.exclude', { studyId: study.id, participant: 'P01', taskId: 'test__oneshot', reason: 'fire alarm during the task' });
    expect(excluded.episodes.find((e) => e.taskId === 'test__oneshot')?.excluded?.reason).toBe('fire alarm during the task');
    expect(await refused('study.exclude', { studyId: study.id, participant: 'P01', taskId: 'nope', reason: 'x' })).toMatch(/no episode of task 'nope'/);
    const after = await call<StudyResults>('study.results', { studyId: study.id });
    expect(humanRows(after)).toEqual(['test__sculpt/1', '(all sculpt tasks)/1']);
    expect(after.episodes.find((e) => e.participant === 'P01' && e.taskId === 'test__oneshot')).toMatchObject({ excluded: 'fire alarm during the task', orderPosition: p1.order.indexOf('test__oneshot') + 1 });
    // One row per participant and task kind: the sculpt counts, the one-shot is excluded.
    expect(after.participants?.filter((p) => p.participant === 'P01').map((p) => [p.taskKind, p.tasks, p.excluded])).toEqual([['oneshot', 0, 1], ['sculpt', 1, 0]]);

    const human = readFileSync(join(home, 'studies', study.id, 'trajectories', 'P01', 'test__sculpt.jsonl'), 'utf8');
    await call('study.importModel', { studyId: study.id, text: human.replace('"player":"P01"', '"player":"gpt-x"').replace('"protocol":"matched"', '"protocol":"agent"') });
    const paired = (await call<StudyResults>('study.results', { studyId: study.id })).paired ?? [];
    expect(paired.map((r) => `${r.model}/${r.taskId}`)).toEqual(['gpt-x/test__sculpt', 'gpt-x/(all sculpt tasks)']);
    // The model replayed P01's own calls: the same scene, so the difference is zero.
    expect(paired[0]).toMatchObject({ participants: 1, runs: 1, low: null, high: null });
    expect(paired[0].difference).toBeCloseTo(0, 9);
    expect(paired[0].warning).toMatch(/only 1 participant/);
    // Back in: the episode counts again.
    await call('study.exclude', { studyId: study.id, participant: 'P01', taskId: 'test__oneshot', reason: null });
    expect(humanRows(await call<StudyResults>('study.results', { studyId: study.id }))).toEqual(['test__oneshot/1', '(all oneshot tasks)/1', 'test__sculpt/1', '(all sculpt tasks)/1']);
    await call('study.exclude', { studyId: study.id, participant: 'P01', taskId: 'test__oneshot', reason: 'fire alarm during the task' });
  });
});

describe('export archive and deletion', () => {
  let first: StudyExport;

  it('writes every trajectory and tables whose every column the data dictionary describes', async () => {
    first = await call<StudyExport>('study.export', { studyId: study.id });
    expect(first.version).toBe('9.8.7-test');
    expect(first.taskSetHash).toMatch(/^[0-9a-f]{64}$/);
    // Counted: P01 (slot 1), P04 and P05 (slot 2, P05 moved there); P02 and P03 withdrew.
    expect(first.warnings).toContain('3 participants do not complete a Williams cycle of 2 orders: 1 more needed (slot 1): until then the order positions are not balanced across tasks');
    const files = unzip(first.path);
    const studyDir = join(home, 'studies', study.id);
    for (const p of ['P01', 'P02']) for (const f of readdirSync(join(studyDir, 'trajectories', p))) if (f.endsWith('.jsonl')) expect(files.get(`trajectories/${p}/${f}`)).toBe(readFileSync(join(studyDir, 'trajectories', p, f), 'utf8'));
    expect(files.has('models/gpt-x/test__sculpt__r1.jsonl')).toBe(true);
    expect(files.has('models/gpt-x/test__sculpt__r1.verdict.json')).toBe(true);

    const description = JSON.parse(files.get('dataset_description.json') ?? '{}') as {
      '@type': string;
      softwareVersion: string;
      taskSetHash: string;
      variableMeasured: { name: string; description: string }[];
      dataDictionary: Record<string, { columns: { name: string; description: string }[] }>;
    };
    expect(description).toMatchObject({ '@type': 'Dataset', softwareVersion: '9.8.7-test', taskSetHash: first.taskSetHash });
    // The data tables (the paper's tables under paper/ carry their own notes and README).
    const csvs = [...files.keys()].filter((f) => f.endsWith('.csv') && !f.startsWith('paper/'));
    expect(files.has('paper/README.md')).toBe(true);
    expect(csvs.length).toBeGreaterThanOrEqual(9);
    expect(Object.keys(description.dataDictionary).sort()).toEqual(csvs.sort());
    const measured = new Map(description.variableMeasured.map((v) => [v.name, v.description]));
    for (const f of csvs) {
      const cols = header(files.get(f) ?? '');
      expect(description.dataDictionary[f].columns.map((c) => c.name), f).toEqual(cols);
      for (const c of description.dataDictionary[f].columns) expect(c.description.length, `${f}:${c.name}`).toBeGreaterThan(3);
      for (const c of cols) expect(measured.get(c), `${f}:${c} in variableMeasured`).toBeTruthy();
    }

    const calls = rowsOf(files.get('data/table-calls_data.csv') ?? '');
    expect(header(files.get('data/table-calls_data.csv') ?? '')).toEqual(expect.arrayContaining(['participant', 'task', 'order_position', 'practice', 'step', 'tool', 'active_seconds', 'think_seconds', 'hidden_score']));
    const p1calls = calls.filter((r) => r.participant === 'P01');
    expect(new Set(p1calls.map((r) => r.order_position))).toEqual(new Set(['0', '1', '2']));
    expect(p1calls.filter((r) => r.step !== '0').every((r) => Number(r.think_seconds) >= 0 && Number(r.active_seconds) >= 0)).toBe(true);
    expect(p1calls.some((r) => r.hidden_score !== '')).toBe(true);
    const episodes = rowsOf(files.get('data/table-episodes_data.csv') ?? '');
    // Exclusion: out of the statistics, still in the export with its reason.
    expect(episodes.find((r) => r.participant === 'P01' && r.task === 'test__oneshot')).toMatchObject({ excluded: 'true', exclusion_reason: 'fire alarm during the task' });
    const people = rowsOf(files.get('data/table-participants_data.csv') ?? '');
    expect(people.find((r) => r.participant === 'P01')).toMatchObject({ status: 'completed', consent_decision: 'agreed', consent_version: '1', excluded_episodes: '1' });
    expect(people.find((r) => r.participant === 'P02')).toMatchObject({ status: 'withdrawn', withdrawn_by: 'participant', withdrawal_reason: 'felt unwell' });
    const answers = rowsOf(files.get('data/table-questionnaires_data.csv') ?? '');
    expect(answers.filter((r) => r.participant === 'P01').map((r) => `${r.questionnaire}:${r.question}=${r.answer}`)).toContain('post-task:strategy=outline first');
    expect(rowsOf(files.get('data/table-sessions_data.csv') ?? '').map((r) => r.outcome)).toEqual(['completed', 'withdrawn', 'paused']);
  });

  it('hands the archive out in chunks that add up to the file', async () => {
    const parts: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const c = await call<{ data: string; total: number; done: boolean }>('study.exportChunk', { studyId: study.id, name: first.name, offset });
      parts.push(Buffer.from(c.data, 'base64'));
      offset += parts.at(-1)?.length ?? 0;
      if (c.done) break;
    }
    expect(Buffer.concat(parts).equals(readFileSync(first.path))).toBe(true);
    expect(await refused('study.exportChunk', { studyId: study.id, name: '../study.json', offset: 0 })).toMatch(/not an export archive name/);
  });

  it('deletes a participant on request: their files are gone from disk and the record says so, with no data', async () => {
    const studyDir = join(home, 'studies', study.id);
    const logs = readdirSync(join(studyDir, 'trajectories', 'P02'));
    expect(logs.length).toBeGreaterThan(0);
    const record = await call<DeletionRecord>('study.deleteParticipant', { studyId: study.id, participant: 'P02', requestedBy: 'participant' });
    expect(existsSync(join(studyDir, 'trajectories', 'P02'))).toBe(false);
    expect(existsSync(first.path)).toBe(false); // the earlier archive held P02's data
    expect(record).toMatchObject({ participant: 'P02', requestedBy: 'participant', by: 'experimenter', cleared: ['consent', 'answers', 'withdrawal', 'episodes', 'sessions'] });
    expect(readFileSync(join(studyDir, 'sessions.jsonl'), 'utf8')).not.toContain('"P02"');
    expect(record.files).toEqual(expect.arrayContaining([...logs.filter((f) => f.endsWith('.jsonl')).map((f) => `trajectories/P02/${f}`), `../exports/${first.name}`]));
    const p2OnDisk = readJournal(readFileSync(join(studyDir, JOURNAL), 'utf8')).find((p) => p.id === 'P02');
    const onDisk = readFileSync(join(studyDir, 'deletions.json'), 'utf8') + JSON.stringify(p2OnDisk);
    expect(onDisk).not.toMatch(/felt unwell|"vision"|"(answers|consent|consentAt|withdrawal)":/);
    // The journal keeps no earlier line of P02's (deletion compacts it).
    expect(readFileSync(join(studyDir, JOURNAL), 'utf8')).not.toMatch(/felt unwell/);
    const p2 = (await call<{ participants: Participant[] }>('study.get', { studyId: study.id })).participants[1];
    expect(p2).toMatchObject({ id: 'P02', status: 'deleted', episodes: [] });
    expect(p2.consent).toBeUndefined();
    expect(p2.withdrawal).toBeUndefined();
    expect(await refused('study.session.start', { studyId: study.id, participant: 'P02' })).toMatch(/deleted on request/);
    expect(await refused('study.deleteParticipant', { studyId: study.id, participant: 'P02', requestedBy: 'participant' })).toMatch(/already deleted/);
    // The id is never reused.
    expect((await call<Participant>('study.addParticipant', { studyId: study.id })).id).toBe('P06');

    const files = unzip((await call<StudyExport>('study.export', { studyId: study.id })).path);
    expect([...files.keys()].some((f) => f.includes('P02/'))).toBe(false);
    expect(rowsOf(files.get('data/table-calls_data.csv') ?? '').some((r) => r.participant === 'P02')).toBe(false);
    expect(rowsOf(files.get('data/table-deletions_data.csv') ?? '')).toEqual([expect.objectContaining({ participant: 'P02', requested_by: 'participant', files_removed: String(record.files.length) })]);
    expect(rowsOf(files.get('data/table-participants_data.csv') ?? '').find((r) => r.participant === 'P02')).toMatchObject({ status: 'deleted', withdrawal_reason: '' });
  });
});

describe('splatlab export study', () => {
  it('writes the same archive from the command line, and refuses an unknown study', async () => {
    const saved = process.env.SPLATLAB_HOME;
    process.env.SPLATLAB_HOME = home;
    try {
      const out = join(home, 'copy.zip');
      const run = await runCli('export', ['study', '--study', study.id, '--out', out, '--tasks', tasks]);
      expect(run.code).toBe(0);
      expect(run.out[0]).toMatch(/^wrote \d+ files \(\d+ bytes\) to .*copy\.zip$/);
      expect(unzip(out).has('dataset_description.json')).toBe(true);
      expect((await runCli('export', ['study', '--study', 'nope'])).err[0]).toMatch(/no study 'nope'/);
    } finally {
      if (saved === undefined) delete process.env.SPLATLAB_HOME;
      else process.env.SPLATLAB_HOME = saved;
    }
  });
});

describe('per-call times', () => {
  it('counts neither active nor think time while the episode was paused', () => {
    const step = (n: number, t: string, ms: number) => ({ step: n, tool: n ? 'render' : 'reset', args: {}, text: '', t, ms });
    const traj: Trajectory = {
      header: { type: 'header', task: 'a', protocol: 'matched', player: 'P01', versions: {}, started: '2025-01-01T00:00:00.000Z' },
      steps: [step(0, '2025-01-01T00:00:00.000Z', 0), step(1, '2025-01-01T00:00:10.000Z', 1000), step(2, '2025-01-01T00:01:21.000Z', 500)],
      // Paused from 00:00:20 to 00:01:20: 60 s between call 1's end (00:00:11) and call 2.
      times: [{ type: 'time', event: 'pause', t: '2025-01-01T00:00:20.000Z' }, { type: 'time', event: 'resume', t: '2025-01-01T00:01:20.000Z' }],
      end: null,
      truncated: false,
      validBytes: 0,
      badLines: [],
      torn: [],
    };
    const rows = callRows(traj, { source: 'human', participant: 'P01', taskId: 'a', orderPosition: 1, practice: false, excluded: null, log: 'l' });
    expect(rows.map((r) => [r.step, r.activeSeconds, r.thinkSeconds])).toEqual([[0, 0, null], [1, 10, 10], [2, 21, 10]]);
  });
});
