// `splatlab grade` on the test task: the fit grades to 100 in JSON and table form, its photo
// LPIPS taps, packed weights and decoded photos go to the lab home's caches (a temporary home
// here) and a second grade from them gives the same result, and bad input is one error line.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command } from '../../../../src/main/cli/commands/grade';
import { CliError, type CliIO } from '../../../../src/main/cli/command';
import { sceneFileJson } from '../../../../src/shared/scene/input';
import type { TestTask } from '../../../helpers/test-task';
import { fixtureTask } from '../../tasks/fixture';

function capture(): { io: CliIO; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l) => out.push(l), err: (l) => err.push(l) }, out, err };
}

let built: TestTask;
let dir: string;
const home = process.env.SPLATLAB_HOME;
afterAll(() => {
  if (home === undefined) delete process.env.SPLATLAB_HOME;
  else process.env.SPLATLAB_HOME = home;
});
beforeAll(async () => {
  built = (await fixtureTask()).task;
  dir = mkdtempSync(join(tmpdir(), 'grade-cli-'));
  process.env.SPLATLAB_HOME = join(dir, 'home');
  writeFileSync(join(dir, 'fit.json'), JSON.stringify(sceneFileJson(built.fit)));
  writeFileSync(join(dir, 'loose.json'), JSON.stringify({ gaussians: [{ pos: [0, 0, 0], color: '#ff0000', scale: 0.3 }] }));
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ gaussians: [{ pos: [0, 0, 0], color: '#cacc cb' }] }));
});

const base = (): string[] => ['--tasks-dir', built.tasksDir, '--device', 'cpu'];

describe('grade command', () => {
  it('prints the fit at exactly 100 as JSON', async () => {
    const c = capture();
    expect(await command.run(['--task', 'test__sculpt', '--scene', join(dir, 'fit.json'), '--json', ...base()], c.io)).toBe(0);
    const result = JSON.parse(c.out.join('\n'));
    expect(result).toMatchObject({ task: 'test__sculpt', device: 'cpu', gaussians: 12, score: 100, reward: 1 });
    expect(result.perView).toHaveLength(8);
    expect(result.perView[0].name).toBe('H0');
    // One cached region per held-out photo when LPIPS ran (the weights folder is optional).
    const cache = join(dir, 'home', 'cache', 'lpips-photos');
    expect(existsSync(cache) ? readdirSync(cache).length : 0).toBe(result.lpipsMissing ? 0 : 8);
    // The held-out photos decoded once (one view set), the packed weights when LPIPS ran.
    expect(readdirSync(join(dir, 'home', 'cache', 'task-views'))).toHaveLength(1);
    const packed = join(dir, 'home', 'cache', 'lpips-packed');
    expect(existsSync(packed) ? readdirSync(packed).length : 0).toBe(result.lpipsMissing ? 0 : 1);
    // A second grade reads all of them: the same result.
    const again = capture();
    expect(await command.run(['--task', 'test__sculpt', '--scene', join(dir, 'fit.json'), '--json', ...base()], again.io)).toBe(0);
    expect(JSON.parse(again.out.join('\n'))).toEqual(result);
  });

  it('prints a per-view table and the score for a loose scene', async () => {
    const c = capture();
    expect(await command.run(['--task', 'test__oneshot', '--scene', join(dir, 'loose.json'), ...base()], c.io)).toBe(0);
    expect(c.out[0]).toMatch(/^Task test__oneshot \(oneshot\), 1 Gaussians, 8 held-out views, graded on the CPU/);
    expect(c.out[1]).toMatch(/^view +PSNR +SSIM +LPIPS +IoU$/);
    expect(c.out.filter((l) => /^H\d /.test(l))).toHaveLength(8);
    expect(c.out.at(-1)).toMatch(/^SplatScore -?\d+\.\d\d \(reward \d\.\d{3}, training reward \d\.\d{3}\)/);
  });

  it('turns bad input into one-line errors', async () => {
    const c = capture();
    await expect(command.run(['--task', 'nope', '--scene', join(dir, 'fit.json'), ...base()], c.io)).rejects.toThrow(/^unknown task 'nope' in .* \(known: test__oneshot, test__reassembly, test__sculpt\)$/);
    await expect(command.run(['--task', 'test__sculpt', '--scene', join(dir, 'missing.json'), ...base()], c.io)).rejects.toThrow(CliError);
    await expect(command.run(['--task', 'test__sculpt', '--scene', join(dir, 'bad.json'), ...base()], c.io)).rejects.toThrow(/cacc cb/);
    // The probe scene of issue 17 is refused as the environment refuses it (not graded).
    writeFileSync(join(dir, 'probe.json'), JSON.stringify({ gaussians: [{ pos: [3, 0, 0], scale: 2, opacity: 0.001, color: '#ff0000' }] }));
    await expect(command.run(['--task', 'test__sculpt', '--scene', join(dir, 'probe.json'), ...base()], c.io)).rejects.toThrow(/#0: position \[3, 0, 0\] is outside the bounds/);
    await expect(command.run(['--scene', join(dir, 'fit.json')], c.io)).rejects.toThrow('--task is required');
    await expect(command.run(['--task', 'x', '--scene', 'y', '--device', 'tpu'], c.io)).rejects.toThrow("--device must be 'gpu' or 'cpu'");
  });
});
