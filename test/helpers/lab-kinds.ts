// Setup of the unit suite's Node project (vitest.config.ts): registers the lab's own kinds from
// their main manifests (src/main/kinds/manifests.ts registerLabKinds) before a test file runs, as
// every entry point of the lab does first (src/main/cli/main.ts through loadKindPlugins,
// src/main/app/context.ts createLab). Only for a file that imports main's code above its lowest
// tiers (docs/ARCHITECTURE.md, "Layers inside a runtime"): loading every kind's manifest costs a
// second or two per file, which the shared, lint and low-tier files have no use for.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** main's tiers below the kinds, whose code never reads a kind registry. */
const BELOW_KINDS = new Set(['io', 'models', 'gpu', 'lpips', 'formats', 'workers', 'raster']);

function readsKinds(testPath: string | undefined): boolean {
  if (!testPath) return true;
  const folders = [...readFileSync(testPath, 'utf8').matchAll(/src\/main\/(\w+)/g)].map((m) => m[1]);
  return folders.some((f) => !BELOW_KINDS.has(f));
}

if (readsKinds(expect.getState().testPath)) {
  const { registerLabKinds } = await import('../../src/main/kinds/manifests');
  registerLabKinds();
}
