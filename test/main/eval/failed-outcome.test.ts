// The `failed` outcome: when the lab cannot carry out a valid call (here the grader's render
// throws), the RL reply is the one error line with outcome {status: failed}, not a 500, and the
// episode goes on; the Anthropic runner's is_error comes from the outcome, not from the text.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../../src/main/models/clients/anthropic';
import { startRlServer } from '../../../src/main/eval/rl-http';
import type { EnvGrader } from '../../../src/main/env/types';
import { testTasks } from '../env/fixtures';

describe('failed outcomes', () => {
  it('a call the lab fails is answered with outcome failed and the episode goes on', async () => {
    const { tasksDir, grader } = await testTasks();
    const broken: EnvGrader = {
      renderViews: (s, c) => grader.renderViews(s, c),
      compareViews: async () => {
        throw new Error('device lost');
      },
      grade: (t, s) => grader.grade(t, s),
    };
    const server = await startRlServer({ tasksDir, grader: async () => broken, logDir: mkdtempSync(join(tmpdir(), 'splatlab-failed-')), version: '0' }, { token: 't' });
    const post = async (path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    try {
      const reset = await post('/reset', { task_id: 'test__sculpt' });
      const id = reset.json.episode_id;
      const failed = await post('/step', { episode_id: id, tool: 'render_views', args: { views: [0] } });
      expect(failed.status).toBe(200);
      expect(failed.json).toMatchObject({ error: true, outcome: { status: 'failed', code: 'failed' }, done: false });
      expect(failed.json.text).toMatch(/^ERROR: the lab could not carry out render_views: device lost\n\[0\/300 Gaussians/);
      const next = await post('/step', { episode_id: id, tool: 'describe_groups', args: {} });
      expect(next.json).toMatchObject({ error: false, outcome: { status: 'ok' } });
    } finally {
      await server.close();
    }
  }, 60_000);

  it("the Anthropic runner's is_error follows the outcome, whatever the text says", () => {
    const c = new AnthropicClient('http://127.0.0.1:1', null, { model: 'm', effort: null, temperature: null, maxOutputTokens: 10 }, { max: 0, baseMs: 1 });
    c.start('sys', 'first', undefined, []);
    c.results([{ id: 'a', text: 'ERROR: looks like an error but is not', isError: false }, { id: 'b', text: 'Fine text', isError: true }]);
    const msgs = (c.snapshot() as { messages: { content: { tool_use_id: string; is_error?: boolean }[] }[] }).messages;
    const blocks = msgs[msgs.length - 1].content;
    expect(blocks.map((b) => [b.tool_use_id, b.is_error ?? false])).toEqual([['a', false], ['b', true]]);
  });
});
