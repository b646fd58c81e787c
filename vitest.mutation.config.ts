// Vitest config for mutation runs only (docs/MUTATION.md): the node project of vitest.config.ts,
// restricted to the test globs that test/mutation/run.ts passes in SPLATLAB_MUTATION_TESTS
// (comma-separated), so Stryker's dry run and per-test coverage see one folder's tests, not the suite.
// The tests sit in a project with `pool: 'forks'` (the pool `npm test` uses): Stryker's Vitest
// runner passes `pool: 'threads'` as a top-level option, which a project's own pool overrides, and
// Dawn (the `webgpu` package) cannot create a device in a worker thread, so under threads every
// GPU test would skip and every GPU mutant would go uncovered.
import { defineConfig } from 'vitest/config';

const include = (process.env.SPLATLAB_MUTATION_TESTS ?? '').split(',').filter((g) => g.length > 0);
if (include.length === 0) throw new Error('vitest.mutation.config.ts: SPLATLAB_MUTATION_TESTS is empty (run it through `npm run mutation`)');

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'mutation',
          pool: 'forks',
          environment: 'node',
          include,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
