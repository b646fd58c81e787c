// study.analyses reports progress and can be cancelled (docs/AGENTS.md "Analyses"): over a study
// with a scripted model's runs, the call publishes `progress` events of task 'analyses <id>' to
// its caller (episodes read of all); study.analysesCancel while an episode's mirror renders are
// held stops it after that episode (the call fails with 'cancelled', nothing past it is read);
// cancelling with none running says so; a second run at once is refused by name; and run to the
// end the events count every episode.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command as evalCommand } from '../../../src/main/cli/commands/eval';
import { Grader } from '../../../src/main/grader/grader';
import { DIRECT_CALLER } from '../../../src/main/services/connection';
import { createLabContext } from '../../../src/main/services/context';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { createLabServices, type LabServices } from '../../../src/main/services/lab';
import type { LabEventData } from '../../../src/shared/api/lab';
import { buildTestTask } from '../../helpers/test-task';

let grader: Grader;
let services: LabServices;
/** While set, each renderViews waits here (the mirror test of one episode, held). */
let gate: { reached: () => void; wait: Promise<void> } | null = null;
const oldHome = process.env.SPLATLAB_HOME;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'splatlab-analyses-cancel-'));
  const tasksDir = join(root, 'tasks');
  const home = join(root, 'home');
  grader = await Grader.create({ lpipsDir: null });
  await buildTestTask(tasksDir, { size: 32, grader });
  // The lab's grader, with renders that can be held.
  const held = Object.assign(Object.create(grader) as Grader, {
    renderViews: async (...a: Parameters<Grader['renderViews']>) => {
      if (gate) {
        gate.reached();
        await gate.wait;
      }
      return grader.renderViews(...a);
    },
  });
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', listTasks: async () => [], grader: async () => held, poolSize: 1 });
  services = createLabServices(ctx);
  const out = await dispatchCall(services.handlers, 'study.create', { name: 'Pilot', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', protocol: 'matched', order: 'fixed' });
  if (!out.ok) throw new Error(out.message);
  process.env.SPLATLAB_HOME = home;
  const io = { out: () => undefined, err: () => undefined };
  expect(await evalCommand.run(['--model', 'scripted:basic', '--tasks', 'test__sculpt', '--runs', '3', '--study', 'pilot', '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'], io)).toBe(0);
}, 240_000);

afterAll(async () => {
  if (oldHome === undefined) delete process.env.SPLATLAB_HOME;
  else process.env.SPLATLAB_HOME = oldHome;
  await services?.context.close();
  grader?.destroy();
});

function progressOf(): { events: LabEventData<'progress'>[]; off: () => void } {
  const events: LabEventData<'progress'>[] = [];
  const off = services.events.attach(DIRECT_CALLER, (event, data) => {
    if (event === 'progress') events.push(data as LabEventData<'progress'>);
  });
  return { events, off };
}

describe('study.analyses', () => {
  it('reports progress and stops when cancelled', async () => {
    const { events, off } = progressOf();
    let reached = (): void => undefined;
    let release = (): void => undefined;
    const atRender = new Promise<void>((r) => (reached = r));
    gate = { reached, wait: new Promise<void>((r) => (release = r)) };
    const run = dispatchCall(services.handlers, 'study.analyses', { studyId: 'pilot' });
    await atRender;
    // A second run of the same study is refused while this one runs.
    expect(await dispatchCall(services.handlers, 'study.analyses', { studyId: 'pilot' })).toMatchObject({ ok: false, message: "study.analyses: the analyses of study 'pilot' are already running" });
    expect(await dispatchCall(services.handlers, 'study.analysesCancel', { studyId: 'pilot' })).toEqual({ ok: true, result: { cancelled: true } });
    gate = null;
    release();
    expect(await run).toMatchObject({ ok: false, message: 'study.analyses: cancelled' });
    off();
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.task === 'analyses pilot')).toBe(true);
    const total = events[0].total;
    expect(total).toBe(3);
    // It stopped after the episode in flight: the last event is not the end.
    expect(Math.max(...events.map((e) => e.done))).toBeLessThan(total);
    expect(await dispatchCall(services.handlers, 'study.analysesCancel', { studyId: 'pilot' })).toEqual({ ok: true, result: { cancelled: false } });
  }, 240_000);

  it('run to the end, counts every episode', async () => {
    const { events, off } = progressOf();
    const out = await dispatchCall(services.handlers, 'study.analyses', { studyId: 'pilot' });
    off();
    expect(out).toMatchObject({ ok: true, result: { episodes: 3 } });
    expect(events.map((e) => e.done)).toEqual([0, 1, 2, 3]);
    expect(events.at(-1)?.message).toBe('3 episodes read');
  }, 240_000);
});
