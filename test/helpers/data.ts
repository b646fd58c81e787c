// The test suite's shared data folder (../shared/DESIGN.md: LPIPS vectors, the NeRF-Synthetic lego
// capture): $SPLATLAB_DATA_DIR, else ../shared/data beside the checkout. Only tests look there; the
// lab's own default is <lab home>/data (src/main/io/data-dir.ts, issue 38 item 8).
import { resolve } from 'node:path';
import { repoRoot } from '../../src/main/io/data-dir';

export function testDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SPLATLAB_DATA_DIR ? resolve(env.SPLATLAB_DATA_DIR) : resolve(repoRoot(), '..', 'shared', 'data');
}
