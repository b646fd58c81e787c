// The three model runners against a local scripted server per wire format: tool calls reach the
// environment (a broken call costs a call), images travel where each API takes them, a 429 and a
// 503 are retried without charging, and the run record holds tokens, cost, retries and version.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { EvalConfigSchema } from '../../../src/main/models/config';
import { runEpisode } from '../../../src/main/eval/episode';
import { metaPathOf } from '../../../src/main/models/meta';
import { makeClient, parseModelSpec } from '../../../src/main/models/spec';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { testTask, testTasks, tmpLog } from '../env/fixtures';
import { startWireServer, type PlannedCall, type Recorded, type Wire } from './wire-server';

const KEY = 'sk-test-secret-4242';
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

function plan(wire: Wire): PlannedCall[][] {
  const add = { name: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#806040', scale: 0.2 }] } };
  const broken: PlannedCall = wire === 'anthropic' ? { name: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#cacc cb' }] } } : { name: 'add_gaussians', args: '{"gaussians": [' };
  return [[add, broken], [{ name: 'render_views', args: { views: [0] } }], [], [{ name: 'submit', args: {} }]];
}

const SPEC: Record<Wire, string> = { chat: 'openai-chat:wire-model@high', responses: 'openai-responses:wire-model@low', anthropic: 'anthropic:wire-model@medium' };

/** Where the render_views PNG went in the request that followed it. */
function imagePlacement(wire: Wire, body: Record<string, unknown>): string {
  const json = JSON.stringify(body);
  if (wire === 'anthropic') {
    const msgs = body.messages as { role: string; content: { type: string; content?: { type: string }[] }[] }[];
    const last = msgs[msgs.length - 1];
    return last.content.some((b) => b.type === 'tool_result' && b.content?.some((c) => c.type === 'image')) ? 'inside tool_result' : json.slice(0, 80);
  }
  const list = (wire === 'chat' ? body.messages : body.input) as { role?: string; type?: string; content?: { type: string }[] }[];
  const last = list[list.length - 1];
  const before = list[list.length - 2];
  const isResult = wire === 'chat' ? before.role === 'tool' : before.type === 'function_call_output';
  const img = wire === 'chat' ? 'image_url' : 'input_image';
  return last.role === 'user' && isResult && last.content?.some((c) => c.type === img) ? 'user message after the results' : json.slice(0, 80);
}

describe.each<Wire>(['chat', 'responses', 'anthropic'])('%s runner', (wire) => {
  it('plays an episode against a scripted server', async () => {
    const server = await startWireServer(wire, plan(wire));
    stop = server.close;
    const { grader } = await testTasks();
    const task = await testTask('test__sculpt');
    const config = EvalConfigSchema.parse({
      providers: { openai: { base_url: `${server.url}/v1`, api_key_env: 'WIRE_KEY' }, anthropic: { base_url: server.url, api_key_env: 'WIRE_KEY' } },
      prices: { 'wire-model': { input_per_mtok: 2, output_per_mtok: 10 } },
      retry: { max: 3, base_ms: 1 },
    });
    const spec = parseModelSpec(SPEC[wire], wire === 'chat' ? 0.5 : null);
    const log = tmpLog('wire.jsonl');
    const meta = await runEpisode({ jobId: `job-${wire}`, task, run: 1, spec, log }, { grader, config, client: () => makeClient(spec, config, { WIRE_KEY: KEY }) });

    const reqs: Recorded[] = server.requests;
    expect(reqs).toHaveLength(6);
    expect(reqs[0].path).toBe(wire === 'chat' ? '/v1/chat/completions' : wire === 'responses' ? '/v1/responses' : '/v1/messages');
    expect(wire === 'anthropic' ? reqs[0].headers['x-api-key'] : reqs[0].headers.authorization).toBe(wire === 'anthropic' ? KEY : `Bearer ${KEY}`);
    expect(JSON.stringify(reqs[0].body)).toContain('Reference views: V0');
    expect(imagePlacement(wire, reqs[4].body)).toBe(wire === 'anthropic' ? 'inside tool_result' : 'user message after the results');
    expect(JSON.stringify(reqs[4].body)).toContain('data' + (wire === 'anthropic' ? '":"' : ':image/png;base64,'));
    expect(JSON.stringify(reqs[3].body)).toMatch(/ERROR/);
    expect(JSON.stringify(reqs[5].body)).toContain('Please continue by calling one of the tools');
    if (wire === 'chat') expect(reqs[1].body).toMatchObject({ temperature: 0.5, reasoning_effort: 'high' });
    if (wire === 'responses') expect(reqs[1].body).toMatchObject({ reasoning: { effort: 'low' }, store: false });
    if (wire === 'anthropic') expect(reqs[1].body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 } });

    const traj = readTrajectory(log);
    expect(traj.steps.map((s) => s.tool)).toEqual(['reset', 'add_gaussians', 'add_gaussians', 'render_views', 'submit']);
    expect(traj.steps[2].text).toMatch(/^ERROR/);
    expect(traj.end?.calls_used).toBe(4);
    expect(traj.header?.protocol).toBe('agent');

    expect(meta).toMatchObject({ status: 'done', turns: 4, idle_turns: 1, invalid_calls: 1, retries: 2, model_version: 'wire-model-2026-01-01', input_tokens: 4006, output_tokens: 406, attempts: 1 });
    expect(meta.cost_usd).toBeCloseTo((4006 * 2 + 406 * 10) / 1e6, 12);
    expect(meta.effort).toBe(spec.effort);
    for (const file of [log, metaPathOf(log)]) expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  });
});

describe('model spec', () => {
  it('refuses a bad spec and a missing key with one line', () => {
    expect(() => parseModelSpec('gpt-5')).toThrow(/PROVIDER:MODEL/);
    expect(() => parseModelSpec('foo:bar')).toThrow(/unknown provider/);
    expect(() => makeClient(parseModelSpec('anthropic:x'), EvalConfigSchema.parse({}), {})).toThrow(/ANTHROPIC_API_KEY is not set/);
  });
});
