// Exactly-once calls over a real `splatlab serve` WebSocket (issue #29 item 2, docs/SECURITY.md):
// a client whose connection is killed in the middle of each of 100 calls reconnects, asks
// episode.result for the call's request id and sends it again only when the lab never received
// it. At the end: 0 double charges (each request id is in the log once, the calls used equal the
// calls made, the scene holds exactly one Gaussian per call) and 0 calls of unknown outcome.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readTrajectory } from '../../../src/main/env/trajectory';
import type { EnvGrader } from '../../../src/main/env/types';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import { createLabContext } from '../../../src/main/services/context';
import { createLabServices } from '../../../src/main/services/lab';
import { startServer, type LabServer } from '../../../src/main/transport/ws';
import type { EpisodeStepResult } from '../../../src/shared/api/episode';
import { TEST_TASK_IDS } from '../../helpers/test-task';
import { testTasks } from '../env/fixtures';

const CALLS = 100;
const grader: EnvGrader = {
  grade: async () => ({ score: 1, psnr: 1, ssim: 0, lpips: null, iou: 0, reward: 0.01, trainingReward: 0.34, lpipsMissing: true }),
  compareViews: async () => [],
  renderViews: async () => [],
};

let server: LabServer;
let episodes: EpisodeManager;

beforeAll(async () => {
  const { tasksDir } = await testTasks();
  // The test task with room for every call of the run.
  const spec = JSON.parse(readFileSync(join(tasksDir, `${TEST_TASK_IDS.sculpt}.json`), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(tasksDir, 'test__long.json'), JSON.stringify({ ...spec, task_id: 'test__long', max_tool_calls: CALLS + 10, max_gaussians: CALLS + 10 }));
  const home = mkdtempSync(join(tmpdir(), 'splatlab-once-'));
  episodes = new EpisodeManager({ tasksDir, home, grader: async () => grader });
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: 'CPU', summary: 'test' } }, tasksDir, home, version: '0.0.0-test', transport: 'ws', episodes, poolSize: 1 });
  const ui = mkdtempSync(join(tmpdir(), 'splatlab-ui-'));
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>SplatLab</title>');
  server = await startServer(createLabServices(ctx), { uiRoot: ui });
});
afterAll(() => server?.close());

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/lab?token=${server.token}`);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

let nextId = 1;
type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

/** One call on an open socket and its reply (rejects when the socket goes first). */
function call(ws: WebSocket, method: string, params: unknown): Promise<Reply> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const reply = JSON.parse(data.toString()) as Reply & { id: number };
      if (reply.id !== id) return;
      ws.off('message', onMessage);
      resolve(reply);
    };
    ws.on('message', onMessage);
    ws.once('close', () => reject(new Error('connection closed')));
    ws.send(JSON.stringify({ id, method, params }));
  });
}

/** A call answered on a fresh connection, waiting out `in_use` while the killed one is let go. */
async function settled(method: string, params: unknown): Promise<unknown> {
  for (;;) {
    const ws = await connect();
    const reply = await call(ws, method, params);
    ws.close();
    if (reply.ok) return reply.result;
    if (reply.error.code !== 'in_use') throw new Error(`${method}: ${reply.error.message}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A masked client text frame of `text` (RFC 6455 section 5.2), to send part of it by hand. */
function frame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
  return Buffer.concat([head, mask, payload.map((b, i) => b ^ mask[i % 4])]);
}

/**
 * Kills a socket at one of several moments of a call: halfway through its frame (the lab never
 * gets the call), right after it, a tick later, a few milliseconds later.
 */
async function killDuring(ws: WebSocket, i: number, params: unknown): Promise<void> {
  const when = i % 4;
  if (when === 0) {
    const bytes = frame(JSON.stringify({ id: nextId++, method: 'episode.step', params }));
    const socket = (ws as unknown as { _socket: { write(b: Buffer): void } })._socket;
    socket.write(bytes.subarray(0, bytes.length >> 1));
    await new Promise((r) => setTimeout(r, 1));
    ws.terminate();
    return;
  }
  void call(ws, 'episode.step', params).catch(() => undefined);
  if (when === 1) await new Promise((r) => setImmediate(r));
  else if (when === 2) await new Promise((r) => setTimeout(r, 1));
  else await new Promise((r) => setTimeout(r, 1 + (i % 7)));
  ws.terminate();
}

