// Setup of the unit suite's Node project and of the e2e suite (vitest.config.ts,
// vitest.e2e.config.ts): registers the lab's own kinds from their main manifests
// (src/main/kinds/manifests.ts registerLabKinds) before a test file runs, as every entry point of
// the lab does first (src/main/splatlab.ts through loadKindPlugins, src/main/index.ts, Electron's).
// Only for a file that can read a kind registry (./reads-kinds.ts): loading every kind's manifest
// costs a second or two per file, which the others have no use for.
import { expect } from 'vitest';
import { readsKinds } from './reads-kinds';

if (readsKinds(expect.getState().testPath)) {
  const { registerLabKinds } = await import('../../src/main/kinds/manifests');
  registerLabKinds();
}
