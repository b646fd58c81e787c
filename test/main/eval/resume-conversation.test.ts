// A resumed model episode continues its conversation (src/main/eval/conversation.ts): an attempt
// that broke after two turns is rerun, and the next request the model gets holds the earlier
// messages and tool results, not a fresh start from a note; a conversation saved after other
// calls than the log holds is not used (the resume note is).
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelClient } from '../../../src/main/models/clients/types';
import { EvalConfigSchema } from '../../../src/main/models/config';
import { conversationPathOf } from '../../../src/main/eval/conversation';
import { runEpisode } from '../../../src/main/eval/episode';
import { makeClient, parseModelSpec } from '../../../src/main/models/spec';
import { testTask, testTasks, tmpLog } from '../env/fixtures';
import { startWireServer } from './wire-server';

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const add = { name: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#806040', scale: 0.2 }] } };

/** The first attempt's client dies on its third turn, as an API outage would break the episode. */
function breaking(inner: ModelClient): ModelClient {
  let turns = 0;
  return {
    start: (...a) => inner.start(...a),
    next: async () => {
      if (++turns === 3) throw new Error('the API went away');
      return inner.next();
    },
    results: (r) => inner.results(r),
    say: (t) => inner.say(t),
    snapshot: () => inner.snapshot?.(),
    restore: (s) => inner.restore?.(s) ?? false,
  };
}

async function brokenThenResumed(tamper: boolean): Promise<{ messages: { role: string }[]; resumed: boolean | undefined }> {
  const server = await startWireServer('chat', [[add], [{ name: 'describe_groups', args: {} }], [{ name: 'submit', args: {} }]]);
  stop = server.close;
  const { grader } = await testTasks();
  const task = await testTask('test__sculpt');
  const config = EvalConfigSchema.parse({ providers: { openai: { base_url: `${server.url}/v1` } }, retry: { max: 3, base_ms: 1 } });
  const spec = parseModelSpec('openai-chat:wire-model');
  const log = tmpLog('resume.jsonl');
  const job = { jobId: 'resume', task, run: 1, spec, log };
  await expect(runEpisode(job, { grader, config, client: () => breaking(makeClient(spec, config, {})) })).rejects.toThrow('the API went away');
  if (tamper) {
    const saved = JSON.parse(readFileSync(conversationPathOf(log), 'utf8')) as { steps: number };
    writeFileSync(conversationPathOf(log), JSON.stringify({ ...saved, steps: saved.steps - 1 }));
  }
  const before = server.requests.length;
  const meta = await runEpisode(job, { grader, config, client: () => makeClient(spec, config, {}) });
  expect(meta.status).toBe('done');
  const next = server.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'));
  return { messages: (next?.body.messages ?? []) as { role: string }[], resumed: meta.resumed_conversation };
}

describe('resumed model episodes', () => {
  it('continue the saved conversation', async () => {
    const r = await brokenThenResumed(false);
    expect(r.resumed).toBe(true);
    // system, first observation, then two turns of assistant call + tool result.
    expect(r.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
  }, 60_000);

  it('start from the resume note when the saved conversation is not of the logged calls', async () => {
    const r = await brokenThenResumed(true);
    expect(r.resumed).toBe(false);
    expect(r.messages.map((m) => m.role)).toEqual(['system', 'user']);
  }, 60_000);
});
