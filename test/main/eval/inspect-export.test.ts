// `splatlab export inspect`: scripted eval runs (SplatBench on the test tasks, relation on a
// committed task) exported as Inspect AI eval logs (EvalLog version 2), with one sample per run
// holding the rebuilt messages and tool calls, the pluggable scorers' scores, model
// usage and the task's registry entry; a cap-truncated run says so as the sample's limit. That
// Inspect's own viewer opens them: test/e2e/inspect-viewer.e2e.ts.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run';
import { EvalConfigSchema } from '../../../src/main/models/config';
import { runEpisode } from '../../../src/main/eval/episode';
import { exportInspect, trajectoryFiles } from '../../../src/main/eval/inspect-export';
import { scorersFor } from '../../../src/main/eval/scorers';
import { makeClient, parseModelSpec } from '../../../src/main/models/spec';
import { loadAnyTask } from '../../../src/main/kinds/registry';
import { testTask, testTasks, tmpLog } from '../env/fixtures';

const COMMITTED = resolve(__dirname, '../../../tasks');

type Sample = { id: string; epoch: number; messages: { role: string; tool_calls?: { function: string }[] }[]; scores: Record<string, { value: number }>; metadata: Record<string, unknown>; limit: unknown; model_usage: Record<string, unknown> };

describe('Inspect export', () => {
  it('writes eval logs with one sample per run: messages, tool calls, scores, usage, the task entry', async () => {
    const { tasksDir, grader } = await testTasks();
    const dir = tmpLog('x').replace(/x$/, 'runs');
    mkdirSync(dir, { recursive: true });
    const spec = { ...parseModelSpec('scripted:random'), seed: 11 };
    const task = await testTask('test__sculpt');
    for (const [run, caps] of [[1, undefined], [2, { max_messages: 2 }]] as const) {
      const config = EvalConfigSchema.parse(caps ? { caps } : {});
      await runEpisode({ jobId: `j${run}`, task, run, spec, log: join(dir, `test__sculpt__r${run}.jsonl`) }, { grader, config, client: () => makeClient(spec, config, {}, run) });
    }
    const out = await exportInspect(trajectoryFiles(dir), { tasksDir, grader: async () => grader, version: '0.0.0-test' });
    expect(out.problems).toEqual([]);
    expect(out.logs).toHaveLength(1);
    const log = out.logs[0].log as { eval: { model: string; task: string }; results: { scores: { name: string }[] }; samples: Sample[]; status: string };
    expect((log as unknown as { version: number }).version).toBe(2);
    expect(log.status).toBe('success');
    expect(log.eval).toMatchObject({ model: 'scripted/random', task: 'splatlab/splatbench' });
    expect(log.results.scores.map((s) => s.name)).toEqual(['splatscore']);
    expect(log.samples.map((s) => [s.id, s.epoch])).toEqual([['test__sculpt', 1], ['test__sculpt', 2]]);
    for (const s of log.samples) {
      expect(s.messages[0].role).toBe('system');
      expect(s.messages.some((m) => m.role === 'assistant' && m.tool_calls?.length)).toBe(true);
      expect(typeof s.scores.splatscore.value).toBe('number');
      expect(s.metadata.task).toMatchObject({ id: 'test__sculpt', kind: 'sculpt', family: 'splatbench' });
      expect(Object.keys(s.model_usage)).toEqual(['scripted/random']);
    }
    expect(log.samples[1].limit).toEqual({ type: 'message', limit: 2 });
    expect(log.samples[1].metadata).toMatchObject({ ending: 'truncated', cap: 'max_messages' });
  }, 180_000);

  it('scores relation runs with the relation scorer, and the CLI writes the files', async () => {
    const { grader } = await testTasks();
    const dir = tmpLog('x').replace(/x$/, 'relation');
    mkdirSync(dir, { recursive: true });
    const spec = parseModelSpec('scripted:basic');
    const task = await loadAnyTask('relation__practice', { tasksDir: COMMITTED });
    const config = EvalConfigSchema.parse({});
    await runEpisode({ jobId: 'rel', task, run: 1, spec, log: join(dir, 'relation__practice__r1.jsonl') }, { grader, config, client: () => makeClient(spec, config, {}) });
    const outDir = join(dir, 'inspect');
    const r = await runCli('export', ['inspect', '--from', dir, '--out', outDir, '--tasks', COMMITTED]);
    expect(r.err.filter((l) => l.startsWith('left out'))).toEqual([]);
    expect(r.code).toBe(0);
    const files = readdirSync(outDir);
    expect(files).toHaveLength(1);
    const log = JSON.parse(readFileSync(join(outDir, files[0]), 'utf8')) as { samples: Sample[] };
    expect(log.samples[0].messages[0].role).toBe('system');
    const value = log.samples[0].scores.relation_accuracy.value;
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(1);
    // The per-trial rows the scorer attaches (docs/MUTATION.md, relation survivors).
    const trials = (log.samples[0].scores.relation_accuracy as { metadata?: { trials?: Record<string, unknown>[] } }).metadata?.trials ?? [];
    expect(trials.length).toBeGreaterThan(0);
    expect(trials.filter((t) => t.correct === true).length / trials.length).toBeCloseTo(value, 9);
    expect(Object.keys(trials[0]).sort()).toEqual(['answer', 'correct', 'rt_ms', 'trial', 'truth']);
    expect(scorersFor('relation').map((s) => s.name)).toEqual(['relation_accuracy']);
    expect(() => scorersFor('sculpt', ['nope'])).toThrow(/unknown scorer 'nope'/);
  }, 180_000);
});
