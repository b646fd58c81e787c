// Each kind's own `splatlab` command (docs/ARCHITECTURE.md, "The composition root and task kinds"):
// the one list of the lab's kinds' commands, beside which cli/commands/index.ts lists the lab's.
// A kind kept outside adds its commands from its main manifest (./plugins.ts). Commands load
// lazily, as every command does, so `--help` never pays for a kind's machinery.
// Input: a kind's command entries. Output: every kind's command by name.
// Invariant: a command name belongs to one kind; a second one is refused with one line.
import type { CommandEntry } from '../cli/command';

const COMMANDS: Record<string, CommandEntry> = {
  relation: { summary: 'spatial-relation datasets (SpaRRTa-style): relation generate|check|export|import|sheets|tasks|block', load: async () => (await import('./relation/cli')).command },
  search: { summary: 'search tasks (view search in rooms): search generate|check|baseline|filter|goals|export|annotation-task|judge|make-prop', load: async () => (await import('./search/cli')).command },
};

/** Every kind's command, by name. */
export function kindCommands(): Readonly<Record<string, CommandEntry>> {
  return COMMANDS;
}

/** Adds a kind's commands (a SPLATLAB_KINDS kind's); a name already taken is refused. */
export function registerKindCommands(family: string, entries: Readonly<Record<string, CommandEntry>>): void {
  const taken = Object.keys(entries).find((name) => Object.prototype.hasOwnProperty.call(COMMANDS, name));
  if (taken) throw new Error(`kind '${family}': a command named '${taken}' is already registered`);
  Object.assign(COMMANDS, entries);
}
