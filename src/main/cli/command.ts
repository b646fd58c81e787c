// The shape of one `splatlab` subcommand. Each command lives in its own file under commands/ and
// is listed (with its one-line summary, loaded lazily) in commands/index.ts; the dispatcher in
// main.ts handles --help for all of them.
export interface CliIO {
  out(line: string): void;
  err(line: string): void;
}

export interface CliCommand {
  name: string;
  usage: string; // full help text for `splatlab <name> --help`
  run(argv: string[], io: CliIO): Promise<number>; // exit status
}

/** A command as commands/index.ts lists it: its one-line summary, its module loaded lazily. */
export interface CommandEntry {
  summary: string;
  load: () => Promise<CliCommand>;
  /**
   * The command never looks a task kind up (it reads SplatBench tasks only): `splatlab` then starts
   * it without registering the kinds, whose modules are a third of a cold start (issue 40 item 3).
   */
  withoutKinds?: true;
}

/** A user error: printed as one line, exit status 1, never a stack trace. */
export class CliError extends Error {}
