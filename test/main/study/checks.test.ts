// Comprehension and attention checks (issue 24 item 6; docs/STUDIES.md "Checks"): a study defines
// a comprehension check after the instructions and an attention check after task 1, with an
// exclusion rule. P01 fails the comprehension check once (back to the instructions), passes the
// second time and fails the attention check; P02 passes both at once. Every attempt is in the
// participant record, Results and the archive's checks table; the page never gets the correct
// answers; applying the rule excludes P01's scored episodes, and the flow counts P01 excluded.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../../src/main/services/connection';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices, type LabServices } from '../../../src/main/services/lab';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { SessionState, StudyDetail, StudyExport, StudyResults } from '../../../src/shared/api/study';
import { MAX_COMPREHENSION_ATTEMPTS, StudyChecksSchema } from '../../../src/shared/study/checks';
import { StudyConfigSchema } from '../../../src/shared/study/config';
import { testTasks } from '../env/fixtures';

let services: LabServices;
const desk = new Connection();
const PIN = '8642';

async function call<T>(method: string, params: unknown = {}, caller = desk): Promise<T> {
  const out = await dispatchCall(services.handlers, method, params, caller);
  if (!out.ok) throw new Error(`${method}: ${out.message}`);
  return out.result as T;
}

const CHECKS = {
  comprehension: {
    questions: [
      { id: 'budget', prompt: 'What does a tool call cost?', options: ['nothing', 'one call of the budget'], correct: 'one call of the budget' },
      { id: 'score', prompt: 'Will you see your score?', options: ['yes', 'no'], correct: 'no' },
    ],
  },
  attention: [{ id: 'instructed', prompt: 'To show you are reading, choose "purple".', options: ['red', 'purple', 'green'], correct: 'purple', afterTask: 1 }],
  maxAttentionFailures: 0,
};

const pageStates: SessionState[] = [];
let home = '';

async function play(screen: Connection): Promise<SessionState> {
  const ep = await call<EpisodeSnapshot>('study.session.task', {}, screen);
  await call('episode.step', { episodeId: ep.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.3, color: '#c08040' }] } }, screen);
  if (!(await call<{ done: boolean }>('episode.get', { episodeId: ep.episodeId }, screen)).done) await call('episode.step', { episodeId: ep.episodeId, tool: 'submit', args: {} }, screen);
  return call<SessionState>('study.session.next', {}, screen);
}

/** One session: `failFirst` answers the comprehension check wrongly once; `attention` is the option picked. */
async function session(participant: string, failFirst: boolean, attention: string): Promise<void> {
  const screen = new Connection();
  await call('study.session.start', { studyId: 'checks', participant }, screen);
  let s = await call<SessionState>('study.session.advance', { accept: true }, screen);
  pageStates.push(s);
  expect(s.stage).toBe('instructions');
  s = await call<SessionState>('study.session.advance', {}, screen);
  pageStates.push(s);
  expect(s.stage).toBe('comprehension');
  expect(s.check?.items.map((i) => i.id)).toEqual(['budget', 'score']);
  if (failFirst) {
    s = await call<SessionState>('study.session.check', { answers: { budget: 'nothing', score: 'no' } }, screen);
    pageStates.push(s);
    expect(s.stage).toBe('instructions');
    expect(s.check?.lastFailed).toBe(true);
    await expect(call('study.session.check', { answers: { budget: 'nothing' } }, screen)).rejects.toThrow(/no check on the 'instructions' screen/);
    s = await call<SessionState>('study.session.advance', {}, screen);
  }
  await expect(call('study.session.check', { answers: { nonsense: 'x' } }, screen)).rejects.toThrow(/'nonsense' is not an item of this check/);
  s = await call<SessionState>('study.session.check', { answers: { budget: 'one call of the budget', score: 'no' } }, screen);
  pageStates.push(s);
  expect(s.stage).toBe('practice');
  s = await play(screen);
  expect(s.stage).toBe('task');
  s = await play(screen);
  pageStates.push(s);
  expect(s.stage).toBe('attention');
  expect(s.check?.items).toEqual([{ id: 'instructed', prompt: CHECKS.attention[0].prompt, options: ['red', 'purple', 'green'] }]);
  s = await call<SessionState>('study.session.check', { answers: { instructed: attention } }, screen);
  expect(s.stage).toBe('task');
  expect(s.taskNumber).toBe(2);
  s = await play(screen);
  expect(s.stage).toBe('thanks');
  await call('roles.unlock', { secret: PIN }, screen);
  await call('study.session.end', {}, screen);
}

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  home = mkdtempSync(join(tmpdir(), 'splatlab-checks-'));
  services = createLabServices(createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', grader: async () => grader }));
  await call('study.create', { name: 'Checks', tasks: ['test__sculpt', 'test__reassembly'], practiceTask: 'test__oneshot', protocol: 'matched', order: 'fixed', checks: CHECKS });
  await call('roles.setPin', { studyId: 'checks', pin: PIN });
  for (let i = 0; i < 2; i++) await call('study.addParticipant', { studyId: 'checks' });
  await session('P01', true, 'red');
  await session('P02', false, 'purple');
}, 240_000);

