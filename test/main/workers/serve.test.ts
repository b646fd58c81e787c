// Work that does not block, on a live `splatlab serve` (issue #18 item 4): while one client's long
// debugger render is in flight (on the worker pool), another client's add_gaussians is answered;
// the render can be cancelled from the client (debug.cancel) and reports progress. The asserts
// are on ordering and completion, never on wall-clock thresholds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TASK_IDS } from '../../helpers/test-task';
import { testTasks } from '../env/fixtures';
import { startLiveServer, type LiveServer } from '../security/live-server';
import { openClient, type LabClient } from './ws-client';

let server: LiveServer;
let debuggerClient: LabClient;
let player: LabClient;
let sessionId: string;

beforeAll(async () => {
  const { tasksDir } = await testTasks();
  server = await startLiveServer(tasksDir);
  debuggerClient = await openClient(server);
  player = await openClient(server);
  sessionId = (await debuggerClient.call<{ sessionId: string }>('debug.open', { source: { kind: 'task', taskId: TEST_TASK_IDS.sculpt, scene: 'fit' } })).sessionId;
}, 120_000);

afterAll(async () => {
  debuggerClient?.close();
  player?.close();
  await server?.stop();
});

/** A debugger view large enough to take a long time on the CPU reference. */
const bigView = (azimuth: number) => ({ sessionId, camera: { kind: 'orbit', azimuth, elevation: 20, width: 768, height: 768 }, view: 'count' });
const isRenderProgress = (event: string, data: Record<string, unknown>): boolean => event === 'progress' && data.task === `debug ${sessionId}`;

describe('a long debugger render does not hold up other clients', () => {
  it("answers another client's add_gaussians while the render is in flight", async () => {
    const { episodeId } = await player.call<{ episodeId: string }>('episode.start', { taskId: TEST_TASK_IDS.sculpt });
    const order: string[] = [];
    const started = debuggerClient.event(isRenderProgress);
    const render = debuggerClient.call('debug.view', bigView(10)).then(() => order.push('render'));
    // The render reports progress from its worker before it ends (it is in flight now).
    expect(await Promise.race([started.then(() => 'progress'), render.then(() => 'ended')])).toBe('progress');
    const step = await player.call<{ text: string }>('episode.step', { episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.1, color: [0.8, 0.2, 0.2] }] } });
    order.push('add_gaussians');
    expect(step.text).toMatch(/added|1 gaussian/i);
    await render;
    expect(order).toEqual(['add_gaussians', 'render']);
    await player.call('episode.close', { episodeId });
  }, 120_000);

  it('cancels a render in flight from the client, and the session goes on', async () => {
    const started = debuggerClient.event(isRenderProgress);
    const render = debuggerClient.call('debug.view', bigView(50));
    const outcome = render.then(
      () => 'finished',
      (e: Error) => e.message,
    );
    expect(await Promise.race([started.then(() => 'progress'), outcome])).toBe('progress');
    expect(await debuggerClient.call('debug.cancel', { sessionId })).toEqual({ cancelled: true });
    expect(await outcome).toBe('debug.view: cancelled');
    const small = await debuggerClient.call<{ width: number }>('debug.view', { sessionId, camera: { kind: 'orbit', azimuth: 50, elevation: 20, width: 64, height: 64 }, view: 'rgb' });
    expect(small.width).toBe(64);
  }, 120_000);
});
