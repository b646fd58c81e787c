// The GPU grader in a child process (issue 29 item 1, src/main/grader/gpu-process.ts): a grade
// through the child equals the in-process GPU grade on a seeded random scene; a child killed
// mid-call fails that call with one line and the next call starts a new child; closing the
// grader ends the child; an owner killed with SIGKILL (or exiting without closing) leaves no
// child behind. On SwiftShader here (test/helpers/gpu.ts), skipped where no adapter exists.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { mulberry32 } from '../../../src/shared/math/random';
import { emptySplats } from '../../../src/shared/scene/splats';
import type { Splats } from '../../../src/shared/raster/types';
import { Grader } from '../../../src/main/grader/grader';
import { GpuProcessBackend, GpuProcessEnded } from '../../../src/main/grader/gpu-process';
import { loadShaders } from '../../../src/main/gpu/shaders';
import { loadTask, type LoadedTask } from '../../../src/main/tasks/load';
import { TEST_TASK_IDS } from '../../helpers/test-task';
import { gpuDevice } from '../../helpers/gpu';
import { fixtureTask } from '../tasks/fixture';
import { skipWithout } from '../../helpers/optional';

const GPU_TIMEOUT = 300_000;

function randomScene(seed: number, count: number): Splats {
  const rng = mulberry32(seed);
  const s = emptySplats(count);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      s.means[i * 3 + k] = rng.uniform(-0.8, 0.8);
      s.scales[i * 3 + k] = rng.uniform(0.03, 0.2);
      s.colors[i * 3 + k] = rng.uniform(0, 1);
    }
    const q = [rng.normal(), rng.normal(), rng.normal(), rng.normal()];
    const n = Math.hypot(...q);
    q.forEach((v, k) => (s.quats[i * 4 + k] = v / n));
    s.opacities[i] = rng.uniform(0.2, 0.95);
  }
  return s;
}

/** Whether `pid` is gone (a zombie counts as gone: it runs nothing and holds no device). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function waitGone(pid: number): Promise<void> {
  while (!gone(pid)) await new Promise((r) => setTimeout(r, 50));
}

const lpips = null;
let task: LoadedTask;

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('GPU grading in a child process', () => {
  beforeAll(async () => {
    const { task: built } = await fixtureTask();
    task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir });
  }, GPU_TIMEOUT);

  it('grades exactly as the in-process GPU path on a seeded random scene', { timeout: GPU_TIMEOUT }, async () => {
    const child = await Grader.create({ device: gpuDevice, gpuProcess: true });
    const inProcess = await Grader.create({ device: gpuDevice });
    try {
      expect(child.placement).toBe('GPU in a child process with its own device');
      expect(inProcess.placement).toMatch(/^GPU on the main thread/);
      const scene = randomScene(29, 300);
      const [a, b] = [await child.grade(task, scene), await inProcess.grade(task, scene)];
      expect(a).toEqual(b);
      expect(a.psnr).toBeGreaterThan(0);
      const [ra, rb] = [await child.compareViews(scene, task.reference), await inProcess.compareViews(scene, task.reference)];
      expect(ra).toEqual(rb);
      expect(child.gpuPhotoCount).toBe(task.heldout.length + task.reference.length);
      child.release(task);
      expect(child.gpuPhotoCount).toBe(0);
      expect(await child.grade(task, scene)).toEqual(b);
    } finally {
      child.destroy();
      inProcess.destroy();
    }
  });

  it('fails a call whose child was killed with one line, then starts a new child', { timeout: GPU_TIMEOUT }, async () => {
    const backend = await GpuProcessBackend.start({ lpips, shaders: loadShaders() });
    try {
      const cams = [orbitCamera({ azimuth: 30, elevation: 20, width: 48, height: 48 })];
      const scene = randomScene(3, 50);
      const expected = await backend.render(scene, cams);
      const first = await backend.describe();
      const call = backend.render(scene, cams);
      process.kill(first.pid, 'SIGKILL');
      const error = await call.then(() => null, (e: Error) => e);
      expect(error).toBeInstanceOf(GpuProcessEnded);
      expect(error?.message).toMatch(/^the GPU grader process ended \(SIGKILL\); the next grade starts a new one$/);
      expect(backend.lastEnd).toMatch(/SIGKILL/);
      await waitGone(first.pid);
      expect(await backend.render(scene, cams)).toEqual(expected);
      const second = await backend.describe();
      expect(second.pid).not.toBe(first.pid);
      expect(backend.started).toBe(2);
    } finally {
      backend.destroy();
    }
  });

  it('ends the child when the grader is closed', { timeout: GPU_TIMEOUT }, async () => {
    const backend = await GpuProcessBackend.start({ lpips, shaders: loadShaders() });
    const { pid } = await backend.describe();
    expect(gone(pid)).toBe(false);
    backend.destroy();
    await waitGone(pid);
    await expect(backend.render(emptySplats(1), [])).rejects.toThrow('the GPU grader is closed');
  });

  for (const how of ['SIGKILL', 'exit'] as const) {
    it(`leaves no child process behind when its owner ends (${how})`, { timeout: GPU_TIMEOUT }, async () => {
      const script = join(import.meta.dirname, 'gpu-process-owner.ts');
      const owner = spawn(process.execPath, ['--import', 'tsx', script, how], { stdio: ['ignore', 'pipe', 'inherit'] });
      const lines = createInterface({ input: owner.stdout });
      const exited = new Promise<void>((r) => owner.on('exit', () => r()));
      let childPid = 0;
      try {
        for await (const line of lines) {
          const m = /^child (\d+)$/.exec(line);
          if (m) {
            childPid = Number(m[1]);
            break;
          }
        }
        expect(childPid).toBeGreaterThan(0);
        if (how === 'SIGKILL') owner.kill('SIGKILL');
        await exited;
        await waitGone(childPid);
        expect(gone(childPid)).toBe(true);
      } finally {
        owner.kill('SIGKILL');
        if (childPid > 0 && !gone(childPid)) process.kill(childPid, 'SIGKILL');
      }
    });
  }
});
