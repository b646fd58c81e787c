// Kinds from folders outside the lab's own (docs/ARCHITECTURE.md, "The composition root and task
// kinds"): `SPLATLAB_KINDS` lists kind folders (separated by the platform's path delimiter), each
// with `shared/kind.ts`, `main/kind.ts` and `renderer/kind.ts` whose default exports are the
// kind's TaskKindModule, its MainKindManifest (below: everything it supplies in main, as the lab's
// own kinds supply it to ./registry.ts, ./study-kinds.ts, ./handlers.ts and ./commands.ts) and its
// RendererKindModule. The CLI registers them before any command runs; the renderer build bundles
// their shared and renderer halves (./vite-kinds.ts).
// Such a kind runs from source (the CLI under tsx, `splatlab serve`, tests), not in a packaged app.
// Input: the environment. Output: the families registered. Invariant: a folder is loaded at most
// once per process, and a folder missing a half is refused with one line naming it.
import { pathToFileURL } from 'node:url';
import type { KindModuleInput } from '../../shared/kinds/kind';
import { registerKind } from '../../shared/kinds/registry';
import type { CommandEntry } from '../cli/command';
import type { MainKindModule } from './kind';
import { registerMainKind } from './registry';
import { kindFolders, kindHalf } from './folders';
import type { KindScorer } from './scorer';
import type { KindStudyPart } from './study-part';
import { registerStudyKind } from './study-kinds';
import { registerKindHandlers, type KindHandlers } from './handlers';
import { registerKindCommands } from './commands';

/** Everything a kind supplies in main: its module, its Inspect scorer (required) and, by default none, its study part, LabApi handlers and commands. */
export interface MainKindManifest {
  readonly module: MainKindModule;
  readonly scorer: KindScorer;
  readonly studyPart?: KindStudyPart;
  readonly handlers?: KindHandlers;
  readonly commands?: Readonly<Record<string, CommandEntry>>;
}

/** Registers a kind's main manifest everywhere main reads kinds; one line when a part is missing or taken. */
export function registerMainManifest(m: MainKindManifest): void {
  const family = m.module?.family;
  if (!family) throw new Error('a main kind manifest needs its module (src/main/kinds/kind.ts MainKindModule)');
  registerStudyKind({ family, scorer: m.scorer, part: m.studyPart });
  registerMainKind(m.module);
  if (m.handlers) registerKindHandlers(family, m.handlers);
  if (m.commands) registerKindCommands(family, m.commands);
}

const loaded = new Set<string>();

async function defaultExport<T>(path: string): Promise<T> {
  const mod = (await import(pathToFileURL(path).href)) as { default?: T };
  if (!mod.default) throw new Error(`SPLATLAB_KINDS: ${path} has no default export`);
  return mod.default;
}

/** Registers the shared and main halves of every folder of `SPLATLAB_KINDS` not loaded yet. */
export async function loadKindPlugins(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const families: string[] = [];
  for (const folder of kindFolders(env)) {
    if (loaded.has(folder)) continue;
    const shared = await defaultExport<KindModuleInput>(kindHalf(folder, 'shared'));
    const main = await defaultExport<MainKindManifest>(kindHalf(folder, 'main'));
    kindHalf(folder, 'renderer');
    if (main.module?.family !== shared.family) throw new Error(`SPLATLAB_KINDS: ${folder}: the main half serves '${main.module?.family}', the shared half '${shared.family}'`);
    registerKind(shared);
    registerMainManifest(main);
    loaded.add(folder);
    families.push(shared.family);
  }
  return families;
}
