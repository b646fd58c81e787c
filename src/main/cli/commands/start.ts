// `splatlab start` (what `npm start` runs): opens the Electron window where the binary and a
// display exist; otherwise says why and serves the same UI on a loopback URL (with the home's
// stable token and last port, as `serve` does, so open tabs reconnect after a restart).
import { endChildWithUs } from '../orphan';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../../io/data-dir';
import { displayAvailable, ensureElectron } from '../../app/electron-binary';
import { CliError, type CliCommand } from '../command';
import { buildUi } from './build-ui';
import { command as serve } from './serve';

export const command: CliCommand = {
  name: 'start',
  usage: `splatlab start [--serve] [--open FILE] [serve options]

Opens the SplatLab window. Where the Electron binary or a display is missing it prints why and
runs \`splatlab serve\`, printing the URL to open in a browser. --serve skips the window.
--open FILE offers a splat file (any supported format) first in the debugger and watches its folder.`,
  async run(argv, io) {
    const forceServe = argv.includes('--serve');
    const at = argv.indexOf('--open');
    if (at >= 0) {
      const file = argv[at + 1];
      if (!file || !existsSync(file)) throw new CliError(`--open needs an existing splat file (got '${file ?? ''}')`);
      // Read by the debugger rows (src/main/debug/files.ts); the Electron child inherits it.
      process.env.SPLATLAB_DEBUG_OPEN = resolve(file);
    }
    const rest = argv.filter((a, i) => a !== '--serve' && !(at >= 0 && (i === at || i === at + 1)));
    if (!existsSync(join(repoRoot(), 'out', 'main', 'index.js'))) {
      io.out('Building the app (first run)...');
      await buildUi(io);
    }
    if (!forceServe) {
      const probe = displayAvailable() ? ensureElectron(io.out) : { binary: null, reason: 'no display (DISPLAY/WAYLAND_DISPLAY unset)' };
      if (probe.binary) return launchElectron(probe.binary);
      io.out(`Not opening the desktop window: ${probe.reason}. Serving the same UI in browser mode instead.`);
    }
    return serve.run(rest, io);
  },
};

function launchElectron(binary: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(binary, [repoRoot()], { stdio: 'inherit' });
    endChildWithUs(child);
    child.on('close', (code) => resolve(code ?? 0));
  });
}
