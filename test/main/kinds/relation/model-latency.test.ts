// A model's relation reaction time is its latency (issue 36: model reaction times showed "median
// 0.00 s", the lab's time inside the call): from its observation (the previous call's finish) to
// its answer call's arrival. The lab's clock is vitest's fake Date, so the latencies are exact.
// Input: a two-trial block of the repository's relation trials, answered without rt_ms.
// Output: the trials as the study's tables read them (trialsOfTrajectory).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRelationTask, relationMain } from '../../../../src/main/kinds/relation/kind';
import { trialsOfTrajectory } from '../../../../src/main/kinds/relation/log-trials';
import { readTrajectory } from '../../../../src/main/env/trajectory';

const TRIALS = ['relation__bridge__tree-truck__ego', 'relation__forest__rock-fox__ego'];

afterEach(() => {
  vi.useRealTimers();
});

describe('a model\'s relation reaction times', () => {
  it('are its latencies from each observation to its answer, not the lab\'s time in the call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relation-latency-'));
    mkdirSync(join(dir, 'relation'));
    const trials = TRIALS.map((id) => {
      cpSync(join('tasks', 'relation', `${id}.json`), join(dir, 'relation', `${id}.json`));
      return (JSON.parse(readFileSync(join('tasks', `${id}.json`), 'utf8')) as { trials: unknown[] }).trials[0];
    });
    writeFileSync(join(dir, 'relation__block__m.json'), JSON.stringify({ task_id: 'relation__block__m', kind: 'relation', practice: false, trials, samples: 2, block: { fixation_ms: 500 } }));
    const task = loadRelationTask(dir, { task_id: 'relation__block__m', kind: 'relation' });
    const log = join(dir, 'model.jsonl');
    vi.useFakeTimers({ toFake: ['Date'] });
    let now = Date.parse('2026-12-05T10:00:00Z');
    vi.setSystemTime(now);
    const { env } = await relationMain.reset(task, { grader: null as never, protocol: 'agent', player: 'scripted:front', log });
    for (const wait of [1500, 2700]) {
      now += wait;
      vi.setSystemTime(now);
      await env.step({ tool: 'answer', args: { relation: 'front' } });
    }
    await env.close();
    vi.useRealTimers();
    const rows = trialsOfTrajectory(readTrajectory(log), task, 'model', 'scripted:front');
    expect(rows.map((r) => r.rtMs)).toEqual([1500, 2700]);
  });
});
