// Seed behaviours of the environment (the "done when"), played through SplatEnv on the
// CPU test task: the mistyped colour voids its batch and costs a call, the footer counts down,
// the last call auto-submits, one-shot allows one call and no render, hidden scores stay out of
// every ToolOut, and a played log regrades to the same hidden scores.
import { describe, expect, it } from 'vitest';
import { SplatEnv } from '../../../src/main/kinds/splatbench/env';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { regradeTrajectory } from '../../../src/main/episodes/replay';
import { fakeImages, testTask, testTasks, tmpLog } from './fixtures';

function footer(text: string): string {
  return text.slice(text.lastIndexOf('\n') + 1);
}

const red = (i: number, color = '#d02020') => ({ pos: [0.05 * (i % 10) - 0.2, 0, 0.1 * Math.floor(i / 10)], color, scale: 0.08, group: 'body' });

describe('SplatEnv seed behaviours', () => {
  it('voids a whole batch on one mistyped colour, charging a call, and counts the footer down', async () => {
    const { grader } = await testTasks();
    const task = await testTask('test__sculpt');
    const log = tmpLog('sculpt.jsonl');
    const { env, obs } = await SplatEnv.reset(task, { grader, images: fakeImages, log });
    expect(obs.text).toContain('Reference views: V0 (azimuth 0°, elevation 20°), V1 (azimuth 60°, elevation 20°)');
    expect(obs.text).toContain('The scene starts empty. Build the object from Gaussians.');
    expect(footer(obs.text)).toBe('[0/300 Gaussians | calls left 40 | renders left 16]');
    const first = await env.step({ tool: 'add_gaussians', args: { gaussians: Array.from({ length: 17 }, (_, i) => red(i)) } });
    expect(first.text.split('\n')[0]).toBe('Added 17 Gaussians (ids 0-16).');
    expect(footer(first.text)).toBe('[17/300 Gaussians | calls left 39 | renders left 16]');
    const batch = Array.from({ length: 30 }, (_, i) => red(i, i === 28 ? '#cacc cb' : '#ffffff'));
    const bad = await env.step({ tool: 'add_gaussians', args: { gaussians: batch } });
    expect(bad.text).toBe("ERROR: nothing was added. #28: unknown color '#cacc cb' (use '#rrggbb' or [r,g,b])\n[17/300 Gaussians | calls left 38 | renders left 16]");
    expect(env.state()).toHaveLength(17);
    const render = await env.step({ tool: 'render_views', args: { views: [0, 1, 6, 7] } });
    expect(render.text).toMatch(/^Metrics on reference views: V0: PSNR \d+\.\d\d dB, SSIM \d\.\d{3}, silhouette IoU \d\.\d{3}; V1: .*; V6: .*; V7: .*\n\[17\/300 Gaussians \| calls left 37 \| renders left 15\]$/);
    expect(new TextDecoder().decode(render.image)).toBe('views:V0,V1,V6,V7');
    const moved = await env.step({ tool: 'transform_group', args: { group: 'body', translate: [0, -0.11, 0] } });
    expect(moved.text).toMatch(/^Transformed 17 Gaussians about their centroid \[-0\.01, 0\.0, 0\.04\]; new centroid \[-0\.01, -0\.11, 0\.04\]\.\n/);
    for (const out of [obs, first, bad, render, moved]) expect(out.text).not.toMatch(/score|lpips|held/i);
    env.close();
    const traj = readTrajectory(log);
    expect(traj.header?.task).toBe('test__sculpt');
    expect(traj.steps.map((s) => s.tool)).toEqual(['reset', 'add_gaussians', 'add_gaussians', 'render_views', 'transform_group']);
    expect(traj.steps[1].hidden).toBeDefined();
    expect(traj.steps[1].state).toHaveLength(17);
    expect(traj.steps[2].state).toBeUndefined();
    expect(traj.steps[2].hidden).toBeUndefined();
  });

  it('auto-submits at the last call and refuses later calls without charging', async () => {
    const { grader } = await testTasks();
    const task = await testTask('test__sculpt');
    task.spec = { ...task.spec, max_tool_calls: 3 };
    const log = tmpLog('auto.jsonl');
    const { env } = await SplatEnv.reset(task, { grader, images: fakeImages, log });
    await env.step({ tool: 'add_gaussians', args: { gaussians: [red(0)] } });
    const second = await env.step({ tool: 'describe_groups' });
    expect(second.done).toBe(false);
    const last = await env.step({ tool: 'list_gaussians' });
    expect(last.done).toBe(true);
    expect(last.text).toContain('That was the last call: the scene was submitted automatically.');
    expect(footer(last.text)).toBe('[1/300 Gaussians | calls left 0 | renders left 16]');
    const after = await env.step({ tool: 'add_gaussians', args: { gaussians: [red(1)] } });
    expect(after).toEqual({
      text: 'ERROR: the episode is over; no further calls are accepted.\n[1/300 Gaussians | calls left 0 | renders left 16]',
      done: true,
      info: { tool: 'add_gaussians', ok: false, charged: false, step: null, changed: false, ids: [], done: true, endReason: 'auto', ending: 'truncated', outcome: { status: 'refused', code: 'episode_over' }, nextId: 1, budgets: { gaussians: 1, maxGaussians: 300, callsLeft: 0, rendersLeft: 16 } },
    });
    expect(last.info).toMatchObject({ ok: true, charged: true, step: 3, endReason: 'auto', done: true });
    expect(second.info).toMatchObject({ ok: true, step: 2, ids: [], done: false, endReason: null });
    expect(env.state()).toHaveLength(1);
    expect(env.finalGrade()).not.toBeNull();
    env.close();
    const traj = readTrajectory(log);
    expect(traj.end?.reason).toBe('auto');
    expect(traj.end?.calls_used).toBe(3);
    expect(traj.steps).toHaveLength(4);
  });

  it('one-shot: one call, no render, then the episode is over', async () => {
    const { grader } = await testTasks();
    const task = await testTask('test__oneshot');
    const { env, obs } = await SplatEnv.reset(task, { grader, images: fakeImages });
    expect(obs.text).toContain('Budget: at most 300 Gaussians, 1 tool call, 0 renders.');
    expect(obs.text).toContain('in a single call');
    const render = await env.step({ tool: 'render_views' });
    expect(render.text).toBe('ERROR: nothing was rendered. No renders left (all 0 used).\nThat was the last call: the scene was submitted automatically.\n[0/300 Gaussians | calls left 0 | renders left 0]');
    expect(render.image).toBeUndefined();
    expect(render.done).toBe(true);
    expect(env.finalGrade()?.score).toBeCloseTo(0, 6);
  });

  it('reassembly starts from the labelled groups, and the log regrades to the same hidden scores', async () => {
    const { grader } = await testTasks();
    const task = await testTask('test__reassembly');
    const log = tmpLog('reassembly.jsonl');
    const { env, obs } = await SplatEnv.reset(task, { grader, images: fakeImages, log });
    expect(obs.text).toMatch(new RegExp(`The scene starts with ${task.init?.length} Gaussians in 2 labelled groups`));
    const groups = [...new Set(task.init?.map((r) => r.group))];
    await env.step({ tool: 'transform_group', args: { group: groups[0], rotate_deg: 45, translate: [0.1, 0, 0] } });
    await env.step({ tool: 'render_angle', args: { azimuth: 45, elevation: 30, groups: [groups[1]] } });
    await env.step({ tool: 'delete_gaussians', args: { group: groups[1] } });
    const end = await env.step({ tool: 'submit' });
    expect(end.done).toBe(true);
    env.close();
    const traj = readTrajectory(log);
    expect(traj.steps[0].state).toHaveLength(task.init?.length ?? -1);
    const regraded = await regradeTrajectory(log, task, grader);
    const logged = traj.steps.filter((s) => s.hidden).map((s) => ({ step: s.step, hidden: s.hidden }));
    expect(logged.length).toBe(3);
    expect(regraded).toEqual(logged);
    expect(traj.end?.score).toBe(traj.steps[3].hidden?.score);
  });
});
