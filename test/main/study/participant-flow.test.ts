// Participant flow (issue 24 item 7): a study with a completed participant (one episode then
// excluded), a decline, a withdrawal and one never started; the flow counts are the same after
// the withdrawn and the declined participant's data are deleted (their deletion records keep
// their stage flags, nothing personal), and Results and the archive carry the counts and the
// SVG diagram. This is the worked example of docs/STUDIES.md "Participant flow".
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
import type { SessionState, StudyExport, StudyResults } from '../../../src/shared/api/study';
import { testTasks } from '../env/fixtures';

let services: LabServices;
const desk = new Connection();
const PIN = '8642';

async function call<T>(method: string, params: unknown = {}, caller = desk): Promise<T> {
  const out = await dispatchCall(services.handlers, method, params, caller);
  if (!out.ok) throw new Error(`${method}: ${out.message}`);
  return out.result as T;
}

/** Runs one participant's session on a fresh screen: `plan` says how far they get. */
async function session(participant: string, plan: 'complete' | 'decline' | 'withdraw'): Promise<void> {
  const screen = new Connection();
  await call('study.session.start', { studyId: 'flow', participant }, screen);
  if (plan === 'decline') {
    await call('study.session.advance', { accept: false }, screen);
  } else if (plan === 'withdraw') {
    await call('study.session.advance', { accept: true }, screen);
    await call('study.session.withdraw', { reason: 'no longer wants to take part' }, screen);
    return;
  } else {
    let s = await call<SessionState>('study.session.advance', { accept: true }, screen);
    while (s.stage !== 'thanks') {
      if (s.stage === 'practice' || s.stage === 'task') {
        const ep = await call<EpisodeSnapshot>('study.session.task', {}, screen);
        await call('episode.step', { episodeId: ep.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.3, color: '#c08040' }] } }, screen);
        if (!(await call<{ done: boolean }>('episode.get', { episodeId: ep.episodeId }, screen)).done) await call('episode.step', { episodeId: ep.episodeId, tool: 'submit', args: {} }, screen);
        s = await call<SessionState>('study.session.next', {}, screen);
      } else s = await call<SessionState>('study.session.advance', {}, screen);
    }
  }
  await call('roles.unlock', { secret: PIN }, screen);
  await call('study.session.end', {}, screen);
}

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  const home = mkdtempSync(join(tmpdir(), 'splatlab-flow-'));
  services = createLabServices(createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', grader: async () => grader }));
  await call('study.create', { name: 'Flow', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', protocol: 'matched', order: 'fixed' });
  await call('roles.setPin', { studyId: 'flow', pin: PIN });
  for (let i = 0; i < 4; i++) await call('study.addParticipant', { studyId: 'flow' });
  await session('P01', 'complete');
  await session('P02', 'decline');
  await session('P03', 'withdraw');
  await call('study.exclude', { studyId: 'flow', participant: 'P01', taskId: 'test__sculpt', reason: 'tracked the wrong object' });
}, 180_000);

const EXPECTED = { created: 4, consented: 2, declined: 1, started: 1, withdrawn: 1, excluded: 1, completed: 1 };

describe('participant flow', () => {
  it('counts each stage', async () => {
    const r = await call<StudyResults>('study.results', { studyId: 'flow' });
    expect(r.flow?.counts).toEqual({ ...EXPECTED, deleted: 0 });
    expect(r.flow?.svg).toMatch(/^<svg[^>]*>.*Declined consent: n = 1.*<\/svg>$/s);
  });

  it('keeps every count when the withdrawn and the declined participant are deleted', async () => {
    await call('study.deleteParticipant', { studyId: 'flow', participant: 'P03', requestedBy: 'participant' });
    await call('study.deleteParticipant', { studyId: 'flow', participant: 'P02', requestedBy: 'experimenter' });
    const r = await call<StudyResults>('study.results', { studyId: 'flow' });
    expect(r.flow?.counts).toEqual({ ...EXPECTED, deleted: 2 });
    expect(r.flow?.svg).toContain('Withdrew: n = 1');
    expect(r.flow?.svg).toContain('2 record(s) deleted on request');
  });

  it('writes the counts and the diagram into the archive', async () => {
    const ex = await call<StudyExport>('study.export', { studyId: 'flow' });
    const files = unzipSync(readFileSync(ex.path));
    const name = (end: string) => Object.keys(files).find((n) => n.endsWith(end)) ?? '';
    const table = new TextDecoder().decode(files[name('data/table-flow_data.csv')]);
    expect(table.trim().split('\r\n')).toEqual(['stage,n', 'created,4', 'consented,2', 'declined,1', 'started,1', 'withdrawn,1', 'excluded,1', 'completed,1', 'deleted,2']);
    expect(new TextDecoder().decode(files[name('figures/participant-flow.svg')])).toContain('Completed: n = 1');
  });
});

describe('session metadata', () => {
  it("records what a participant's page ran on, exports it and forgets it with a deletion", async () => {
    await call('study.addParticipant', { studyId: 'flow' });
    const screen = new Connection();
    await call('study.session.start', { studyId: 'flow', participant: 'P05' }, screen);
    const meta = { userAgent: 'Mozilla/5.0 test', screen: [1920, 1080], window: [1400, 880], pixelRatio: 2, pointerTypes: ['mouse'], webgpu: 'google swiftshader' };
    expect(await call('study.session.meta', meta, screen)).toEqual({ recorded: true });
    await call('roles.unlock', { secret: PIN }, screen);
    await call('study.session.end', {}, screen);
    const files = unzipSync(readFileSync((await call<StudyExport>('study.export', { studyId: 'flow' })).path));
    const table = new TextDecoder().decode(files[Object.keys(files).find((n) => n.endsWith('data/table-sessionmeta_data.csv')) ?? '']).trim().split('\r\n');
    expect(table[0]).toBe('participant,session_started,at,lab_version,user_agent,screen,window,pixel_ratio,pointer_types,webgpu');
    expect(table[1]).toMatch(/^P05,.*,0,Mozilla\/5\.0 test,1920x1080,1400x880,2,mouse,google swiftshader$/);
    const record = await call<{ cleared: string[] }>('study.deleteParticipant', { studyId: 'flow', participant: 'P05', requestedBy: 'participant' });
    expect(record.cleared).toContain('sessions');
    const again = unzipSync(readFileSync((await call<StudyExport>('study.export', { studyId: 'flow' })).path));
    expect(new TextDecoder().decode(again[Object.keys(again).find((n) => n.endsWith('data/table-sessionmeta_data.csv')) ?? '']).trim().split('\r\n')).toHaveLength(1);
  });
});

describe('withdrawal roles (issue 38 item 4)', () => {
  it("records a participant page's withdrawal as the participant's whatever `by` it sends; an unlocked screen may say experimenter", async () => {
    const forged = await call<{ id: string }>('study.addParticipant', { studyId: 'flow' });
    const screen = new Connection();
    await call('study.session.start', { studyId: 'flow', participant: forged.id }, screen);
    const out = await call<{ participant: { withdrawal?: { by: string } } }>('study.session.withdraw', { reason: 'left', by: 'experimenter' }, screen);
    expect(out.participant.withdrawal?.by).toBe('participant');
    const real = await call<{ id: string }>('study.addParticipant', { studyId: 'flow' });
    const desk = new Connection();
    await call('study.session.start', { studyId: 'flow', participant: real.id }, desk);
    await call('roles.unlock', { secret: PIN }, desk);
    const byDesk = await call<{ participant: { withdrawal?: { by: string } } }>('study.session.withdraw', { reason: 'not eligible', by: 'experimenter' }, desk);
    expect(byDesk.participant.withdrawal?.by).toBe('experimenter');
  });
});
