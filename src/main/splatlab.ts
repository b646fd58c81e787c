// `splatlab` entry: registers the kinds (the lab's own and SPLATLAB_KINDS'), dispatches to a
// subcommand, prints help, turns errors into one line. A file of its own above the runtime's
// folders, as a composition root: it reaches the kinds' folders (their commands, through
// src/main/kinds/plugins.ts, imported on demand: a command marked withoutKinds starts without
// them) while those import the CLI's helpers (docs/ARCHITECTURE.md).
// Invariant: a user error exits 1 with one readable line and no stack trace.
import { CliError, type CliIO } from './cli/command';
import { commands, COMMANDS, type CommandEntry } from './cli/commands/index';
import { exitWithParent } from './cli/orphan';

const io: CliIO = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
};

function help(all: Record<string, CommandEntry>): string {
  const names = Object.keys(all);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'splatlab: a lab for SplatBench-style spatial-reasoning benchmarks on 3D Gaussian splatting',
    '',
    'usage: splatlab <command> [options]      splatlab <command> --help',
    '',
    'commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${all[n].summary}`),
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // A lab command that never looks a kind up starts without the kinds' modules (a cold `splatlab
  // grade`), unless SPLATLAB_KINDS may bring a command of the same name (refused in commands()).
  const kindFree = name !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, name) && COMMANDS[name].withoutKinds === true && !process.env.SPLATLAB_KINDS;
  // Otherwise the kinds (SPLATLAB_KINDS' folders too) join the registries, their commands among them, before any lookup.
  try {
    if (!kindFree) await (await import('./kinds/plugins')).loadKindPlugins();
  } catch (error) {
    io.err(`splatlab: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const all = kindFree ? COMMANDS : commands();
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help(all));
    return name ? 0 : 1;
  }
  const entry = Object.prototype.hasOwnProperty.call(all, name) ? all[name] : undefined;
  if (!entry) {
    io.err(`splatlab: unknown command '${name}' (see splatlab --help)`);
    return 1;
  }
  // A server started through npx ends when npx does (SPLATLAB_DETACHED=1 keeps it running on purpose).
  if (process.env.SPLATLAB_DETACHED !== '1') {
    exitWithParent((why) => {
      io.err(`splatlab ${name}: ${why}; exiting`);
      process.exit(129);
    });
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usage);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`splatlab ${name}: ${error instanceof CliError ? '' : 'error: '}${message}`);
    return 1;
  }
}