describe('study checks', () => {
  it('refuse a definition whose correct answer is not an option, or an attention check after a task the study lacks', () => {
    expect(StudyChecksSchema.safeParse({ comprehension: { questions: [{ id: 'a', prompt: 'p', options: ['x', 'y'], correct: 'z' }] } }).error?.issues[0].message).toMatch(/correct answer of 'a' must be one of its options/);
    const config = { id: 's', name: 'S', created: '', tasks: ['t1'], practiceTask: 'p', protocol: 'matched', order: 'fixed', texts: { consent: 'c', instructions: 'i', thanks: 't' }, checks: { attention: [{ ...CHECKS.attention[0], afterTask: 2 }] } };
    expect(StudyConfigSchema.safeParse(config).error?.issues[0].message).toMatch(/comes after task 2, but the study has 1/);
  });

  it('never send the correct answers to the page', () => {
    expect(pageStates.length).toBeGreaterThan(6);
    for (const s of pageStates) expect(JSON.stringify(s)).not.toContain('"correct"');
  });

  it('record every attempt and every attention check', async () => {
    const d = await call<StudyDetail>('study.get', { studyId: 'checks' });
    const p1 = d.participants.find((p) => p.id === 'P01');
    expect(p1?.checks?.comprehension.map((a) => [a.passed, a.wrong])).toEqual([[false, ['budget']], [true, []]]);
    expect(p1?.checks?.attention.map((a) => [a.id, a.answer, a.passed])).toEqual([['instructed', 'red', false]]);
    const r = await call<StudyResults>('study.results', { studyId: 'checks' });
    expect(r.checks?.rows).toEqual([
      { participant: 'P01', comprehensionAttempts: 2, comprehensionPassed: true, attentionPassed: 0, attentionAnswered: 1, overRule: true },
      { participant: 'P02', comprehensionAttempts: 1, comprehensionPassed: true, attentionPassed: 1, attentionAnswered: 1, overRule: false },
    ]);
    expect(r.flow?.counts.excluded).toBe(0);
  });

  it('apply the exclusion rule: the over-rule participant is excluded and counted in the flow', async () => {
    expect(await call('study.applyAttentionRule', { studyId: 'checks' })).toEqual({ excluded: ['P01'], rule: 0 });
    const r = await call<StudyResults>('study.results', { studyId: 'checks' });
    expect(r.flow?.counts.excluded).toBe(1);
    const p1 = r.episodes.filter((e) => e.participant === 'P01' && !e.practice);
    expect(p1.map((e) => e.excluded)).toEqual(['failed 1 of 1 attention check(s) (rule: more than 0)', 'failed 1 of 1 attention check(s) (rule: more than 0)']);
    expect(r.episodes.filter((e) => e.participant === 'P02').every((e) => !e.excluded)).toBe(true);
    // Applying it again changes nothing more.
    await call('study.applyAttentionRule', { studyId: 'checks' });
    expect((await call<StudyResults>('study.results', { studyId: 'checks' })).flow?.counts.excluded).toBe(1);
  });

  it('export every attempt in the checks table', async () => {
    const ex = await call<StudyExport>('study.export', { studyId: 'checks' });
    const files = unzipSync(readFileSync(ex.path));
    const member = Object.keys(files).find((f) => f.endsWith('/data/table-checks_data.csv')) ?? 'missing';
    const csv = new TextDecoder().decode(files[member]).trim().split(/\r?\n/);
    expect(csv[0]).toBe('participant,check,attempt,item,answer,correct,passed,at');
    const rows = csv.slice(1).map((l) => l.split(',').slice(0, 7).join(','));
    expect(rows).toEqual([
      'P01,comprehension,1,budget,nothing,false,false',
      'P01,comprehension,1,score,no,true,false',
      'P01,comprehension,2,budget,one call of the budget,true,true',
      'P01,comprehension,2,score,no,true,true',
      'P01,attention,1,instructed,red,false,false',
      'P02,comprehension,1,budget,one call of the budget,true,true',
      'P02,comprehension,1,score,no,true,true',
      'P02,attention,1,instructed,purple,true,true',
    ]);
  });
});

describe('comprehension attempts are capped (issue 38 item 4)', () => {
  it('refuses the attempt after the last allowed one in one line, storing nothing more', async () => {
    const p = await call<{ id: string }>('study.addParticipant', { studyId: 'checks' });
    const screen = new Connection();
    await call('study.session.start', { studyId: 'checks', participant: p.id }, screen);
    await call('study.session.advance', { accept: true }, screen);
    const journal = join(home, 'studies', 'checks', 'participants.jsonl');
    for (let i = 0; i < MAX_COMPREHENSION_ATTEMPTS; i++) {
      await call('study.session.advance', {}, screen);
      const was = readFileSync(journal, 'utf8');
      expect((await call<SessionState>('study.session.check', { answers: { budget: 'nothing', score: 'no' } }, screen)).stage).toBe('instructions');
      // Stored as one appended line: the file before it is untouched (never rewritten whole).
      const now = readFileSync(journal, 'utf8');
      expect(now.startsWith(was)).toBe(true);
      expect(now.slice(was.length).split('\n').filter(Boolean)).toHaveLength(1);
    }
    await call('study.session.advance', {}, screen);
    const before = readFileSync(journal, 'utf8');
    await expect(call('study.session.check', { answers: { budget: 'nothing', score: 'no' } }, screen)).rejects.toThrow(/tried 10 times, the most a session allows: please ask the experimenter/);
    expect(readFileSync(journal, 'utf8')).toBe(before);
    await call('roles.unlock', { secret: PIN }, screen);
    await call('study.session.end', {}, screen);
  });
});
