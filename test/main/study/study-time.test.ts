// A study's time settings through the study rows: the per-task active-time limit reaches the
// scored task's episode (header and clock; the practice task has none) and a scheduled break is
// announced before the task it precedes, only until that task starts; the page that opens a
// task holds its episode (disconnect/reconnect records); breakAfter() never schedules one after
// the last task.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createEpisodeHandlers } from '../../../src/main/services/episode';
import { createStudyHandlers } from '../../../src/main/services/study';
import { createLabContext } from '../../../src/main/services/context';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import { readTrajectory } from '../../../src/main/env/trajectory';
import type { EpisodeSnapshot } from '../../../src/shared/api/episode';
import type { SessionState } from '../../../src/shared/api/study';
import type { StudyConfig } from '../../../src/shared/study/config';
import { breakAfter } from '../../../src/shared/study/time';
import { Connection } from '../../../src/main/services/connection';
import { fakeServices } from '../services/fixtures';
import { testTasks } from '../env/fixtures';

let handlers: Handlers;
let manager: EpisodeManager;

async function call<T>(method: string, params: unknown = {}, caller?: Connection): Promise<T> {
  const out = await dispatchCall(handlers, method, params, caller);
  if (!out.ok) throw new Error(out.message);
  return out.result as T;
}

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  const home = mkdtempSync(join(tmpdir(), 'splatlab-study-time-'));
  manager = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
  const deps = { gpu: { device: null, status: { path: 'cpu' as const, vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, version: '0', transport: 'direct' as const, listTasks: async () => [] };
  handlers = {
    ...fakeServices().handlers,
    ...createEpisodeHandlers({ episodes: manager }),
    ...createStudyHandlers(createLabContext({ ...deps, home, episodes: manager }), { renderer: async () => grader }),
  };
});

describe('study time settings', () => {
  it('limits scored tasks by active time and announces the break before the second task', async () => {
    const study = await call<StudyConfig>('study.create', {
      name: 'Timed', tasks: ['test__sculpt', 'test__oneshot'], practiceTask: 'test__reassembly', order: 'fixed', taskTimeLimitS: 600, breaks: [{ afterTask: 1, seconds: 30 }],
    });
    expect(study).toMatchObject({ taskTimeLimitS: 600, breaks: [{ afterTask: 1, seconds: 30 }] });
    await call('study.addParticipant', { studyId: study.id });
    await call('study.session.start', { studyId: study.id, participant: 'P01' });
    await call('study.session.advance', { accept: true });
    expect((await call<SessionState>('study.session.advance', {})).breakSeconds).toBeNull();
    const practice = await call<EpisodeSnapshot>('study.session.task');
    expect(practice.time?.limitMs).toBeNull();
    await call('episode.step', { episodeId: practice.episodeId, tool: 'submit', args: {} });
    expect((await call<SessionState>('study.session.next')).breakSeconds).toBeNull(); // no break before the first task
    const first = await call<EpisodeSnapshot>('study.session.task');
    expect(first.time?.limitMs).toBe(600_000);
    expect(readTrajectory(manager.info(first.episodeId).logPath).header?.time_limit_s).toBe(600);
    await call('episode.step', { episodeId: first.episodeId, tool: 'submit', args: {} });
    const second = await call<SessionState>('study.session.next');
    expect(second).toMatchObject({ taskNumber: 2, breakSeconds: 30 });
    // The participant's page holds the episode: closing it marks a disconnect, reopening a reconnect.
    const page = new Connection();
    const task2 = await call<EpisodeSnapshot>('study.session.task', {}, page);
    expect((await call<SessionState>('study.session.get')).breakSeconds).toBeNull(); // the task started: the break is over
    page.close();
    await call<EpisodeSnapshot>('study.session.task', {}, new Connection());
    await call('episode.mark', { episodeId: task2.episodeId, event: 'pause' });
    expect(readTrajectory(manager.info(task2.episodeId).logPath).times.map((t) => t.event)).toEqual(['disconnect', 'reconnect', 'pause']);
    await call('study.session.end');
  });

  it('schedules breaks only between tasks', () => {
    const s = { tasks: ['a', 'b', 'c'], breaks: [{ afterTask: 1, seconds: 5 }, { afterTask: 3, seconds: 5 }] };
    expect(breakAfter(s, 0)).toBeNull();
    expect(breakAfter(s, 1)).toEqual({ afterTask: 1, seconds: 5 });
    expect(breakAfter(s, 2)).toBeNull();
    expect(breakAfter(s, 3)).toBeNull();
  });
});
