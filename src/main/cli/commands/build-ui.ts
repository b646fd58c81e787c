// `splatlab build-ui`: builds main, preload and renderer into out/ with electron-vite.
import { endChildWithUs } from '../orphan';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../io/data-dir';
import { CliError, type CliCommand, type CliIO } from '../command';

export async function buildUi(io: CliIO): Promise<void> {
  const cli = join(repoRoot(), 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [cli, 'build'], { cwd: repoRoot(), stdio: ['ignore', 'pipe', 'pipe'] });
    endChildWithUs(child);
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('close', (status) => {
      if (status !== 0) io.err(log.trim());
      resolve(status ?? 1);
    });
  });
  if (code !== 0) throw new CliError('building the UI failed (see the log above)');
}

export const command: CliCommand = {
  name: 'build-ui',
  usage: 'splatlab build-ui\n\nRuns electron-vite build. `serve` and `npm start` run it when out/ is missing.',
  async run(_argv, io) {
    await buildUi(io);
    io.out('UI built into out/.');
    return 0;
  },
};
