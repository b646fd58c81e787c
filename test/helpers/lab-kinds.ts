// Setup of the unit suite's Node project and of the e2e suite (vitest.config.ts,
// vitest.e2e.config.ts): registers the lab's own kinds from their main manifests
// (src/main/kinds/manifests.ts registerLabKinds) before a test file runs, as every entry point of
// the lab does first (src/main/splatlab.ts through loadKindPlugins, src/main/index.ts, Electron's).
// Only for a file that can read a kind registry (./reads-kinds.ts): loading every kind's manifest
// costs a second or two per module graph, which the others have no use for. In the unit suite's
// shared-graph project (vitest.config.ts 'node-shared') the first such file of a worker pays it and
// the rest find the kinds registered (registerLabKinds registers each once per process).
import { expect } from 'vitest';
import { readsKinds } from './reads-kinds';

if (readsKinds(expect.getState().testPath)) {
  const { registerLabKinds } = await import('../../src/main/kinds/manifests');
  registerLabKinds();
}
