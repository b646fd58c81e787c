// Each kind's own `splatlab` command (docs/ARCHITECTURE.md, "The composition root and task kinds"):
// the kinds' commands, indexed from their main manifests (src/main/kinds/manifests.ts, the only caller of
// registerKindCommands), beside which cli/commands/index.ts lists the lab's. Commands load
// lazily, as every command does, so `--help` never pays for a kind's machinery.
// Input: a kind's command entries. Output: every kind's command by name.
// Invariant: a command name belongs to one kind; a second one is refused with one line.
import type { CommandEntry } from './command';

const COMMANDS: Record<string, CommandEntry> = {};

/** Every kind's command, by name. */
export function kindCommands(): Readonly<Record<string, CommandEntry>> {
  return COMMANDS;
}

/** Adds a kind's commands (from its manifest); a name already taken is refused. */
export function registerKindCommands(family: string, entries: Readonly<Record<string, CommandEntry>>): void {
  const taken = Object.keys(entries).find((name) => Object.prototype.hasOwnProperty.call(COMMANDS, name));
  if (taken) throw new Error(`kind '${family}': a command named '${taken}' is already registered`);
  Object.assign(COMMANDS, entries);
}
