// `splatlab play` end to end on the CPU test task: result texts printed, log and images written.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { command } from '../../../src/main/cli/commands/play';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { testTasks, tmpLog } from './fixtures';

describe('play command', () => {
  it('plays a calls file into a log with images beside it', async () => {
    const { tasksDir } = await testTasks();
    const log = tmpLog('play.jsonl');
    const calls = `${dirname(log)}/calls.jsonl`;
    writeFileSync(calls, [
      JSON.stringify({ tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#806040', scale: 0.2 }] } }),
      JSON.stringify({ tool: 'render_views', args: { views: [0] } }),
      'not json',
      JSON.stringify({ tool: 'submit' }),
    ].join('\n'));
    const out: string[] = [];
    const err: string[] = [];
    const code = await command.run(['--task', 'test__sculpt', '--calls', calls, '--log', log, '--device', 'cpu', '--tasks-dir', tasksDir], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('Added 1 Gaussian (id 0).');
    expect(text).toContain("ERROR: unknown tool 'not json'");
    expect(text).toContain('Submitted. The episode is over.\n[1/300 Gaussians | calls left 36 | renders left 15]');
    expect(text).not.toMatch(/hidden|score/i);
    expect(err.join('\n')).toMatch(/hidden score -?\d+\.\d\d/);
    const traj = readTrajectory(log);
    expect(traj.steps).toHaveLength(5);
    expect(traj.end?.reason).toBe('submit');
    expect(readdirSync(dirname(log)).filter((f) => f.endsWith('.png')).sort()).toEqual(['play-step-000.png', 'play-step-002.png']);
  });
});
