// Several stations, one study (issue 41; src/main/study/{stations,merge}.ts): the study's own lab
// splits the study into two station files, two labs (two homes) join as stations and run scripted
// participants (one withdraws and has their data deleted at station B), their archives merge into
// the study, whose results and flow equal the stations' together; a second merge changes nothing;
// a conflicting, foreign or out-of-date archive is refused with one line each and writes nothing;
// a deletion made at a station after a merge stays in force.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createEpisodeHandlers } from '../../../src/main/services/episode';
import { createStudyHandlers } from '../../../src/main/services/study';
import { createLabContext } from '../../../src/main/services/context';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import type { LabDeps } from '../../../src/main/services/lab';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { StudyResults } from '../../../src/shared/api/study';
import type { Participant, StudyConfig } from '../../../src/shared/study/config';
import { studyFolderFiles } from '../../../src/main/study/stations';
import { StudyStore } from '../../../src/main/study/store';
import { fakeServices } from '../services/fixtures';
import { testTasks } from '../env/fixtures';
import { runCli } from '../cli/run';

/** Runs `work` with SPLATLAB_HOME set to `home` (the CLI's lab home), then restores it. */
async function withHome<T>(home: string, work: () => Promise<T>): Promise<T> {
  const prev = process.env.SPLATLAB_HOME;
  process.env.SPLATLAB_HOME = home;
  try {
    return await work();
  } finally {
    if (prev === undefined) delete process.env.SPLATLAB_HOME;
    else process.env.SPLATLAB_HOME = prev;
  }
}

type Call = <T>(method: string, params?: unknown) => Promise<T>;
interface Lab {
  home: string;
  call: Call;
  refused: (method: string, params?: unknown) => Promise<string>;
}

const homes: string[] = [];
let main: Lab;
let stationA: Lab;
let stationB: Lab;
let study: StudyConfig;
let tasks: string;

async function lab(tasksDir: string, grader: Awaited<ReturnType<typeof testTasks>>['grader']): Promise<Lab> {
  const home = mkdtempSync(join(tmpdir(), 'splatlab-station-'));
  homes.push(home);
  const manager = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
  const deps: LabDeps = { gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, version: '0.0.0-test', transport: 'direct', listTasks: async () => [] };
  const handlers: Handlers = {
    ...fakeServices().handlers,
    ...createEpisodeHandlers({ episodes: manager }),
    ...createStudyHandlers(createLabContext({ ...deps, home, episodes: manager }), { renderer: async () => grader, grader: async () => grader }),
  };
  const call = async <T>(method: string, params: unknown = {}): Promise<T> => {
    const out = await dispatchCall(handlers, method, params);
    if (!out.ok) throw new Error(out.message);
    return out.result as T;
  };
  const refused = async (method: string, params: unknown = {}): Promise<string> => {
    const out = await dispatchCall(handlers, method, params);
    if (out.ok) throw new Error(`${method} was not refused`);
    return out.message;
  };
  return { home, call, refused };
}

/** One scripted participant: consent, practice, `tasks` scored tasks (one Gaussian each, at x). */
async function participant(l: Lab, x: number, tasks: number, withdraw = false): Promise<string> {
  const p = await l.call<Participant>('study.addParticipant', { studyId: study.id });
  await l.call('study.session.start', { studyId: study.id, participant: p.id });
  await l.call('study.session.advance', { accept: true });
  await l.call('study.session.advance', {});
  for (let i = 0; i <= tasks; i++) {
    if (i > 0) await l.call('study.session.next');
    const s = await l.call<EpisodeSnapshot>('study.session.task');
    await l.call('episode.step', { episodeId: s.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [x, 0, 0], scale: 0.3, color: '#c08040' }] } });
    await l.call('episode.step', { episodeId: s.episodeId, tool: 'submit', args: {} });
  }
  if (withdraw) await l.call('study.session.withdraw', { reason: 'had to leave' });
  else await l.call('study.session.next');
  await l.call('study.session.end');
  return p.id;
}

/** Copies a station's archive into the study lab's inbox; returns its name. */
async function archive(from: Lab): Promise<string> {
  const a = await from.call<{ name: string; path: string }>('study.stationArchive', { studyId: study.id });
  mkdirSync(join(main.home, 'stations'), { recursive: true });
  cpSync(a.path, join(main.home, 'stations', a.name));
  return a.name;
}

