// A block's break is rest, not active time (issue 36 item 3): the page pauses the episode's clock
// while the break screen shows (RelationTrial.vue), so the log's active time leaves the break out
// and the next trial's server time runs from its image to its answer without the break. The lab's
// clock is simulated (vitest's fake Date): a 60 s break costs no wall time here.
// Input: a two-trial block of the repository's relation trials. Output: the log, read back.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRelationTask, relationMain } from '../../../../src/main/kinds/relation/kind';
import { readTrajectory } from '../../../../src/main/env/trajectory';
import { episodeTimes } from '../../../../src/shared/env/person-time';
import { RelationEndSchema } from '../../../../src/shared/kinds/relation/kind';

const TRIALS = ['relation__bridge__tree-truck__ego', 'relation__forest__rock-fox__ego'];

function blockTask(): string {
  const dir = mkdtempSync(join(tmpdir(), 'relation-break-'));
  mkdirSync(join(dir, 'relation'));
  const trials = TRIALS.map((id) => {
    cpSync(join('tasks', 'relation', `${id}.json`), join(dir, 'relation', `${id}.json`));
    return (JSON.parse(readFileSync(join('tasks', `${id}.json`), 'utf8')) as { trials: unknown[] }).trials[0];
  });
  writeFileSync(join(dir, 'relation__block__rest.json'), JSON.stringify({ task_id: 'relation__block__rest', kind: 'relation', practice: false, trials, samples: 2, block: { fixation_ms: 500, break_every: 1 } }));
  return dir;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a relation block with a 60 s break', () => {
  it('reports active time within 1 s of the answering time, and the next trial\'s server time without the break', async () => {
    const dir = blockTask();
    const task = loadRelationTask(dir, { task_id: 'relation__block__rest', kind: 'relation' });
    const log = join(dir, 'P01.jsonl');
    vi.useFakeTimers({ toFake: ['Date'] });
    let now = Date.parse('2026-12-04T10:00:00Z');
    vi.setSystemTime(now);
    const { env } = await relationMain.reset(task, { grader: null as never, protocol: 'matched', player: 'P01', log });
    const at = (ms: number) => {
      now += ms;
      vi.setSystemTime(now);
      return new Date(now).toISOString();
    };
    // Trial 1: answered 2 s after its image.
    at(2000);
    await env.step({ tool: 'answer', args: { relation: 'left', rt_ms: 1900 } });
    // The break screen before trial 2: the page pauses the clock for 60 s, then resumes.
    await env.mark({ type: 'time', event: 'pause', t: at(300) });
    await env.mark({ type: 'time', event: 'resume', t: at(60_000) });
    // Trial 2: answered 3 s after the break ends.
    at(3000);
    await env.step({ tool: 'answer', args: { relation: 'front', rt_ms: 2400 } });
    await env.close();
    vi.useRealTimers();

    const traj = readTrajectory(log);
    const end = RelationEndSchema.parse(traj.end);
    const answering = 2000 + 300 + 3000;
    const times = episodeTimes({ started: traj.header?.started ?? '', steps: traj.steps, times: traj.times, end: traj.end ?? { t: '' } });
    expect(times.clock.pausedMs).toBe(60_000);
    expect(Math.abs(times.activeMs - answering)).toBeLessThan(1000);
    // The image of trial 2 went out with the answer to trial 1; its server time leaves the break out.
    expect(end.trials[1].server_ms).toBeGreaterThanOrEqual(3000);
    expect(end.trials[1].server_ms).toBeLessThan(3300 + 1000);
  });
});
