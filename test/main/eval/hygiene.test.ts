// Config and process hygiene (docs/AGENTS.md "splatlab eval on one machine", issue 27 item 7):
// a config naming only a loopback base_url needs no key; an inline api_key is refused by name;
// a missing key is reported once when the run starts, before any episode; the one-shot start text
// says that any call ends the episode (and a refused call does); the header's start is step 0's
// time. Killing npx ends the server: test/main/cli/orphan-npx.test.ts.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadEvalConfig } from '../../../src/main/models/config';
import { checkKey, makeClient, parseModelSpec } from '../../../src/main/models/spec';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { runCli } from '../cli/run';
import { fakeImages, testTask, testTasks, tmpLog } from '../env/fixtures';

const TASKS = resolve(__dirname, '../../../tasks');

function configFile(body: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'splatlab-config-')), 'config.json');
  writeFileSync(path, JSON.stringify(body));
  return path;
}

describe('eval config', () => {
  it('a loopback base_url is a whole config and needs no key', () => {
    for (const url of ['http://127.0.0.1:8000/v1', 'http://localhost:11434/v1', 'http://[::1]:8000/v1']) {
      const config = loadEvalConfig(configFile({ providers: { openai: { base_url: url } } }));
      expect(checkKey(parseModelSpec('openai-chat:qwen3-vl'), config, {})).toEqual({ base_url: url, api_key_env: 'OPENAI_API_KEY' });
      expect(() => makeClient(parseModelSpec('openai-responses:qwen3-vl'), config, {})).not.toThrow();
    }
    // A remote URL needs its variable, named in the message.
    const remote = loadEvalConfig(configFile({ providers: { anthropic: { base_url: 'https://api.example.com', api_key_env: 'MY_KEY' } } }));
    expect(() => checkKey(parseModelSpec('anthropic:claude-x'), remote, {})).toThrow(/^MY_KEY is not set \(/);
    expect(checkKey(parseModelSpec('anthropic:claude-x'), remote, { MY_KEY: 'k' }).api_key_env).toBe('MY_KEY');
  });

  it('refuses an inline api_key by name', () => {
    const path = configFile({ providers: { openai: { base_url: 'http://127.0.0.1:8000/v1', api_key: 'sk-secret' } } });
    expect(() => loadEvalConfig(path)).toThrow(`eval config ${path}: providers.openai.api_key: an inline API key is not allowed`);
    let message = '';
    try {
      loadEvalConfig(path);
    } catch (e) {
      message = (e as Error).message;
    }
    // One line, and the key itself is never echoed.
    expect(message).not.toContain('\n');
    expect(message).not.toContain('sk-secret');
  });
});

describe('a missing key', () => {
  const saved = process.env.OPENAI_API_KEY;
  beforeEach(() => {
    delete process.env.OPENAI_API_KEY;
  });
  afterEach(() => {
    if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
  });

  it('is reported once when the run starts, not per episode', async () => {
    const results = mkdtempSync(join(tmpdir(), 'splatlab-nokey-'));
    const r = await runCli('eval', ['--model', 'openai-chat:gpt-x', '--tasks', '*__sculpt,*__oneshot', '--runs', '3', '--results', results, '--tasks-folder', TASKS, '--device', 'cpu', '--no-lpips']);
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^OPENAI_API_KEY is not set \(the API key for https:\/\/api\.openai\.com\/v1 comes from the environment only; a loopback base_url needs none\)$/);
    // No episode was planned or started: nothing printed, no log written.
    expect(r.out).toEqual([]);
    expect(existsSync(results) ? readdirSync(results) : []).toEqual([]);
  }, 60_000);
});

describe('the start of an episode', () => {
  it('a one-shot start text says any call ends the episode, and a refused call does', async () => {
    const { grader } = await testTasks();
    const task = await testTask('test__oneshot');
    const { env, obs } = await SplatEnv.reset(task, { grader, images: fakeImages, gradeEachStep: false });
    expect(obs.text).toContain('Any call ends the episode, even one that is refused');
    const out = await env.step({ tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0] }] } });
    expect(out.info.outcome.status).toBe('refused');
    expect(out.done).toBe(true);
  }, 60_000);

  it("the header's start is step 0's time, though the first grade runs between", async () => {
    const { grader } = await testTasks();
    const task = await testTask('test__sculpt');
    const log = tmpLog('started.jsonl');
    const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, log, gradeEachStep: true });
    await env.step({ tool: 'submit', args: {} });
    const t = readTrajectory(log);
    expect(t.header?.started).toBe(t.steps[0].t);
  }, 60_000);
});
