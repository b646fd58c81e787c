// Roles and isolation through the whole LabApi (createLabServices over the 32x32 test tasks): a
// participant connection is refused every experimenter row (End session, Results, Author,
// Debugger, another task, another log) with a clear line and nothing runs; it reaches only its
// own session and the episode it opened; a second tab on that episode is read-only (in_use) until
// the first one closes; the unlock takes the study's PIN or the experimenter's token, and wrong
// tries are rate limited; participant tokens cannot be forged or reused for another participant.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Connection, type Caller } from '../../../src/main/services/connection';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices, type LabServices } from '../../../src/main/services/lab';
import { FORBIDDEN_MESSAGE, LINK_OVER_MESSAGE, Roles, UNLOCK_TRIES } from '../../../src/main/services/roles';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { WhoAmI } from '../../../src/shared/api/roles';
import { testTasks } from '../env/fixtures';

let services: LabServices;
let home: string;

async function call<T>(caller: Caller, method: string, params: unknown = {}): Promise<T> {
  const out = await dispatchCall(services.handlers, method, params, caller);
  if (!out.ok) throw new Error(`${method}: ${out.code}: ${out.message}`);
  return out.result as T;
}

async function refusal(caller: Caller, method: string, params: unknown = {}): Promise<{ code: string; message: string }> {
  const out = await dispatchCall(services.handlers, method, params, caller);
  if (out.ok) throw new Error(`${method} was not refused`);
  return { code: out.code, message: out.message };
}

const PIN = '4711';
const AUTHOR_OBJECT = { name: 'x', parts: [] };

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  home = mkdtempSync(join(tmpdir(), 'splatlab-roles-'));
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', grader: async () => grader });
  services = createLabServices(ctx);
});

