// Deferred hidden grades coalesced to an episode's latest scene (SplatEnvOptions
// coalesceHiddenGrades, the agent doors' setting: docs/PERFORMANCE.md "MCP under load"): edits made
// while the episode's grade waits in the queue join it, so the queue holds one grade per episode;
// the grade that runs is of the latest scene under its step, the calls are answered before any
// grade, and the end record's score is still the exact final grade.
import { describe, expect, it } from 'vitest';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import type { EnvGrader } from '../../../src/main/env/types';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { packRecords } from '../../../src/shared/scene/records';
import { CallActivity, GradeQueue } from '../../../src/main/workers/grade-queue';
import { fakeImages, testTask, testTasks, tmpLog } from './fixtures';

async function play(coalesce: boolean): Promise<{ hiddenSteps: number[]; grades: number; endScore: number | undefined; lastScore: number | undefined; inline: number }> {
  const task = await testTask('test__sculpt');
  const { grader } = await testTasks();
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  let grades = 0;
  const slow = { ...grader, grade: async (t, s) => { grades += 1; await gate; return grader.grade(t, s); }, compareViews: grader.compareViews.bind(grader), renderViews: grader.renderViews.bind(grader) } as EnvGrader;
  const log = tmpLog(`coalesce-${coalesce}.jsonl`);
  const { env } = await SplatEnv.reset(task, { grader: slow, images: fakeImages, log, deferHiddenGrades: new GradeQueue(new CallActivity()), coalesceHiddenGrades: coalesce });
  for (const x of [-0.2, 0, 0.2]) {
    const out = await env.step({ tool: 'add_gaussians', args: { gaussians: [{ pos: [x, 0, 0], scale: 0.1, color: [1, 0, 0] }] } });
    expect(out.text).toMatch(/Added/); // answered while every grade is held at the gate
  }
  release();
  await env.settled();
  const inline = (await grader.grade(task, packRecords(env.state()))).score;
  const graded = readTrajectory(log);
  expect(graded.badLines).toEqual([]);
  const hidden = graded.steps.filter((s) => s.hidden !== undefined);
  const before = grades;
  await env.step({ tool: 'submit' });
  env.close();
  return { hiddenSteps: hidden.map((s) => s.step), grades: before, endScore: readTrajectory(log).end?.score, lastScore: hidden.at(-1)?.hidden?.score, inline };
}

describe('coalesced hidden grades', () => {
  it('grade the latest scene once per queued grade, under its step; the end is exact', async () => {
    const c = await play(true);
    // Step 0's grade started at once (nothing else queued); steps 1-3 waited as one grade of step 3.
    expect(c.hiddenSteps).toEqual([0, 3]);
    expect(c.grades).toBe(2);
    expect(c.lastScore).toBe(c.inline);
    expect(c.endScore).toBe(c.inline);
  });

  it('without coalescing every edit is graded', async () => {
    const p = await play(false);
    expect(p.hiddenSteps).toEqual([0, 1, 2, 3]);
    expect(p.grades).toBe(4);
    expect(p.endScore).toBe(p.inline);
  });
});
