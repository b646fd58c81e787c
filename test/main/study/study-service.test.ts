// The study rows through dispatchCall against the 32x32 test tasks with a CPU grader: storage on
// disk, a whole participant session (consent, practice, a scored task, thanks), the session lock
// on experimenter rows (also across a restart of the services), pause/resume from the logs,
// results with scores and CIs, replay frames, CSV export and model import.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createEpisodeHandlers } from '../../../src/main/services/episode';
import { createStudyHandlers } from '../../../src/main/services/study';
import { createLabContext } from '../../../src/main/services/context';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import { readTrajectory } from '../../../src/main/env/trajectory';
import type { LabDeps } from '../../../src/main/services/lab';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { SessionState, StudyDetail, StudyResults, TrajectoryView } from '../../../src/shared/api/study';
import type { Participant, StudyConfig } from '../../../src/shared/study/config';
import { fakeServices } from '../services/fixtures';
import { testTasks } from '../env/fixtures';

let home: string;
let deps: LabDeps;
let manager: EpisodeManager;
let handlers: Handlers;

function services(): Handlers {
  const base = fakeServices().handlers;
  return {
    ...base,
    ...createEpisodeHandlers({ episodes: manager }),
    ...createStudyHandlers(createLabContext({ ...deps, home, episodes: manager }), { renderer: async () => (await testTasks()).grader }),
  };
}

async function call<T>(method: string, params: unknown = {}): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(out.message);
  return out.result as T;
}

async function refused(method: string, params: unknown = {}): Promise<string> {
  const out = await dispatchCall(handlers, method, params);
  if (out.ok) throw new Error(`${method} was not refused`);
  return out.message;
}

/** Plays the current session task: one Gaussian, then submit. */
async function playCurrent(): Promise<EpisodeSnapshot> {
  const s = await call<EpisodeSnapshot>('study.session.task');
  await call('episode.step', { episodeId: s.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.3, color: '#c08040' }] } });
  await call('episode.step', { episodeId: s.episodeId, tool: 'submit', args: {} });
  return s;
}

let study: StudyConfig;

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  home = mkdtempSync(join(tmpdir(), 'splatlab-study-'));
  manager = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
  deps = { gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, version: '0', transport: 'direct', listTasks: async () => [] };
  handlers = services();
});

describe('study storage', () => {
  it('creates a study with default texts and validates tasks', async () => {
    study = await call<StudyConfig>('study.create', { name: 'Pilot A', tasks: ['test__sculpt', 'test__oneshot'], practiceTask: 'test__reassembly', protocol: 'matched', order: 'counterbalanced' });
    expect(study).toMatchObject({ id: 'pilot-a', protocol: 'matched', order: 'counterbalanced' });
    expect(study.texts.instructions).toMatch(/hidden/);
    const dir = join(home, 'studies', 'pilot-a');
    expect(JSON.parse(readFileSync(join(dir, 'study.json'), 'utf8'))).toEqual(study);
    expect(readFileSync(join(dir, 'participants.jsonl'), 'utf8')).toBe('');
    expect(await refused('study.create', { name: 'x', tasks: ['nope'], practiceTask: 'test__sculpt' })).toMatch(/unknown task 'nope'/);
    expect(await refused('study.create', { name: 'x', tasks: ['test__sculpt'], practiceTask: 'test__sculpt' })).toMatch(/practice task must not be one of the scored tasks/);
    const again = await call<StudyConfig>('study.create', { name: 'Pilot A', tasks: ['test__sculpt'], practiceTask: 'test__oneshot' });
    expect(again.id).toBe('pilot-a-2');
    expect((await call<StudyConfig[]>('study.list')).map((s) => s.id).sort()).toEqual(['pilot-a', 'pilot-a-2']);
  });

  it('adds pseudonymous participants with counterbalanced orders and edits texts', async () => {
    const p1 = await call<Participant>('study.addParticipant', { studyId: 'pilot-a' });
    const p2 = await call<Participant>('study.addParticipant', { studyId: 'pilot-a' });
    expect([p1.id, p2.id]).toEqual(['P01', 'P02']);
    expect(p1.order).toEqual(['test__sculpt', 'test__oneshot']);
    expect(p2.order).toEqual(['test__oneshot', 'test__sculpt']);
    expect(p1).toMatchObject({ status: 'new', stage: 'consent', episodes: [] });
    const edited = await call<StudyConfig>('study.updateTexts', { studyId: 'pilot-a', texts: { thanks: 'Danke!' } });
    expect(edited.texts.thanks).toBe('Danke!');
    expect(edited.texts.consent).toBe(study.texts.consent);
    const detail = await call<StudyDetail>('study.get', { studyId: 'pilot-a' });
    expect(detail.participants.map((p) => p.id)).toEqual(['P01', 'P02']);
    expect(await refused('study.get', { studyId: '../etc' })).toMatch(/lower-case/);
  });
});

