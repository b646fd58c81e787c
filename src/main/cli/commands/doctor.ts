// `splatlab doctor`: what this machine offers the lab: Node, the GPU path, Electron, data, tasks.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { acquireGpu, type GpuContext } from '../../gpu/device';
import { loadShaders } from '../../gpu/shaders';
import { graderDevice } from '../../grader/grader';
import { GpuProcessBackend } from '../../grader/gpu-process';
import { uiRoot } from '../../app/paths';
import { sharedDataDir } from '../../io/data-dir';
import { loadLpipsWeights, resolveLpipsDir } from '../../lpips/weights';
import { resolveTasksDir } from '../../tasks/paths';
import { displayAvailable, findElectron } from '../../app/electron-binary';
import type { CliCommand } from '../command';
import { compiledPoolWorker } from '../../workers/compiled';
import { eventLoopDelay, watchEventLoop } from '../../workers/loop-delay';
import { WorkerPool } from '../../workers/pool';

/** Whether the grader will have LPIPS: the weights are loaded and verified, as the grader does. */
function lpipsLine(): string {
  try {
    loadLpipsWeights();
    return `weights verified at ${resolveLpipsDir() ?? '?'}; SplatScore includes LPIPS`;
  } catch (err) {
    return `MISSING: ${(err as Error).message}. Every score is then computed without LPIPS and marked lpips_missing`;
  }
}

/**
 * Where a lab's hidden grade runs here: the CPU reference on the worker pool, or (hardware) the
 * GPU in a child process of its own; where a device exists, the child is started once to see.
 */
async function gradingLine(gpu: GpuContext): Promise<string> {
  const { preferCpu } = graderDevice(gpu);
  const where = preferCpu ? `the CPU reference on the worker pool (${gpu.status.path === 'cpu' ? 'no adapter' : 'faster than SwiftShader'})` : 'the GPU';
  if (!gpu.device) return where;
  try {
    const child = await GpuProcessBackend.start({ lpips: null, shaders: loadShaders() });
    const { pid, status } = await child.describe();
    child.destroy();
    return `${where}; a GPU grade runs in a child process with its own device (started: pid ${pid}, ${status.path})`;
  } catch (e) {
    return `${where}; a GPU grade would run on the main thread: ${(e as Error).message}`;
  }
}

export const command: CliCommand = {
  name: 'doctor',
  usage: 'splatlab doctor\n\nPrints what the lab found on this machine and how to get a faster or fuller setup.',
  async run(_argv, io) {
    watchEventLoop();
    io.out(`Node        ${process.version} (${process.platform} ${process.arch})`);
    const gpu = await acquireGpu();
    io.out(`GPU         ${gpu.status.path}: ${gpu.status.summary}`);
    if (gpu.status.path !== 'cpu') io.out(`            adapter vendor '${gpu.status.vendor}', architecture '${gpu.status.architecture}', ${gpu.status.description}`);
    io.out(`Grading     ${await gradingLine(gpu)}`);
    const electron = findElectron();
    io.out(`Electron    ${electron.binary ? `binary at ${electron.binary}` : `not available: ${electron.reason}`}`);
    io.out(`Display     ${displayAvailable() ? 'available' : 'none (npm start serves the UI on a loopback URL)'}`);
    io.out(`UI build    ${existsSync(join(uiRoot(), 'index.html')) ? uiRoot() : 'not built yet (run `npx splatlab build-ui`)'}`);
    io.out(`LPIPS       ${lpipsLine()}`);
    const data = sharedDataDir();
    for (const [name, hint] of [['nerf-synthetic-lego-24', 'a real capture for `splatlab import nerf`']] as const) {
      const dir = join(data, name);
      io.out(`Data        ${name}: ${existsSync(dir) ? `found at ${dir}` : `missing (${hint})`}`);
    }
    const tasks = resolveTasksDir();
    const count = existsSync(tasks) ? readdirSync(tasks).filter((f) => f.endsWith('.json')).length : 0;
    io.out(`Tasks       ${count} task spec(s) in ${tasks}`);
    const bundle = compiledPoolWorker();
    io.out(`Workers     ${bundle ? `compiled entry ${bundle}` : 'from source through tsx (the compiled entry could not be built: slower thread starts)'}`);
    // One pool thread started and used: what a lab's first job costs in CPU (docs/PERFORMANCE.md).
    const pool = new WorkerPool({ size: 1 });
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    await pool.run('probe.echo', { value: 0 }, { client: 'doctor' });
    const cpu = process.cpuUsage(cpu0);
    io.out(`            first job on a fresh thread: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, ${(performance.now() - wall0).toFixed(0)} ms wall`);
    await pool.close();
    const d = eventLoopDelay();
    io.out(`Event loop  delay p50 ${d.p50Ms} ms, p99 ${d.p99Ms} ms, max ${d.maxMs} ms over this check's ${d.sinceS} s (a running lab reports its own in app.info)`);
    return 0;
  },
};
