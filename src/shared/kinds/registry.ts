// The task kinds the lab knows, by the `kind` of a task spec (docs/DESIGN.md section 9). Adding a
// kind means adding its module here (one line; its main half and play view add one line in their
// registries), or naming its folder in `SPLATLAB_KINDS` (src/main/kinds/plugins.ts), which calls
// registerKind; nothing else branches on the kind.
// Input: a TaskKind. Output: its TaskKindModule. Invariant: every TaskKind has exactly one module.
import type { TaskKind } from '../task/schema';
import { toolSpecsOf, type KindModuleInput, type TaskKindModule } from './kind';
import { splatbenchKind } from './splatbench/kind';
import { relationKind } from './relation/kind';
import { searchKind } from './search/kind';

// SplatBench's machinery that predates the kind folders (its Episode config in src/main/env, the
// conformance check) reads its module from here rather than from its folder.
export { splatbenchKind } from './splatbench/kind';

const modules: TaskKindModule[] = [splatbenchKind, searchKind, relationKind].map(checked);

/** Every registered kind module, the lab's own first. */
export const KIND_MODULES: readonly TaskKindModule[] = modules;

/**
 * Adds a kind module (a `SPLATLAB_KINDS` folder's): a family or kind already served, or a module
 * missing what every kind declares, is refused with one line; omitted tool specs get the default
 * derived from its tools.
 */
export function registerKind(m: KindModuleInput): void {
  if (modules.some((k) => k.family === m.family)) throw new Error(`a task-kind module of family '${m.family}' is already registered`);
  const taken = m.kinds.find((kind) => modules.some((k) => k.kinds.includes(kind)));
  if (taken) throw new Error(`task kind '${taken}' is already served by another module`);
  modules.push(checked(m));
}

/** The module with its defaults, after checking what every kind must declare. */
function checked(m: KindModuleInput): TaskKindModule {
  const missing = (what: string): Error => new Error(`task-kind module '${m.family}' declares no ${what} (src/shared/kinds/kind.ts)`);
  if (!m.kinds?.length) throw missing('kinds');
  if (!m.tools || !Object.keys(m.tools).length) throw missing('tools');
  if (!m.giveUp || !Object.prototype.hasOwnProperty.call(m.tools, m.giveUp.tool)) throw missing(`give-up call among its tools (giveUp.tool '${m.giveUp?.tool}')`);
  if (!m.score?.unit) throw missing('score unit');
  if (!m.specSchema || !m.trajectory) throw missing('spec schema or trajectory records');
  const toolSpecs = m.toolSpecs ?? ((): ReturnType<TaskKindModule['toolSpecs']> => toolSpecsOf(m.tools));
  return { ...m, toolSpecs };
}

/**
 * The kind whose tools a session lists before any task is chosen (an MCP server or the RL
 * protocol with no task fixed): the first kind of the first module, SplatBench's sculpt.
 */
export function defaultKind(): TaskKind {
  return modules[0].kinds[0];
}

export function kindModule(kind: TaskKind): TaskKindModule {
  const m = modules.find((k) => k.kinds.includes(kind));
  if (!m) throw new Error(`no task-kind module serves kind '${kind}'`);
  return m;
}
