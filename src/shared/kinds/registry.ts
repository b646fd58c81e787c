// The task kinds the lab knows, by the `kind` of a task spec (docs/DESIGN.md section 9). Adding a
// kind means adding its module here (and its main half and play view); nothing else branches on
// the kind. Input: a TaskKind. Output: its TaskKindModule. Invariant: every TaskKind has exactly
// one module.
import type { TaskKind } from '../task/schema';
import type { TaskKindModule } from './kind';
import { splatbenchKind } from './splatbench/kind';
import { relationKind } from './relation/kind';
import { searchKind } from './search/kind';

export const KIND_MODULES: readonly TaskKindModule[] = [splatbenchKind, searchKind, relationKind];

export function kindModule(kind: TaskKind): TaskKindModule {
  const m = KIND_MODULES.find((k) => k.kinds.includes(kind));
  if (!m) throw new Error(`no task-kind module serves kind '${kind}'`);
  return m;
}