describe('participant session', () => {
  it('runs consent -> instructions -> practice -> tasks -> thanks with experimenter rows locked', async () => {
    const s0 = await call<SessionState>('study.session.start', { studyId: 'pilot-a', participant: 'P01' });
    expect(s0).toMatchObject({ participant: 'P01', stage: 'consent', taskId: null, taskCount: 2, episodeId: null });
    expect(existsSync(join(home, 'studies', 'session.json'))).toBe(true);

    for (const [method, params] of [
      ['study.results', { studyId: 'pilot-a' }],
      ['study.get', { studyId: 'pilot-a' }],
      ['study.list', {}],
      ['study.exportCsv', { studyId: 'pilot-a', table: 'episodes' }],
      ['study.trajectory', { studyId: 'pilot-a', log: 'trajectories/P01/test__sculpt.jsonl' }],
      ['study.session.start', { studyId: 'pilot-a', participant: 'P02' }],
    ] as const) {
      expect(await refused(method, params)).toMatch(/locked while participant P01's session of study 'pilot-a' runs.*End session/);
    }

    expect(await refused('study.session.advance', {})).toMatch(/consent was not given/);
    expect((await call<SessionState>('study.session.advance', { accept: true })).stage).toBe('instructions');
    expect(await refused('study.session.task')).toMatch(/no task on the 'instructions' screen/);
    const practice = await call<SessionState>('study.session.advance', {});
    expect(practice).toMatchObject({ stage: 'practice', taskId: 'test__reassembly', taskNumber: 0 });

    const snap = await call<EpisodeSnapshot>('study.session.task');
    expect(snap).toMatchObject({ taskId: 'test__reassembly', player: 'P01', protocol: 'matched' });
    expect(await call<EpisodeSnapshot>('study.session.task')).toMatchObject({ episodeId: snap.episodeId });
    expect(await refused('study.session.next')).toMatch(/not finished yet: submit it first/);
    await call('episode.step', { episodeId: snap.episodeId, tool: 'submit', args: {} });
    const t1 = await call<SessionState>('study.session.next');
    expect(t1).toMatchObject({ stage: 'task', taskId: 'test__sculpt', taskNumber: 1 });
    await playCurrent();
    expect(await call<SessionState>('study.session.next')).toMatchObject({ stage: 'task', taskId: 'test__oneshot', taskNumber: 2 });
    await playCurrent();
    const thanks = await call<SessionState>('study.session.next');
    expect(thanks).toMatchObject({ stage: 'thanks', taskId: null });
    expect(JSON.stringify(thanks)).not.toMatch(/"(score|hidden|psnr|reward)"/i);

    const ended = await call<{ ended: boolean; participant: Participant }>('study.session.end');
    expect(ended.participant.status).toBe('completed');
    expect(ended.participant.episodes.map((e) => [e.taskId, e.practice, e.status])).toEqual([
      ['test__reassembly', true, 'submitted'],
      ['test__sculpt', false, 'submitted'],
      ['test__oneshot', false, 'submitted'],
    ]);
    expect(existsSync(join(home, 'studies', 'session.json'))).toBe(false);
    expect(await call<SessionState | null>('study.session.get')).toBeNull();
    expect(await refused('study.session.start', { studyId: 'pilot-a', participant: 'P01' })).toMatch(/already completed/);

    for (const task of ['test__reassembly', 'test__sculpt', 'test__oneshot']) {
      const log = readTrajectory(join(home, 'studies', 'pilot-a', 'trajectories', 'P01', `${task}.jsonl`));
      expect(log.header).toMatchObject({ task, player: 'P01', protocol: 'matched' });
      // The one-shot task ends by itself after its single call.
      expect(log.end?.reason).toBe(task === 'test__oneshot' ? 'auto' : 'submit');
    }
  });

  it('pauses, stays locked across a restart, and resumes a task from its log', async () => {
    await call('study.session.start', { studyId: 'pilot-a', participant: 'P02' });
    await call('study.session.advance', { accept: true });
    await call('study.session.advance', {});
    const s = await call<EpisodeSnapshot>('study.session.task');
    await call('episode.step', { episodeId: s.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0.1, 0, 0], scale: 0.2, color: '#336699' }] } });

    handlers = services(); // the lab restarts: the lock is read back from disk
    expect(await refused('study.results', { studyId: 'pilot-a' })).toMatch(/locked/);
    const paused = await call<{ participant: Participant }>('study.session.end');
    expect(paused.participant).toMatchObject({ status: 'paused', stage: 'practice' });

    await call('study.session.start', { studyId: 'pilot-a', participant: 'P02' });
    const resumed = await call<EpisodeSnapshot>('study.session.task');
    expect(resumed.episodeId).not.toBe(s.episodeId);
    expect(resumed.history.map((h) => h.tool)).toEqual(['add_gaussians']);
    expect(resumed.scene).toHaveLength((s.scene?.length ?? 0) + 1);
    expect(resumed.budgets.callsLeft).toBe(resumed.budgets.maxToolCalls - 1);
    await call('study.session.end');
  });
});

