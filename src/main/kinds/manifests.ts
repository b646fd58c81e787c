// The main registry of the task kinds (docs/ARCHITECTURE.md, "The composition root and task
// kinds"; issue 39): each kind's main manifest, the one object that carries everything the kind
// supplies in main (its module, Inspect scorer, study part, LabApi handlers and commands), one
// line per kind in LAB_KINDS. A kind kept outside the lab registers the same object from its
// SPLATLAB_KINDS folder (./plugins.ts). Registration checks the manifest and indexes its parts
// for the folders that read them (./registry.ts mainKind, src/main/study/kind-studies.ts,
// src/main/services/kind-handlers.ts, src/main/cli/kind-commands.ts): those indexes import no
// kind and are filled from here only, so the machinery below this tier never imports a kind's
// folder.
// Input: manifests. Output: the registered families. Invariant: a manifest missing a required
// part, or naming another family anywhere, is refused with one line and registers nothing; an
// omitted optional part gets its documented default (no study part: its episodes are in the
// shared tables; no handlers: no rows of its own; no commands: none of its own).
import { KIND_MODULES } from '../../shared/kinds/registry';
import type { MainKindManifest } from './manifest';
import { registerMainKind, registerToolsDoc } from './registry';
import { registerStudyKind } from '../study/kind-studies';
import { registerKindHandlers } from '../services/kind-handlers';
import { registerKindCommands } from '../cli/kind-commands';
import { splatbenchManifest } from './splatbench/manifest';
import { searchManifest } from './search/manifest';
import { relationManifest } from './relation/manifest';

const LAB_KINDS: readonly MainKindManifest[] = [splatbenchManifest, searchManifest, relationManifest];

const registered: MainKindManifest[] = [];

/** One line on the first thing a manifest lacks or gets wrong, or null when it fits. */
function problem(m: MainKindManifest): string | null {
  const mod = m?.module;
  if (!mod?.family) return 'a main kind manifest needs its module with its family (src/main/kinds/kind.ts MainKindModule)';
  const family = mod.family;
  for (const fn of ['load', 'summary', 'dataFiles', 'reset', 'rules'] as const) {
    if (typeof mod[fn] !== 'function') return `kind '${family}': its main module has no ${fn}() (src/main/kinds/kind.ts MainKindModule)`;
  }
  if (!m.scorer || typeof m.scorer.score !== 'function') return `kind '${family}' supplies no Inspect scorer (src/main/kinds/scorer.ts): every kind needs one`;
  if (m.scorer.family !== family) return `kind '${family}': its scorer '${m.scorer.name}' scores family '${m.scorer.family}'`;
  if (m.studyPart && m.studyPart.family !== family) return `kind '${family}': its study part is of family '${m.studyPart.family}'`;
  if (m.studyPart && typeof m.studyPart.exportTables !== 'function') return `kind '${family}': its study part has no exportTables() (src/main/study/kind-part.ts)`;
  if (m.handlers !== undefined && typeof m.handlers !== 'function') return `kind '${family}': its handlers must be a function of the lab's context (src/main/services/kind-handlers.ts KindHandlers)`;
  for (const [name, entry] of Object.entries(m.commands ?? {})) {
    if (!entry?.summary || typeof entry.load !== 'function') return `kind '${family}': its command '${name}' needs a summary and a load() (src/main/cli/command.ts CommandEntry)`;
  }
  if (m.toolsDoc !== undefined && typeof m.toolsDoc !== 'function') return `kind '${family}': its toolsDoc must be a function returning Markdown (src/main/kinds/manifest.ts)`;
  if (!KIND_MODULES.some((k) => k.family === family)) return `kind '${family}': its shared half is not registered (src/shared/kinds/registry.ts registerKind comes first)`;
  return null;
}

/**
 * Registers a kind's main manifest: checked whole first (one line on what is missing or taken),
 * then its parts indexed where main reads them.
 */
export function registerMainManifest(m: MainKindManifest): void {
  const why = problem(m);
  if (why) throw new Error(why);
  const family = m.module.family;
  if (registered.some((r) => r.module.family === family)) throw new Error(`a main kind manifest of family '${family}' is already registered`);
  registerStudyKind({ family, scorer: m.scorer, part: m.studyPart });
  registerMainKind(m.module);
  if (m.handlers) registerKindHandlers(family, m.handlers);
  if (m.commands) registerKindCommands(family, m.commands);
  if (m.toolsDoc) registerToolsDoc(family, m.toolsDoc);
  registered.push(m);
}

/** Registers the lab's own kinds (LAB_KINDS) once per process; every entry point calls it first. */
export function registerLabKinds(): void {
  for (const m of LAB_KINDS) if (!registered.includes(m)) registerMainManifest(m);
}
