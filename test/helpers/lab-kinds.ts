// Setup of the unit suite's Node project (vitest.config.ts): registers the lab's own kinds from
// their main manifests (src/main/kinds/manifests.ts registerLabKinds) before a test file runs, as
// every entry point of the lab does first (src/main/splatlab.ts through loadKindPlugins,
// src/main/index.ts, Electron's). Only for a file that imports main's code above its lowest
// tiers (docs/ARCHITECTURE.md, "Layers inside a runtime"): loading every kind's manifest costs a
// second or two per file, which the shared, lint and low-tier files have no use for.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expect } from 'vitest';

/** main's tiers below the kinds, whose code never reads a kind registry. */
const BELOW_KINDS = new Set(['io', 'models', 'gpu', 'lpips', 'formats', 'workers', 'raster']);

/** Whether a test file, or a helper of test/ it imports (followed two deep), imports main above those tiers. */
function readsKinds(testPath: string | undefined, depth = 2): boolean {
  if (!testPath) return true;
  const code = readFileSync(testPath, 'utf8');
  if ([...code.matchAll(/src\/main\/(\w+)/g)].some((m) => !BELOW_KINDS.has(m[1]))) return true;
  if (depth === 0) return false;
  const helpers = [...code.matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) => resolve(dirname(testPath), m[1]) + '.ts');
  return helpers.some((h) => existsSync(h) && readsKinds(h, depth - 1));
}

if (readsKinds(expect.getState().testPath)) {
  const { registerLabKinds } = await import('../../src/main/kinds/manifests');
  registerLabKinds();
}
