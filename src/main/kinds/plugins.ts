// Kinds from folders outside the lab's own (docs/ARCHITECTURE.md, "The composition root and task
// kinds"): `SPLATLAB_KINDS` lists kind folders (separated by the platform's path delimiter), each
// with `shared/kind.ts`, `main/manifest.ts` and `renderer/kind.ts` whose default exports are the
// kind's TaskKindModule, its MainKindManifest (./manifests.ts: everything it supplies in main, the
// same object each of the lab's own kinds lists there) and its RendererKindModule. The CLI
// registers them before any command runs; the renderer build bundles their shared and renderer
// halves (./vite-kinds.ts).
// Such a kind runs from source (the CLI under tsx, `splatlab serve`, tests), not in a packaged app.
// Input: the environment. Output: the families registered. Invariant: a folder is loaded at most
// once per process, and a folder missing a half is refused with one line naming it.
import { pathToFileURL } from 'node:url';
import type { KindModuleInput } from '../../shared/kinds/kind';
import { registerKind } from '../../shared/kinds/registry';
import { kindFolders, kindHalf } from './folders';
import type { MainKindManifest } from './manifest';
import { registerLabKinds, registerMainManifest } from './manifests';

const loaded = new Set<string>();

async function defaultExport<T>(path: string): Promise<T> {
  const mod = (await import(pathToFileURL(path).href)) as { default?: T };
  if (!mod.default) throw new Error(`SPLATLAB_KINDS: ${path} has no default export`);
  return mod.default;
}

/** Registers the lab's own kinds (once), then the shared and main halves of every folder of `SPLATLAB_KINDS` not loaded yet. */
export async function loadKindPlugins(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  registerLabKinds();
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
