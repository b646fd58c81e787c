// The embedded queue: `splatlab eval` with the scripted model runs every (task, run) once, a
// rerun finds everything finished, and an episode whose model broke mid-run is resumed from its
// log (same file, steps continued, one end record, totals carried over); a partial log counts as
// an attempt even when its meta was never written.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { command } from '../../../src/main/cli/commands/eval';
import { ScriptedClient } from '../../../src/main/models/clients/scripted';
import type { ModelClient } from '../../../src/main/models/clients/types';
import { EvalConfigSchema } from '../../../src/main/models/config';
import { logState, runEpisode } from '../../../src/main/eval/episode';
import { readMeta, metaPathOf } from '../../../src/main/models/meta';
import { parseModelSpec } from '../../../src/main/models/spec';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { jobIdOf, matchTasks, planJobs } from '../../../src/main/queue/plan';
import { testTask, testTasks } from '../env/fixtures';

/** A scripted model whose API fails for good after `turns` turns. */
function breaking(turns: number): ModelClient {
  const inner = new ScriptedClient('basic');
  let n = 0;
  return {
    start: (...a) => inner.start(...a),
    results: (r) => inner.results(r),
    say: (t) => inner.say(t),
    next: async () => {
      if (n++ >= turns) throw new Error('API down');
      return { ...(await inner.next()), inputTokens: 10, outputTokens: 1 };
    },
  };
}

/** An episode of test__sculpt whose model broke after one turn: its log is partial. */
async function brokenEpisode() {
  const { grader } = await testTasks();
  const task = await testTask('test__sculpt');
  const log = join(mkdtempSync(join(tmpdir(), 'splatlab-resume-')), 'ep.jsonl');
  const config = EvalConfigSchema.parse({});
  const job = { jobId: 'j', task, run: 1, spec: parseModelSpec('scripted:basic'), log };
  await expect(runEpisode(job, { grader, config, client: () => breaking(1) })).rejects.toThrow('API down');
  return { grader, config, job, log };
}

describe('embedded eval', () => {
  it('plans deterministic jobs and matches task globs', () => {
    const spec = parseModelSpec('openai-chat:m@high', 0.2);
    expect(jobIdOf('a__sculpt', spec, 2)).toBe('a__sculpt__openai-chat-m__effort=high_temp=0.2__r2');
    expect(planJobs(['a'], spec, 2, '/r').map((j) => j.log)).toEqual(['/r/openai-chat-m__effort=high_temp=0.2/a__r1.jsonl', '/r/openai-chat-m__effort=high_temp=0.2/a__r2.jsonl']);
    expect(matchTasks('*__sculpt, robot__*', ['a__sculpt', 'robot__oneshot', 'b__oneshot'])).toEqual(['a__sculpt', 'robot__oneshot']);
  });

  it('runs each episode once and a rerun does nothing', async () => {
    const { tasksDir } = await testTasks();
    const results = mkdtempSync(join(tmpdir(), 'splatlab-eval-'));
    const argv = ['--model', 'scripted:basic', '--tasks', 'test__*', '--runs', '2', '--concurrency', '3', '--results', results, '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'];
    const out: string[] = [];
    expect(await command.run(argv, { out: (l) => out.push(l), err: () => undefined })).toBe(0);
    expect(out.join('\n')).toContain('6 episodes (0 finished, 0 to resume, 6 new)');
    expect(out.filter((l) => /: finished/.test(l))).toHaveLength(6);
    const again: string[] = [];
    expect(await command.run(argv, { out: (l) => again.push(l), err: () => undefined })).toBe(0);
    expect(again).toEqual([expect.stringContaining('6 episodes (6 finished, 0 to resume, 0 new)'), 'nothing to do']);
    await expect(command.run(['--model', 'scripted:basic', '--tasks', 'x', '--tasks-dir', tasksDir], { out: () => undefined, err: () => undefined })).rejects.toThrow(/--tasks-folder/);
    const oneshot = readTrajectory(join(results, 'scripted-basic__effort=default_temp=default', 'test__oneshot__r1.jsonl'));
    expect(oneshot.end?.calls_used).toBe(1);
  });

  it('resumes a broken episode from its log', async () => {
    const { grader, config, job, log } = await brokenEpisode();
    expect(logState(log)).toBe('partial');
    expect(readMeta(metaPathOf(log))).toMatchObject({ status: 'broken', error: 'API down', turns: 1, input_tokens: 10 });
    const meta = await runEpisode(job, { grader, config, client: () => breaking(5) });
    expect(meta).toMatchObject({ status: 'done', attempts: 2, input_tokens: 40 });
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { step?: number; type?: string; tool?: string });
    expect(lines.filter((l) => l.type === 'end')).toHaveLength(1);
    expect(lines.filter((l) => l.step !== undefined).map((l) => l.step)).toEqual([0, 1, 2, 3, 4]);
    expect(readTrajectory(log).end?.calls_used).toBe(4);
  });

  it('counts a partial log as an attempt when its runner died before the first meta write', async () => {
    const { grader, config, job, log } = await brokenEpisode();
    // A worker killed between the log's header (written by reset) and its first meta write.
    rmSync(metaPathOf(log));
    expect(logState(log)).toBe('partial');
    const meta = await runEpisode(job, { grader, config, client: () => breaking(5) });
    expect(meta).toMatchObject({ status: 'done', attempts: 2 });
  });
});