describe('exactly-once calls over the WebSocket', () => {
  it(`kills the connection during each of ${CALLS} calls: no double charge, no unknown outcome`, async () => {
    const start = (await settled('episode.start', { taskId: 'test__long', protocol: 'free' })) as { episodeId: string };
    const episodeId = start.episodeId;
    const outcomes = new Map<string, EpisodeStepResult>();
    let resent = 0;
    let recalled = 0;
    for (let i = 0; i < CALLS; i++) {
      const requestId = `kill-${i}`;
      const params = { episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0.001 * i, 0, 0], color: '#808080' }] }, requestId };
      const ws = await connect();
      await killDuring(ws, i, params);
      // The reply is lost: ask for it; only a call the lab never received is sent again.
      let result = (await settled('episode.result', { episodeId, requestId })) as EpisodeStepResult | null;
      if (result) recalled += 1;
      else {
        resent += 1;
        result = (await settled('episode.step', params)) as EpisodeStepResult;
      }
      outcomes.set(requestId, result);
    }
    expect(outcomes.size).toBe(CALLS); // every call's outcome is known
    // Each request id charged once, in order: step i+1 is call i, the answers agree with the log.
    const steps = [...outcomes.values()].map((r) => r.step);
    expect(steps).toEqual(Array.from({ length: CALLS }, (_, i) => i + 1));
    const snapshot = (await settled('episode.get', { episodeId })) as { scene: unknown[]; budgets: { callsLeft: number; maxToolCalls: number } };
    expect(snapshot.scene).toHaveLength(CALLS);
    expect(snapshot.budgets.maxToolCalls - snapshot.budgets.callsLeft).toBe(CALLS);
    const log = readTrajectory(episodes.info(episodeId).logPath);
    const ids = log.steps.slice(1).map((s) => s.request_id);
    expect(ids).toEqual(Array.from({ length: CALLS }, (_, i) => `kill-${i}`));
    // Both paths were taken: some calls had reached the lab (recalled), some had not (sent again).
    expect(recalled).toBeGreaterThan(0);
    expect(resent).toBeGreaterThan(0);
    // A retry of a call that was answered is the stored result, charged nothing.
    const again = (await settled('episode.step', { episodeId, tool: 'add_gaussians', args: { gaussians: [] }, requestId: 'kill-0' })) as EpisodeStepResult;
    expect(again.recalled).toBe(true);
    expect(again.step).toBe(1);
    expect(((await settled('episode.get', { episodeId })) as { scene: unknown[] }).scene).toHaveLength(CALLS);
  }, 120_000);

  it('answers a number no tool can use as bad_request before anything is charged', async () => {
    const start = (await settled('episode.start', { taskId: 'test__long', protocol: 'free' })) as { episodeId: string };
    const ws = await connect();
    for (const text of ['1e400', '1e308', '-1e300']) {
      const raw = `{"id":${nextId++},"method":"episode.step","params":{"episodeId":"${start.episodeId}","tool":"render_angle","args":{"azimuth":${text},"elevation":0}}}`;
      const reply = await new Promise<Reply>((resolve) => {
        ws.once('message', (d) => resolve(JSON.parse(d.toString()) as Reply));
        ws.send(raw);
      });
      expect(reply.ok).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('bad_request');
    }
    ws.close();
    const snap = (await settled('episode.get', { episodeId: start.episodeId })) as { budgets: { callsLeft: number; maxToolCalls: number; rendersLeft: number; maxRenders: number } };
    expect(snap.budgets.callsLeft).toBe(snap.budgets.maxToolCalls);
    expect(snap.budgets.rendersLeft).toBe(snap.budgets.maxRenders);
  });
});
