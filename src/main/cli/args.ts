// Tiny argument parser for subcommands: `--name value`, `--flag`, and positionals.
// Invariant: unknown options are errors (a typo never silently changes behaviour). Every command
// names the tasks folder `--tasks DIR`; the older spelling `--tasks-dir` is read as the same option.
import { CliError } from './command';

export interface ParsedArgs {
  options: Map<string, string | true>;
  positionals: string[];
  /** Every value of the options named in `repeat`, in order (options keeps the last). */
  lists: Map<string, string[]>;
}

export function parseArgs(argv: string[], spec: { values?: string[]; flags?: string[]; repeat?: string[] }): ParsedArgs {
  const repeat = new Set(spec.repeat ?? []);
  const values = new Set([...(spec.values ?? []), ...repeat]);
  const flags = new Set(spec.flags ?? []);
  const options = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [given, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const name = given === 'tasks-dir' && values.has('tasks') ? 'tasks' : given;
    if (flags.has(name)) options.set(name, true);
    else if (values.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new CliError(`--${name} needs a value`);
      options.set(name, value);
      if (repeat.has(name)) lists.set(name, [...(lists.get(name) ?? []), value]);
    } else throw new CliError(`unknown option --${name}`);
  }
  return { options, positionals, lists };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name);
  return typeof value === 'string' ? value : undefined;
}

export function requireOption(args: ParsedArgs, name: string): string {
  const value = stringOption(args, name);
  if (value === undefined) throw new CliError(`--${name} is required`);
  return value;
}
