// fitTask and `splatlab fit` on a tiny task folder (32x32 reference photos of a known scene,
// no anchors or held-out photos): fit.json parses as a scene within the limits, the loss plot
// is a PNG, no temp files stay behind, a cancelled fit writes nothing, and the CLI reports.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitTask, FIT_FILE, FIT_PLOT_FILE } from '../../../../src/main/authoring/fit/run';
import { chooseFitBackend } from '../../../../src/main/authoring/fit/backend';
import { acquireGpu } from '../../../../src/main/gpu/device';
import { command } from '../../../../src/main/cli/commands/fit';
import { decodePng, encodePng } from '../../../../src/main/io/png';
import { cpuFitBackend } from '../../../../src/shared/authoring/fit/backend';
import { REFERENCE_VIEWS } from '../../../../src/shared/camera/views';
import { parseSceneFile } from '../../../../src/shared/scene/input';
import { syntheticViews } from '../../../shared/authoring/fit/fit-helpers';

const SIZE = 32;

function makeTasksDir(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'splatlab-fit-')), 'tasks');
  const dir = join(root, 'objects', 'blob');
  mkdirSync(join(dir, 'ref'), { recursive: true });
  const spec = { task_id: 'blob__sculpt', kind: 'sculpt', object: 'blob', max_gaussians: 30, max_tool_calls: 40, max_renders: 16, init_npz: null };
  writeFileSync(join(root, 'blob__sculpt.json'), JSON.stringify(spec));
  const views = syntheticViews(SIZE);
  const entries = views.map((v, i) => ({ name: REFERENCE_VIEWS[i].name, camera: v.camera }));
  writeFileSync(join(dir, 'cameras.json'), JSON.stringify({ reference: entries, heldout: [entries[0]] }));
  views.forEach((v, i) => writeFileSync(join(dir, 'ref', `${REFERENCE_VIEWS[i].name}.png`), encodePng(v.photo)));
  // One held-out photo: `splatlab fit` recomputes the anchors after the fit.
  mkdirSync(join(dir, 'heldout'));
  writeFileSync(join(dir, 'heldout', `${REFERENCE_VIEWS[0].name}.png`), encodePng(views[0].photo));
  return root;
}

describe('fitTask', () => {
  it('writes fit.json and fit_loss.png atomically and reports reference PSNR', async () => {
    const tasksDir = makeTasksDir();
    const progress: number[] = [];
    const r = await fitTask('blob__sculpt', { tasksDir, steps: 24, seed: 3, backend: cpuFitBackend(), onProgress: (p) => progress.push(p.step) });
    const dir = join(tasksDir, 'objects', 'blob');
    expect(r.fitPath).toBe(join(dir, FIT_FILE));
    expect(r.plotPath).toBe(join(dir, FIT_PLOT_FILE));
    expect(progress).toHaveLength(24);
    const records = parseSceneFile(JSON.parse(readFileSync(r.fitPath, 'utf8')));
    expect(records).toHaveLength(30);
    expect(records[0].pos).toEqual(r.records[0].pos);
    const png = decodePng(readFileSync(r.plotPath));
    expect(png.width).toBeGreaterThan(300);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(r.referencePsnr.map((v) => v.name)).toEqual(REFERENCE_VIEWS.map((v) => v.name));
    // The fit must beat an empty (white) scene on its own reference views.
    expect(r.meanReferencePsnr).toBeGreaterThan(15);
    // Same seed, same backend: the same file.
    const first = readFileSync(r.fitPath, 'utf8');
    await fitTask('blob__sculpt', { tasksDir, steps: 24, seed: 3, backend: cpuFitBackend() });
    expect(readFileSync(r.fitPath, 'utf8')).toBe(first);
  });

  it('writes nothing when cancelled', async () => {
    const tasksDir = makeTasksDir();
    const controller = new AbortController();
    const run = fitTask('blob__sculpt', {
      tasksDir,
      steps: 50,
      backend: cpuFitBackend(),
      signal: controller.signal,
      onProgress: (p) => p.step === 3 && controller.abort(),
    });
    await expect(run).rejects.toThrow(/abort/i);
    expect(existsSync(join(tasksDir, 'objects', 'blob', FIT_FILE))).toBe(false);
  });
});

describe('splatlab fit', () => {
  it('fits on the CPU and prints the files and reference PSNR', async () => {
    const tasksDir = makeTasksDir();
    const out: string[] = [];
    const err: string[] = [];
    const code = await command.run(['--task', 'blob__sculpt', '--steps', '6', '--seed', '1', '--device', 'cpu', '--tasks', tasksDir], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    expect(code).toBe(0);
    expect(err.join('\n')).toMatch(/CPU reference/);
    expect(out.join('\n')).toMatch(/wrote .*fit\.json \(30 Gaussians\) and .*fit_loss\.png/);
    expect(out.join('\n')).toMatch(/reference-view PSNR \d+\.\d\d dB \(V0 /);
    // The refit recomputed what depends on the fit (issue #14: check failed after a refit).
    const dir = join(tasksDir, 'objects', 'blob');
    expect(out.join('\n')).toMatch(/anchors on the held-out views: empty PSNR/);
    for (const f of ['anchors.json', 'init_reassembly.npz', 'parts_truth.json', 'build.json']) expect(existsSync(join(dir, f))).toBe(true);
    const build = JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8')) as { history: { action: string; steps: number; seed: number }[] };
    expect(build.history.at(-1)).toMatchObject({ action: 'refit', steps: 6, seed: 1 });
    expect(readdirSync(tasksDir).filter((f) => f.startsWith('.staging'))).toEqual([]);
  });

  it('rejects bad options', async () => {
    const io = { out: () => {}, err: () => {} };
    await expect(command.run(['--steps', '5'], io)).rejects.toThrow(/--task is required/);
    await expect(command.run(['--task', 'x', '--steps', '0'], io)).rejects.toThrow(/--steps must be an integer >= 1/);
    await expect(command.run(['--task', 'x', '--device', 'tpu'], io)).rejects.toThrow(/--device/);
    await expect(command.run(['--task', 'nope', '--device', 'cpu', '--tasks', makeTasksDir()], io)).rejects.toThrow(/unknown task 'nope'/);
  });
});

describe('chooseFitBackend', () => {
  it('forces the CPU on request and prefers it to software Vulkan by default', async () => {
    const cpu = await chooseFitBackend('cpu');
    expect(cpu.backend.name).toBe('cpu');
    expect(cpu.description).toMatch(/CPU mode was requested/);
    const gpu = await acquireGpu();
    const auto = await chooseFitBackend('auto');
    expect(auto.backend.name).toBe(gpu.status.path === 'hardware' ? 'gpu' : 'cpu');
    if (gpu.status.path === 'swiftshader') expect(auto.description).toMatch(/SwiftShader/);
    auto.release();
  });
});