describe('roles and isolation', () => {
  const desk = new Connection();
  let screen: Connection;
  let episode: EpisodeSnapshot;

  it('needs a way back before a screen is handed over, and hands over the starting screen', async () => {
    await call(desk, 'study.create', { name: 'Roles', tasks: ['test__sculpt'], practiceTask: 'test__oneshot' });
    await call(desk, 'study.addParticipant', { studyId: 'roles' });
    await call(desk, 'study.addParticipant', { studyId: 'roles' });
    screen = new Connection();
    // No experimenter token (a desktop window) and no PIN: nobody could unlock the screen again.
    expect((await refusal(screen, 'study.session.start', { studyId: 'roles', participant: 'P01' })).message).toMatch(/no experimenter PIN/);
    expect(existsSync(join(home, 'studies', 'session.json'))).toBe(false);
    expect((await refusal(desk, 'roles.setPin', { studyId: 'roles', pin: '12' })).message).toMatch(/4 to 12 digits/);
    await call(desk, 'roles.setPin', { studyId: 'roles', pin: PIN });
    const pinFile = join(home, 'unlock', 'roles.json');
    expect(readFileSync(pinFile, 'utf8')).not.toContain(PIN);
    expect(statSync(pinFile).mode & 0o077).toBe(0);
    await call(screen, 'study.session.start', { studyId: 'roles', participant: 'P01' });
    const me = await call<WhoAmI>(screen, 'roles.whoami');
    expect(me).toMatchObject({ role: 'participant', session: { studyId: 'roles', participant: 'P01' }, pinSet: true });
    // A desktop window made now (a restarted kiosk) is the participant's too.
    expect(services.roles.windowRole()).toMatchObject({ role: 'participant', session: { studyId: 'roles', participant: 'P01', started: expect.any(String) } });
  });

  it('refuses every experimenter row to the participant screen, with a clear line, running nothing', async () => {
    const rows: [string, unknown][] = [
      ['study.session.end', {}],
      ['study.results', { studyId: 'roles' }],
      ['study.get', { studyId: 'roles' }],
      ['study.list', {}],
      ['study.session.start', { studyId: 'roles', participant: 'P02' }],
      ['study.trajectory', { studyId: 'roles', log: 'trajectories/P01/test__sculpt.jsonl' }],
      ['author.fit.start', { object: AUTHOR_OBJECT }],
      ['author.sheet', { object: AUTHOR_OBJECT, set: 'heldout' }],
      ['author.status', {}],
      ['debug.open', { source: { kind: 'task', taskId: 'test__sculpt', scene: 'fit' } }],
      ['episode.start', { taskId: 'test__sculpt' }],
      ['episode.resume', { log: join(home, 'studies', 'roles', 'trajectories', 'P01', 'test__oneshot.jsonl') }],
      ['roles.participantLink', {}],
      ['roles.setPin', { studyId: 'roles', pin: '0000' }],
      ['roles.handOver', {}],
    ];
    for (const [method, params] of rows) {
      const r = await refusal(screen, method, params);
      expect(r, method).toMatchObject({ code: 'forbidden' });
      expect(r.message, method).toBe(`${method}: ${FORBIDDEN_MESSAGE}`);
    }
    // Nothing ran: the session still runs, no episode was started, the PIN is unchanged.
    expect(existsSync(join(home, 'studies', 'session.json'))).toBe(true);
    expect(services.context.episodes.liveCount).toBe(0);
    expect((await refusal(desk, 'study.results', { studyId: 'roles' })).message).toMatch(/locked while participant P01/);
  });

  it('lets the participant screen do its own session and episode, and no other', async () => {
    await call(screen, 'study.session.advance', { accept: true });
    await call(screen, 'study.session.advance', {});
    episode = await call<EpisodeSnapshot>(screen, 'study.session.task');
    expect(services.roles.ownerOf(episode.episodeId)).toBe(screen);
    const step = await call<{ budgets: unknown }>(screen, 'episode.step', { episodeId: episode.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#c08040' }] } });
    expect(step.budgets).toBeDefined();
    // An episode the experimenter started at the desk is not the participant's.
    const other = await call<EpisodeSnapshot>(desk, 'episode.start', { taskId: 'test__sculpt' });
    expect(await refusal(screen, 'episode.step', { episodeId: other.episodeId, tool: 'submit', args: {} })).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/not this participant's current task/) });
    expect(await refusal(screen, 'episode.get', { episodeId: other.episodeId })).toMatchObject({ code: 'forbidden' });
    await call(desk, 'episode.close', { episodeId: other.episodeId });
  });

  it('gives a second tab of the same participant a read-only in_use, until the first one goes', async () => {
    const token = services.roles.participantToken({ studyId: 'roles', participant: 'P01' });
    const role = services.roles.credential(token);
    expect(role).toEqual({ role: 'participant', session: { studyId: 'roles', participant: 'P01', started: services.roles.runningSession()?.started } });
    const tab2 = new Connection(role ?? undefined);
    expect(await refusal(tab2, 'study.session.task')).toMatchObject({ code: 'in_use', message: expect.stringMatching(/open elsewhere/) });
    expect(await refusal(tab2, 'episode.step', { episodeId: episode.episodeId, tool: 'submit', args: {} })).toMatchObject({ code: 'in_use' });
    expect(await refusal(desk, 'episode.get', { episodeId: episode.episodeId })).toMatchObject({ code: 'in_use' });
    // The session's own episode, named by a reconnecting page: in_use while the first tab is open.
    expect(await refusal(tab2, 'episode.get', { episodeId: episode.episodeId })).toMatchObject({ code: 'in_use' });
    screen.close();
    // Once it is gone, the session's episode may be taken over by name (a page reconnecting).
    expect((await call<EpisodeSnapshot>(tab2, 'episode.get', { episodeId: episode.episodeId })).episodeId).toBe(episode.episodeId);
    const again = await call<EpisodeSnapshot>(tab2, 'study.session.task');
    expect(again.episodeId).toBe(episode.episodeId);
    expect(services.roles.ownerOf(episode.episodeId)).toBe(tab2);
    screen = tab2;
  });

  it('gives another participant token nothing of this session; forged tokens are no credential', async () => {
    const p2 = new Connection(services.roles.credential(services.roles.participantToken({ studyId: 'roles', participant: 'P02' })) ?? undefined);
    expect(p2.role).toBe('participant');
    expect(await call(p2, 'study.session.get')).toBeNull();
    expect(await refusal(p2, 'study.session.task')).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/not the one running/) });
    expect(await refusal(p2, 'study.session.advance', {})).toMatchObject({ code: 'forbidden' });
    const real = services.roles.participantToken({ studyId: 'roles', participant: 'P01' });
    const forged = `p.${Buffer.from('roles/P02').toString('base64url')}.${real.split('.')[2]}`;
    expect(services.roles.credential(forged)).toBeNull();
    expect(services.roles.credential(`${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(services.roles.credential('')).toBeNull();
  });

  it('unlocks with the PIN (never with a wrong one), then the session can end', async () => {
    expect(await refusal(screen, 'roles.unlock', { secret: '0000' })).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/wrong PIN/) });
    expect(screen.role).toBe('participant');
    const me = await call<WhoAmI>(screen, 'roles.unlock', { secret: PIN });
    expect(me.role).toBe('experimenter');
    expect(await call(screen, 'study.session.end')).toMatchObject({ ended: true });
    expect(existsSync(join(home, 'studies', 'session.json'))).toBe(false);
    expect(services.roles.windowRole()).toEqual({ role: 'experimenter' });
  });

  it('answers a second resume of a log being written with in_use, not a forked log', async () => {
    const log = join(home, 'studies', 'roles', 'trajectories', 'P01', 'test__oneshot.jsonl');
    const first = await call<EpisodeSnapshot>(desk, 'episode.resume', { log });
    const tab = new Connection();
    expect(await refusal(tab, 'episode.resume', { log })).toMatchObject({ code: 'in_use', message: expect.stringMatching(/open elsewhere/) });
    await call(desk, 'episode.close', { episodeId: first.episodeId });
    expect(services.roles.ownerOf(first.episodeId)).toBeUndefined();
  });
});

describe('the unlock and participant tokens (Roles alone)', () => {
  it('takes the experimenter token, backs off wrong tries per link, and derives stable participant tokens', () => {
    let now = 0;
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-roles-unit-'));
    const roles = new Roles(dir, () => now);
    roles.useExperimenterToken('T'.repeat(32));
    const c = new Connection({ role: 'participant', session: { studyId: 's', participant: 'P01' } });
    const other = new Connection({ role: 'participant', session: { studyId: 's', participant: 'P02' } });
    for (let i = 0; i < UNLOCK_TRIES; i++) expect(() => roles.unlock(c, 'nope')).toThrow(/wrong experimenter token/);
    // This link waits now (a PIN cannot be guessed by trying fast); another link does not.
    expect(() => roles.unlock(c, 'nope')).toThrow(/too many wrong PINs on this page: wait 60 s/);
    expect(() => roles.unlock(other, 'nope')).toThrow(/wrong experimenter token/);
    // The experimenter's own token is never held back (it cannot be guessed).
    expect(roles.unlock(c, 'T'.repeat(32)).role).toBe('experimenter');
    now += 61_000;
    expect(roles.credential('T'.repeat(32))).toEqual({ role: 'experimenter' });
    const again = new Roles(dir);
    again.useExperimenterToken('T'.repeat(32));
    const token = roles.participantToken({ studyId: 's', participant: 'P01' });
    expect(again.participantToken({ studyId: 's', participant: 'P01' })).toBe(token);
    const stranger = new Roles(dir);
    stranger.useExperimenterToken('U'.repeat(32));
    expect(stranger.credential(token)).toBeNull();
  });

  it('ends a participant link with its session and after its lifetime; a finished link may not even try a PIN', () => {
    let now = Date.parse('2026-01-01T10:00:00Z');
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-roles-link-'));
    mkdirSync(join(dir, 'studies'), { recursive: true });
    const session = (started: string) => writeFileSync(join(dir, 'studies', 'session.json'), JSON.stringify({ studyId: 's', participant: 'P01', started, episodeId: null }));
    const roles = new Roles(dir, () => now, 3_600_000);
    roles.useExperimenterToken('T'.repeat(32));
    session('2026-01-01T10:00:00.000Z');
    const link = roles.participantToken({ studyId: 's', participant: 'P01' });
    const tab = new Connection(roles.credential(link) ?? undefined);
    expect(roles.ownSession(tab)).toBe(true);
    // The session ends: the link is over, whatever it tries.
    rmSync(join(dir, 'studies', 'session.json'));
    expect(roles.linkOver(tab)).toBe(true);
    expect(() => roles.unlock(tab, '0000')).toThrow(LINK_OVER_MESSAGE);
    // A later session of the same participant has another link; the old one stays over.
    session('2026-01-01T10:30:00.000Z');
    expect(roles.linkOver(tab)).toBe(true);
    const next = new Connection(roles.credential(roles.participantToken({ studyId: 's', participant: 'P01' })) ?? undefined);
    expect(roles.ownSession(next)).toBe(true);
    expect(roles.linkOf(next)).not.toBe(roles.linkOf(tab));
    // Past the lifetime (an hour here) even the running session's link stops working.
    now += 2 * 3_600_000;
    expect(roles.ownSession(next)).toBe(false);
    // The experimenter's token still unlocks the finished link's page.
    expect(roles.unlock(tab, 'T'.repeat(32)).role).toBe('experimenter');
  });

  it('takes the PIN on the experimenter\'s own page after a participant withdrew there (issue 36)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-roles-handed-'));
    mkdirSync(join(dir, 'studies', 's'), { recursive: true });
    writeFileSync(join(dir, 'studies', 's', 'study.json'), '{}');
    writeFileSync(join(dir, 'studies', 'session.json'), JSON.stringify({ studyId: 's', participant: 'P01', started: '2026-01-01T10:00:00.000Z', episodeId: null }));
    const roles = new Roles(dir);
    roles.setPin('s', '4321');
    const own = new Connection();
    roles.handOver(own);
    expect(own.role).toBe('participant');
    // The participant withdraws on this page: the session ends.
    rmSync(join(dir, 'studies', 'session.json'));
    expect(roles.linkOver(own)).toBe(false);
    expect(() => roles.unlock(own, '0000')).toThrow(/wrong PIN/);
    expect(roles.unlock(own, '4321').role).toBe('experimenter');
  });
});
