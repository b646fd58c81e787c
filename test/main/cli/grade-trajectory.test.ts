// A played episode's final scene, graded again with `splatlab grade`, gives exactly the score
// the trajectory recorded at submit (the human-baseline issue's "done when").
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { Grader } from '../../../src/main/grader/grader';
import { loadTask } from '../../../src/main/tasks/load';
import { buildTestTask, TEST_TASK_IDS } from '../../helpers/test-task';
import { runCli } from './run';

describe('trajectory score vs splatlab grade', () => {
  it('regrades the submitted scene to the logged score', async () => {
    const tasksDir = mkdtempSync(join(tmpdir(), 'splatlab-regrade-'));
    const grader = await Grader.create();
    await buildTestTask(tasksDir, { size: 64, grader });
    const task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir });
    const log = join(tasksDir, 'episode.jsonl');
    const { env } = await SplatEnv.reset(task, { grader, log, protocol: 'matched', player: 'test' });
    await env.step({ tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], scale: 0.3, color: '#8080ff' }, { pos: [0, 0, 0.5], scale: 0.15, color: '#ff8040' }] } });
    await env.step({ tool: 'edit_gaussians', args: { gaussians: [{ id: 1, pos: [0.1, 0, 0.45] }] } });
    await env.step({ tool: 'submit', args: {} });

    const trajectory = readTrajectory(log);
    expect(trajectory.end).not.toBeNull();
    const lastState = [...trajectory.steps].reverse().find((s) => s.state)?.state;
    const scene = join(tasksDir, 'final.json');
    writeFileSync(scene, JSON.stringify({ gaussians: lastState }));
    const run = await runCli('grade', ['--task', TEST_TASK_IDS.sculpt, '--scene', scene, '--tasks-dir', tasksDir, '--device', 'cpu', '--json']);
    expect(run.err).toEqual([]);
    const graded = JSON.parse(run.out[0]) as { score: number; psnr: number; lpips: number | null };
    expect(graded.score).toBe(trajectory.end?.score);
    expect(graded.psnr).toBe(trajectory.end?.psnr);
    expect(graded.lpips).toBe(trajectory.end?.lpips);
  });
});
