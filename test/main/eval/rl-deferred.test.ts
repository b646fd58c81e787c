// The RL door with deferred grades (RlDeps.grades, as `splatlab rl` runs: docs/PERFORMANCE.md "MCP
// under load"): an edit is answered while its step's hidden grade is still held, and the end's
// reward waits for the exact final grade. Were the grade inline, the edit would wait at the held
// grader and the test would time out.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRlServer } from '../../../src/main/eval/rl-http';
import type { EnvGrader } from '../../../src/main/env/types';
import { deferredGrades } from '../../../src/main/workers/grade-queue';
import { testTasks } from '../env/fixtures';

const TOKEN = 'rl-deferred';

async function heldServer(deferred: boolean): Promise<{ post: (path: string, body: unknown) => Promise<Record<string, unknown>>; release: () => void; close: () => Promise<void> }> {
  const { tasksDir, grader } = await testTasks();
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const held = { ...grader, grade: async (t, s, o) => { await gate; return grader.grade(t, s, o); }, compareViews: grader.compareViews.bind(grader), renderViews: grader.renderViews.bind(grader) } as EnvGrader;
  const logDir = mkdtempSync(join(tmpdir(), 'splatlab-rl-deferred-'));
  const server = await startRlServer({ tasksDir, grader: async () => held, logDir, version: '0', ...(deferred ? { grades: deferredGrades() } : {}) }, { token: TOKEN });
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as Record<string, unknown>;
  };
  return { post, release, close: () => server.close() };
}

const add = { tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#a05030', scale: 0.2 }] } };

describe('RL with deferred hidden grades', () => {
  it('answers an edit while its grade is held; the reward comes after the final grade', async () => {
    const s = await heldServer(true);
    try {
      const reset = await s.post('/reset', { task_id: 'test__sculpt' });
      const episode_id = reset.episode_id as string;
      const step = await s.post('/step', { episode_id, ...add });
      expect(step.outcome).toEqual({ status: 'ok', code: 'ok' });
      const end = s.post('/step', { episode_id, tool: 'submit', args: {} });
      s.release();
      const out = await end;
      expect(out.done).toBe(true);
      expect(typeof out.reward).toBe('number');
    } finally {
      s.release();
      await s.close();
    }
  });
});