const key = (e: { source: string; participant: string; taskId: string; score: number | null }): string => `${e.source}|${e.participant}|${e.taskId}|${e.score}`;
const snapshot = (home: string): string => studyFolderFiles(new StudyStore(home), study.id).map((f) => `${f}:${readFileSync(join(home, 'studies', study.id, f)).length}`).join('\n');

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  tasks = tasksDir;
  main = await lab(tasksDir, grader);
  stationA = await lab(tasksDir, grader);
  stationB = await lab(tasksDir, grader);
  study = await main.call<StudyConfig>('study.create', { name: 'Two stations', tasks: ['test__sculpt', 'test__oneshot'], practiceTask: 'test__reassembly' });
});
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe('stations', () => {
  it('split the study: each station its own ids and every other place of the Williams plan', async () => {
    const { files } = await main.call<{ files: { index: number; path: string }[] }>('study.stations', { studyId: study.id, count: 2 });
    expect(files.map((f) => f.index)).toEqual([1, 2]);
    const joined = await stationA.call<{ created: boolean; config: StudyConfig }>('study.joinStation', { text: readFileSync(files[0].path, 'utf8') });
    expect(joined).toMatchObject({ created: true, config: { id: study.id, station: { index: 1, count: 2 } } });
    expect(await stationA.call('study.joinStation', { text: readFileSync(files[0].path, 'utf8') })).toMatchObject({ created: false });
    await stationB.call('study.joinStation', { text: readFileSync(files[1].path, 'utf8') });
    const edited = readFileSync(files[1].path, 'utf8').replace('"Two stations"', '"Other"');
    expect(await stationB.refused('study.joinStation', { text: edited })).toMatch(/edited after it was made/);

    expect(await participant(stationA, 0.1, 2)).toBe('P1001');
    expect(await participant(stationA, 0.2, 2)).toBe('P1002');
    expect(await participant(stationB, 0.3, 2)).toBe('P2001');
    expect(await participant(stationB, 0.4, 1, true)).toBe('P2002');
    await stationB.call('study.deleteParticipant', { studyId: study.id, participant: 'P2002', requestedBy: 'participant' });
    const slots = async (l: Lab): Promise<(number | undefined)[]> => (await l.call<{ participants: Participant[] }>('study.get', { studyId: study.id })).participants.map((p) => p.slot);
    // Williams cycle of two orders: A takes places 0, 2 and B places 1, 3, so both orders occur twice.
    expect([...(await slots(stationA)), ...(await slots(stationB))]).toEqual([0, 0, 1, 1]);
  });

  it('merge both archives: the results and flow are the stations\' together; a second merge changes nothing', async () => {
    const a = await archive(stationA);
    const b = await archive(stationB);
    const inbox = await main.call<{ archives: { name: string; station: number | null; problem: string | null }[] }>('study.stationInbox', { studyId: study.id });
    expect(inbox.archives.map((x) => [x.station, x.problem])).toEqual([[1, null], [2, null]]);
    expect(await main.call('study.merge', { studyId: study.id, name: a })).toMatchObject({ added: ['P1001', 'P1002'] });
    expect(await main.call('study.merge', { studyId: study.id, name: b })).toMatchObject({ added: ['P2001', 'P2002'] });

    const results = async (l: Lab): Promise<StudyResults> => l.call<StudyResults>('study.results', { studyId: study.id });
    const [m, ra, rb] = [await results(main), await results(stationA), await results(stationB)];
    expect(m.episodes.map(key).sort()).toEqual([...ra.episodes, ...rb.episodes].map(key).sort());
    expect(m.episodes.filter((e) => e.source === 'human').length).toBeGreaterThanOrEqual(6);
    const counts = [m, ra, rb].map((r) => r.flow?.counts);
    for (const k of ['created', 'consented', 'started', 'withdrawn', 'completed', 'deleted'] as const) expect(counts[0]?.[k], k).toBe((counts[1]?.[k] ?? 0) + (counts[2]?.[k] ?? 0));
    expect(counts[0]).toMatchObject({ created: 4, completed: 3, deleted: 1 });

    const before = snapshot(main.home);
    const again = await main.call<{ summary: string; added: string[] }>('study.merge', { studyId: study.id, name: a });
    expect(again.added).toEqual([]);
    expect(again.summary).toMatch(/0 participants added, 2 unchanged, 0 files added/);
    await main.call('study.merge', { studyId: study.id, name: b });
    expect(snapshot(main.home)).toBe(before);
  });

  it('refuses a conflicting archive with one line per conflict and writes nothing', async () => {
    await stationA.call('study.exclude', { studyId: study.id, participant: 'P1001', taskId: 'test__sculpt', reason: 'noted at the station' });
    const a = await archive(stationA);
    const before = snapshot(main.home);
    const message = await main.refused('study.merge', { studyId: study.id, name: a });
    expect(message).toMatch(/merge refused, nothing written/);
    expect(message).toMatch(/\(1 conflict\): participant P1001: the archive's record differs/);
    // The CLI names each conflict on a line of its own.
    const cli = await withHome(main.home, () => runCli('study', ['merge', study.id, join(main.home, 'stations', a)]));
    expect(cli.code).toBe(1);
    expect(cli.err).toEqual(['merge refused, nothing written (1 conflict):', expect.stringMatching(/^participant P1001: the archive's record differs/)]);
    expect(snapshot(main.home)).toBe(before);
    await stationA.call('study.exclude', { studyId: study.id, participant: 'P1001', taskId: 'test__sculpt', reason: null });
  });

  it('refuses an archive of another study or of another version of this one', async () => {
    await stationB.call('study.updateTexts', { studyId: study.id, texts: { consent: 'A new consent text.' } });
    const b = await archive(stationB);
    expect(await main.refused('study.merge', { studyId: study.id, name: b })).toMatch(/another version of 'two-stations'/);
    const other = await main.call<StudyConfig>('study.create', { name: 'Other study', tasks: ['test__sculpt'], practiceTask: 'test__reassembly' });
    expect(await main.refused('study.merge', { studyId: other.id, name: b })).toMatch(/of study 'two-stations', not 'other-study'/);
  });

  it('keeps a deletion made at a station after an earlier merge', async () => {
    const merged = new StudyStore(main.home);
    expect(studyFolderFiles(merged, study.id).some((f) => f.startsWith('trajectories/P1002/'))).toBe(true);
    await stationA.call('study.deleteParticipant', { studyId: study.id, participant: 'P1002', requestedBy: 'participant' });
    const a = await archive(stationA);
    expect(await main.call('study.merge', { studyId: study.id, name: a })).toMatchObject({ deleted: ['P1002'] });
    expect(merged.participant(study.id, 'P1002').status).toBe('deleted');
    expect(studyFolderFiles(merged, study.id).some((f) => f.startsWith('trajectories/P1002/'))).toBe(false);
    expect(readFileSync(join(main.home, 'studies', study.id, 'participants.jsonl'), 'utf8')).not.toMatch(/"P1002"[^\n]*"episodes":\[\{/);
  });
});

describe('a study with task shares', () => {
  it('gives each participant a share, and Results warns per task below the minimum', async () => {
    const share = { perParticipant: 1, seed: 5, modesTogether: true, minPerTask: 1, planned: 4 };
    const s = await main.call<StudyConfig>('study.create', { name: 'Shares', tasks: ['test__sculpt', 'test__oneshot'], practiceTask: 'test__reassembly', share });
    expect(s.share).toMatchObject(share);
    for (let i = 0; i < 4; i++) await main.call('study.addParticipant', { studyId: s.id });
    const { participants } = await main.call<{ participants: Participant[] }>('study.get', { studyId: s.id });
    expect(participants.map((p) => p.order.length)).toEqual([1, 1, 1, 1]);
    // Every task twice among four participants, as the plan says.
    expect(participants.filter((p) => p.order[0] === 'test__sculpt')).toHaveLength(2);
    const results = await main.call<StudyResults>('study.results', { studyId: s.id });
    expect(results.shares?.perTask.map((t) => [t.task, t.planned, t.assigned, t.played])).toEqual([['test__sculpt', 2, 2, 0], ['test__oneshot', 2, 2, 0]]);
    const plan = await withHome(main.home, () => runCli('study', ['plan', s.id]));
    expect(plan.out).toEqual(['4 participants x 1 of 2 tasks (seed 5): 2.00 per task expected, 2-2 planned; two tasks meet 0-0 times', 'test__sculpt\t2', 'test__oneshot\t2']);
    expect(results.shares?.warnings).toEqual([
      "test__sculpt: 0 counted participants, fewer than the study's minimum of 1",
      "test__oneshot: 0 counted participants, fewer than the study's minimum of 1",
    ]);
    // The paper's tables count the participants per task too, with the warnings.
    const out = mkdtempSync(join(tmpdir(), 'splatlab-shares-paper-'));
    homes.push(out);
    const paper = await withHome(main.home, () => runCli('paper', [s.id, '--out', out, '--tasks', tasks, '--no-mirror', '--no-png']));
    expect(paper.code, paper.err.join('\n')).toBe(0);
    const csv = readFileSync(join(out, 'task-shares.csv'), 'utf8').trim().split(/\r?\n/);
    expect(csv.slice(1)).toEqual(['test__sculpt,2,2,0,yes', 'test__oneshot,2,2,0,yes']);
    const table = join(out, 'task-shares');
    expect(readFileSync(`${table}.md`, 'utf8')).toContain("test__sculpt: 0 counted participants, fewer than the study's minimum of 1");
    expect(await main.refused('study.create', { name: 'Too big', tasks: ['test__sculpt', 'test__oneshot'], practiceTask: 'test__reassembly', share: { perParticipant: 2, seed: 1 } })).toMatch(/cover 1 object /);
  });
});
