// End-to-end suite: starts `splatlab serve` and drives the UI in a real Chromium (and Electron
// where its binary exists). Each file owns its server (on a free port, over its own temp home and
// tasks folder) and its browser, so two files run side by side: a file spends most of its time
// waiting on its server or its page (a serial run on 2 cores used about 300 s of CPU in 410 s),
// so on the 2-core CI machine two at a time keep the cores busy (three at a time was faster but
// had a failed poll in its one full run; two had a green one) (docs/DEVELOPING.md,
// "Test-suite time"). The one file that compares the lab's clock with the
// script's own within 1 s (person-time) is a project of its own, which `npm test` runs before the
// others, with no other e2e file beside it (scripts/test-all.mjs); a plain `vitest run` of this
// config runs it in a group of its own at the end. The slowest files start first.
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/helpers/slow-first';

const ALONE = ['test/e2e/person-time.e2e.ts'];
// expect.poll's own default gives a state 1 s to appear, which a loaded machine misses (a page
// that takes 2 s to enable a button): every poll waits up to 60 s instead, as do the files' own
// explicit waits (a poll that passes returns at once, so the long limit costs a green run nothing;
// `npm test` runs this suite beside the type checks and the lint, scripts/test-all.mjs).
// The lab's kinds registered from their manifests for a file that runs main's code in process (test/helpers/lab-kinds.ts).
const shared = { environment: 'node', setupFiles: './test/helpers/lab-kinds.ts', testTimeout: 180_000, hookTimeout: 120_000, expect: { poll: { timeout: 60_000 } } } as const;

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      // One module graph per worker, not one per file (isolate: false): a file's own process and
      // imports (vitest, the Playwright client, the harness) cost about 0.8 CPU s of the 3.5 a
      // file spends before its first check (docs/DEVELOPING.md, "Test-suite time"). The files keep
      // nothing between them: each owns its temp folders and server, leases the worker's browser
      // (test/e2e/harness.ts) and closes them, and sets the environment only through withEnv
      // (test/helpers/env.ts), which puts it back (test/lint/shared-graph.test.ts).
      { test: { ...shared, name: 'e2e', include: ['test/e2e/**/*.e2e.ts'], exclude: ALONE, maxWorkers: 2, isolate: false } },
      { test: { ...shared, name: 'e2e-alone', include: ALONE, fileParallelism: false } },
    ],
  },
});
