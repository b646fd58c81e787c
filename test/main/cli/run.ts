// Runs one CLI command in-process and captures its output, as a user would see it.
import { commands } from '../../../src/main/cli/commands/index';
import { CliError } from '../../../src/main/cli/command';

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

export async function runCli(name: string, argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const command = await commands()[name].load();
  try {
    const code = await command.run(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, err };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { code: 1, out, err: [error.message] };
  }
}
