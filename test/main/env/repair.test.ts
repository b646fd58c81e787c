// Logs damaged by an older version (#11 item 4): a repeated step (two writers) or a charged call
// that was never logged (a gap) stops a resume with a message naming `splatlab repair`; repair
// keeps the valid prefix (the original is kept beside it) and the episode then resumes from it;
// a clean log is left alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import { diagnoseLog, repairLog } from '../../../src/main/episodes/repair';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { fakeImages, testTask, testTasks, tmpLog } from './fixtures';

const add = (x: number) => ({ tool: 'add_gaussians', args: { gaussians: [{ pos: [x, 0, 0], scale: 0.1, color: [1, 0, 0], opacity: 0.8 }] } });

async function fourCallLog(): Promise<string> {
  const { grader } = await testTasks();
  const task = await testTask('test__sculpt');
  const log = tmpLog('damaged.jsonl');
  const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, log });
  for (const x of [0.1, 0.2, 0.3, 0.4]) await env.step(add(x));
  await env.close();
  return log;
}

describe('damaged logs', () => {
  it('a repeated step is found, repaired to the valid prefix, and the episode resumes from it', async () => {
    const { grader } = await testTasks();
    const task = await testTask('test__sculpt');
    const log = await fourCallLog();
    expect(diagnoseLog(log, task).damage).toBeNull();
    expect(repairLog(log, task).backup).toBeNull();

    // A second writer repeated step 3 after it.
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const step3 = lines.findIndex((l) => (JSON.parse(l) as { step?: number }).step === 3);
    const damaged = [...lines.slice(0, step3 + 1), lines[step3], ...lines.slice(step3 + 1)];
    writeFileSync(log, `${damaged.join('\n')}\n`);
    await expect(SplatEnv.reset(task, { grader, images: fakeImages, resumeFrom: log })).rejects.toThrow(/step 3 follows step 3/);

    const d = diagnoseLog(log, task);
    expect(d).toMatchObject({ validSteps: 3, line: step3 + 2 });
    expect(d.damage).toMatch(/step 3 follows step 3/);
    const r = repairLog(log, task, new Date('2026-12-01T12:00:00Z'));
    expect(r.backup).toBe(`${log}.damaged-20261201T120000Z`);
    expect(readFileSync(r.backup ?? '', 'utf8')).toBe(`${damaged.join('\n')}\n`);
    expect(readTrajectory(log).steps.map((s) => s.step)).toEqual([0, 1, 2, 3]);

    const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, resumeFrom: log });
    expect(env.currentInfo().step).toBe(3);
    expect(env.state()).toHaveLength(3);
    await env.close();
  });

  it('a gap (a call charged but not logged) is cut at the gap', async () => {
    const task = await testTask('test__sculpt');
    const log = await fourCallLog();
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const kept = lines.filter((l) => (JSON.parse(l) as { step?: number }).step !== 2);
    writeFileSync(log, `${kept.join('\n')}\n`);
    const r = repairLog(log, task);
    expect(r.damage).toMatch(/step 3 follows step 1/);
    expect(existsSync(r.backup ?? '')).toBe(true);
    expect(readTrajectory(log).steps.map((s) => s.step)).toEqual([0, 1]);
  });
});
