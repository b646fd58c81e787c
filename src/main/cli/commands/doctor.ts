// `splatlab doctor`: what this machine offers the lab: Node, the GPU path, Electron, data, tasks.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { acquireGpu } from '../../gpu/device';
import { uiRoot } from '../../app/paths';
import { sharedDataDir } from '../../io/data-dir';
import { loadLpipsWeights, resolveLpipsDir } from '../../lpips/weights';
import { resolveTasksDir } from '../../tasks/paths';
import { displayAvailable, findElectron } from '../../app/electron-binary';
import type { CliCommand } from '../command';

/** Whether the grader will have LPIPS: the weights are loaded and verified, as the grader does. */
function lpipsLine(): string {
  try {
    loadLpipsWeights();
    return `weights verified at ${resolveLpipsDir() ?? '?'}; SplatScore includes LPIPS`;
  } catch (err) {
    return `MISSING: ${(err as Error).message}. Every score is then computed without LPIPS and marked lpips_missing`;
  }
}

export const command: CliCommand = {
  name: 'doctor',
  usage: 'splatlab doctor\n\nPrints what the lab found on this machine and how to get a faster or fuller setup.',
  async run(_argv, io) {
    io.out(`Node        ${process.version} (${process.platform} ${process.arch})`);
    const gpu = await acquireGpu();
    io.out(`GPU         ${gpu.status.path}: ${gpu.status.summary}`);
    if (gpu.status.path !== 'cpu') io.out(`            adapter vendor '${gpu.status.vendor}', architecture '${gpu.status.architecture}', ${gpu.status.description}`);
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
    return 0;
  },
};
