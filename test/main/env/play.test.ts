// `splatlab play` end to end on the CPU test task: result texts printed, log and images written.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('--random --seed plays the seeded random player: the same seed, the same trajectory less times', async () => {
    const { tasksDir } = await testTasks();
    const play = async (seed: number): Promise<string> => {
      const log = tmpLog('random.jsonl');
      const code = await command.run(['--task', 'test__sculpt', '--random', '--seed', String(seed), '--log', log, '--device', 'cpu', '--tasks-dir', tasksDir], { out: () => undefined, err: () => undefined });
      expect(code).toBe(0);
      expect(readTrajectory(log).header?.seed).toBe(seed);
      return readFileSync(log, 'utf8').split('\n').filter(Boolean).slice(1).map((l) => {
        const r = JSON.parse(l) as Record<string, unknown>;
        delete r.t;
        delete r.ms;
        return JSON.stringify(r);
      }).join('\n');
    };
    const a = await play(4);
    expect(await play(4)).toBe(a);
    expect(await play(5)).not.toBe(a);
  }, 120_000);
});