describe('results, replay and export', () => {
  it('tabulates final scores with bootstrap CIs, flags practice and keeps sources apart', async () => {
    const r = await call<StudyResults>('study.results', { studyId: 'pilot-a' });
    const p1 = r.episodes.filter((e) => e.participant === 'P01');
    expect(p1.map((e) => [e.taskId, e.practice, e.complete])).toEqual([
      ['test__reassembly', true, true],
      ['test__sculpt', false, true],
      ['test__oneshot', false, true],
    ]);
    for (const e of p1) {
      expect(typeof e.score).toBe('number');
      expect(e.seconds as number).toBeGreaterThanOrEqual(0);
    }
    expect(r.episodes.find((e) => e.participant === 'P02')).toMatchObject({ complete: false, score: null, practice: true });
    const sculpt = r.summary.find((s) => s.source === 'human' && s.taskId === 'test__sculpt');
    expect(sculpt).toMatchObject({ n: 1, mean: p1[1].score, low: null, high: null });
    // Sculpt and one-shot are never pooled (issue 36): one "(all ...)" row per task kind.
    expect(r.summary.some((s) => s.taskId === '(all splatbench tasks)')).toBe(false);
    const all = r.summary.find((s) => s.taskId === '(all sculpt tasks)');
    expect(all?.n).toBe(1);
    // One participant: the interval resamples participants, so there is none.
    expect(all).toMatchObject({ unit: 'participants', clusters: 1, low: null, high: null, warning: 'only 1 participant: no interval' });
    expect(r.bootstrap).toEqual({ resamples: 2000, level: 0.95, seed: expect.any(Number) });
  });

  it('lists a trajectory call by call with scores and renders held-out replay frames', async () => {
    const t = await call<TrajectoryView>('study.trajectory', { studyId: 'pilot-a', log: 'trajectories/P01/test__sculpt.jsonl' });
    expect(t.steps.map((s) => s.tool)).toEqual(['reset', 'add_gaussians', 'submit']);
    expect(t.heldoutViews).toEqual(['H0', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7']);
    expect(t.steps[1]).toMatchObject({ graded: true, gaussians: 1 });
    expect(t.steps[2].score).toBe(t.steps[1].score);
    expect(t.end?.score).toBeCloseTo(t.steps[1].score as number, 9);
    const f0 = await call<{ image: string; gaussians: number }>('study.replayFrame', { studyId: 'pilot-a', log: t.log, step: 0, view: 'H3' });
    const f1 = await call<{ image: string; gaussians: number }>('study.replayFrame', { studyId: 'pilot-a', log: t.log, step: 1, view: 'H3' });
    expect(f0.gaussians).toBe(0);
    expect(f1.gaussians).toBe(1);
    expect(f1.image.startsWith('data:image/png;base64,iVBOR')).toBe(true);
    expect(f1.image).not.toBe(f0.image);
    expect(await refused('study.replayFrame', { studyId: 'pilot-a', log: t.log, step: 1, view: 'V0' })).toMatch(/no held-out view 'V0'/);
    expect(await refused('study.trajectory', { studyId: 'pilot-a', log: '../../../etc/passwd' })).toMatch(/not a file of study/);
  });

  it('exports CSV and imports a model trajectory as its own source', async () => {
    const csv = await call<{ filename: string; csv: string }>('study.exportCsv', { studyId: 'pilot-a', table: 'episodes' });
    expect(csv.filename).toBe('pilot-a-episodes.csv');
    const lines = csv.csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^source,participant,task,kind_family,measure,practice,protocol,complete,score,/);
    expect(lines).toHaveLength(1 + 4);
    const human = readFileSync(join(home, 'studies', 'pilot-a', 'trajectories', 'P01', 'test__sculpt.jsonl'), 'utf8');
    // A person's log is not a model's, whatever its player says (issue 11: verified imports).
    expect(await refused('study.importModel', { studyId: 'pilot-a', text: human.replace('"player":"P01"', '"player":"gpt-x"') })).toMatch(/a person's log \(protocol 'matched'\)/);
    const text = human.replace('"player":"P01"', '"player":"gpt-x"').replace('"protocol":"matched"', '"protocol":"agent"');
    expect(await refused('study.importModel', { studyId: 'pilot-a', model: 'human', text })).toMatch(/cannot be a model name/);
    expect(await refused('study.importModel', { studyId: 'pilot-a', model: 'P01', text })).toMatch(/participant id/);
    const imported = await call<{ model: string; log: string; score: number; fileScore: number | null; mismatch: boolean }>('study.importModel', { studyId: 'pilot-a', text });
    expect(imported).toMatchObject({ model: 'gpt-x', taskId: 'test__sculpt', log: 'models/gpt-x/test__sculpt__r1.jsonl', mismatch: false });
    expect(imported.score).toBeCloseTo(imported.fileScore ?? Number.NaN, 9);
    // A tampered end record is caught: the lab's regrade is kept beside the claim, and a second
    // run of the same model and task is kept side by side (nothing overwritten).
    const tampered = text.replace(/"type":"end","reason":"(\w+)","score":[-0-9.e]+/, '"type":"end","reason":"$1","score":99');
    expect(tampered).not.toBe(text);
    // A copy (the same calls at the same times) is refused, whatever its end record says (issue 36).
    expect(await refused('study.importModel', { studyId: 'pilot-a', text: tampered })).toMatch(/already in the study as models\/gpt-x\/test__sculpt__r1\.jsonl/);
    // The same calls a year later are another run.
    const later = tampered.replace(/"t":"(\d{4})-/g, (_m, y: string) => `"t":"${Number(y) + 1}-`);
    const second = await call<{ log: string; score: number; fileScore: number; mismatch: boolean }>('study.importModel', { studyId: 'pilot-a', text: later });
    expect(second).toMatchObject({ log: 'models/gpt-x/test__sculpt__r2.jsonl', fileScore: 99, mismatch: true });
    expect(second.score).toBeCloseTo(imported.score, 9);
    const budgets = text.replace('"max_tool_calls":40', '"max_tool_calls":400');
    expect(budgets).not.toBe(text);
    expect(await refused('study.importModel', { studyId: 'pilot-a', text: budgets })).toMatch(/budgets .* are not the task's/);
    const otherTask = `${text.split('\n')[0].replace('"task":"test__sculpt"', '"task":"other"')}\n`;
    expect(otherTask).toContain('"task":"other"');
    expect(await refused('study.importModel', { studyId: 'pilot-a', text: otherTask })).toMatch(/not a scored task/);
    expect(await refused('study.importModel', { studyId: 'pilot-a', text: 'garbage\n' })).toMatch(/no trajectory header/);
    const r = await call<StudyResults>('study.results', { studyId: 'pilot-a' });
    expect(r.episodes.at(-1)).toMatchObject({ source: 'gpt-x', kind: 'model', participant: 'gpt-x', taskId: 'test__sculpt', complete: true });
    expect(r.episodes.at(-1)?.score).toBeCloseTo(imported.score, 9);
    expect(r.episodes.at(-1)?.scoreMismatch).toBe(99);
    expect(r.episodes.at(-2)?.scoreMismatch).toBeNull();
    expect(r.summary.map((s) => `${s.source}/${s.taskId}`)).toEqual(['human/test__oneshot', 'human/(all oneshot tasks)', 'human/test__sculpt', 'human/(all sculpt tasks)', 'gpt-x/test__sculpt', 'gpt-x/(all sculpt tasks)']);
    const summary = await call<{ csv: string }>('study.exportCsv', { studyId: 'pilot-a', table: 'summary' });
    expect(summary.csv.split('\r\n')[0]).toBe('source,task,kind_family,measure,n,mean_score,ci95_low,ci95_high,mean_seconds,ci_unit,n_units,warning,lpips_missing');
  });
  it('lets a study switch the outline overlay off: its episodes start without it and their logs say so', async () => {
    await dispatchCall(handlers, 'study.session.end', {});
    const config = await call<StudyConfig>('study.create', { name: 'No overlay', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', protocolOptions: { outline_overlay: false } });
    expect(config.protocolOptions).toEqual({ outline_overlay: false });
    await call('study.addParticipant', { studyId: config.id });
    await call('study.session.start', { studyId: config.id, participant: 'P01' });
    await call('study.session.advance', { accept: true });
    await call('study.session.advance', {});
    const snap = await call<EpisodeSnapshot>('study.session.task');
    expect(snap.options).toEqual({ outline_overlay: false });
    const log = readFileSync(join(home, 'studies', config.id, 'trajectories', 'P01', 'test__oneshot.jsonl'), 'utf8');
    expect(JSON.parse(log.split('\n')[0])).toMatchObject({ type: 'header', protocol_options: { outline_overlay: false } });
    await call('study.session.end');
  });
  it('keeps consent versions and records a decline with its time and version', async () => {
    await dispatchCall(handlers, 'study.session.end', {});
    const config = await call<StudyConfig>('study.create', { name: 'Consent check', tasks: ['test__sculpt'], practiceTask: 'test__oneshot' });
    expect(config.consentVersions).toEqual([{ version: 1, text: config.texts.consent, from: expect.any(String) }]);
    await call('study.addParticipant', { studyId: config.id });
    await call('study.addParticipant', { studyId: config.id });
    await call('study.session.start', { studyId: config.id, participant: 'P01' });
    expect(await refused('study.session.advance', {})).toMatch(/consent was not given/);
    await call('study.session.advance', { accept: true });
    await call('study.session.end');
    // The consent text changes after P01 agreed: P01's agreement keeps version 1, the text is kept.
    const edited = await call<StudyConfig>('study.updateTexts', { studyId: config.id, texts: { consent: 'A new consent text.' } });
    expect(edited.consentVersions.map((v) => [v.version, v.text])).toEqual([[1, config.texts.consent], [2, 'A new consent text.']]);
    await call('study.session.start', { studyId: config.id, participant: 'P02' });
    await call('study.session.advance', { accept: false });
    expect(await refused('study.session.advance', { accept: true })).toMatch(/consent was declined/);
    await call('study.session.end');
    const { participants } = await call<{ participants: Participant[] }>('study.get', { studyId: config.id });
    expect(participants[0].consent).toMatchObject({ decision: 'agreed', version: 1 });
    expect(participants[1]).toMatchObject({ status: 'declined', consent: { decision: 'declined', version: 2 } });
    expect(Number.isNaN(Date.parse(participants[1].consent?.at ?? ''))).toBe(false);
    expect(await refused('study.session.start', { studyId: config.id, participant: 'P02' })).toMatch(/declined consent/);
  });
});
