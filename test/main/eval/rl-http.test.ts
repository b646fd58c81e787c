// The RL protocol over HTTP: reset returns the first observation and the tool schemas, an
// invalid call costs a call, no reward before the end, and after submit the benchmark reward
// and the training reward (score + 50) / 150, both clipped, match the trajectory's end record.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRlServer, type RlServer } from '../../../src/main/eval/rl-http';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { testTasks } from '../env/fixtures';

const TOKEN = 'rl-test-token';
let server: RlServer;
let logDir: string;

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  logDir = mkdtempSync(join(tmpdir(), 'splatlab-rl-'));
  server = await startRlServer({ tasksDir, grader: async () => grader, logDir, version: '0' }, { token: TOKEN });
});
afterAll(() => server?.close());

async function post(path: string, body: unknown, token = TOKEN): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('RL HTTP protocol', () => {
  it('plays an episode to its terminal rewards', async () => {
    const reset = await post('/reset', { task_id: 'test__sculpt', player: 'trl-test' });
    expect(reset.status).toBe(200);
    const id = reset.json.episode_id as string;
    expect(reset.json.text).toMatch(/^Reference views: V0/);
    expect(typeof reset.json.image_png_base64).toBe('string');
    expect((reset.json.tools as { name: string }[]).map((t) => t.name)).toContain('add_gaussians');
    const bad = await post('/step', { episode_id: id, tool: 'add_gaussians', args: { gaussians: '[{"pos": [9, 0, 0], "color": "#fff"}]' } });
    expect(bad.json).toMatchObject({ error: true, done: false, reward: null, training_reward: null });
    expect((bad.json.budgets as { callsLeft: number }).callsLeft).toBe(39);
    await post('/step', { episode_id: id, tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#806040', scale: 0.25 }] } });
    expect((await post('/reward', { episode_id: id })).status).toBe(409);
    const end = await post('/step', { episode_id: id, tool: 'submit', args: {} });
    expect(end.json.done).toBe(true);
    const r = await post('/reward', { episode_id: id });
    const traj = readTrajectory(join(logDir, readdirSync(logDir)[0]));
    const score = traj.end?.score as number;
    expect(r.json.reward).toBeCloseTo(Math.min(1, Math.max(0, score / 100)), 12);
    expect(r.json.training_reward).toBeCloseTo(Math.min(1, Math.max(0, (score + 50) / 150)), 12);
    expect(traj.header).toMatchObject({ protocol: 'agent', player: 'trl-test' });
    expect((await post('/close', { episode_id: id })).json).toEqual({ closed: true });
    expect((await post('/step', { episode_id: id, tool: 'submit' })).status).toBe(404);
  });

  it('refuses a wrong token and bad bodies with one line', async () => {
    expect((await post('/reset', { task_id: 'test__sculpt' }, 'nope')).status).toBe(401);
    const r = await post('/reset', { task: 'x' });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatch(/task_id|Unrecognized/);
    expect((await post('/reset', { task_id: 'no__such' })).status).toBe(404);
  });

  it('refuses args nested past the LabApi depth before anything runs (issue 38)', async () => {
    const reset = await post('/reset', { task_id: 'test__sculpt', player: 'deep' });
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const res = await fetch(`${server.url}/step`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: `{"episode_id":${JSON.stringify(reset.json.episode_id)},"tool":"add_gaussians","args":${deep}}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("the request's params are nested deeper than 32 levels");
  });
});
