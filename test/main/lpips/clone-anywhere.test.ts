// A clone of the project in an unrelated folder, with no data folder beside it, grades with LPIPS
// (issue 24, item 9): the weights ship in assets/lpips-alex and are found from the installed
// code's own location. The clone copies the files the CLI needs (node_modules is linked: it is
// resolved by its real path, which is not where the weights are looked for) and runs
// `splatlab doctor` and `splatlab grade` there with no LPIPS or data variables set.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = resolve(__dirname, '..', '..', '..');
const outer = mkdtempSync(join(tmpdir(), 'splatlab-clone-'));
const clone = join(outer, 'somewhere', 'my-copy');

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, SPLATLAB_HOME: join(outer, 'home') };
  delete e.SPLATLAB_LPIPS_DIR;
  delete e.SPLATLAB_DATA_DIR;
  delete e.SPLATLAB_TASKS_DIR;
  return e;
}

const cli = (args: string[]) => run(process.execPath, [join(clone, 'src', 'main', 'cli', 'splatlab.mjs'), ...args], { cwd: outer, env: env(), maxBuffer: 16 << 20 });

beforeAll(() => {
  for (const part of ['src', 'shaders', 'assets', 'package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.node.json']) cpSync(join(repo, part), join(clone, part), { recursive: true });
  cpSync(join(repo, 'tasks', 'mushroom__sculpt.json'), join(clone, 'tasks', 'mushroom__sculpt.json'));
  cpSync(join(repo, 'tasks', 'objects', 'mushroom'), join(clone, 'tasks', 'objects', 'mushroom'), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(clone, 'node_modules'), 'dir');
  writeFileSync(join(outer, 'scene.json'), JSON.stringify({ gaussians: [{ pos: [0, 0, 0], scale: 0.2, color: '#aa5533' }] }));
}, 120_000);
afterAll(() => rmSync(outer, { recursive: true, force: true }));

describe('a clone in an unrelated folder', () => {
  it('has no data folder beside it', () => {
    expect(existsSync(join(clone, '..', 'shared'))).toBe(false);
    expect(existsSync(join(clone, 'assets', 'lpips-alex', 'manifest.json'))).toBe(true);
  });

  it('doctor finds and verifies the shipped weights', async () => {
    const { stdout } = await cli(['doctor']);
    expect(stdout).toContain(`LPIPS       weights verified at ${join(clone, 'assets', 'lpips-alex')}`);
  }, 120_000);

  it('grades a scene with LPIPS in the score', async () => {
    const { stdout } = await cli(['grade', '--task', 'mushroom__sculpt', '--scene', join(outer, 'scene.json'), '--device', 'cpu', '--json', '--tasks', join(clone, 'tasks')]);
    const result = JSON.parse(stdout) as { lpipsMissing: boolean; lpips: number | null };
    expect(result.lpipsMissing).toBe(false);
    expect(result.lpips).toBeGreaterThan(0);
  }, 120_000);

  it('doctor says so when the shipped weights are gone', async () => {
    rmSync(join(clone, 'assets', 'lpips-alex'), { recursive: true });
    const { stdout } = await cli(['doctor']);
    expect(stdout).toMatch(/LPIPS {7}MISSING: .*marked lpips_missing/);
  }, 120_000);
});
