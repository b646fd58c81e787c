// Vitest config for mutation runs only (docs/MUTATION.md): the node project of vitest.config.ts,
// restricted to the test globs that test/mutation/run.ts passes in SPLATLAB_MUTATION_TESTS
// (comma-separated), so Stryker's dry run and per-test coverage see one folder's tests, not the suite.
// The tests run in the forks pool (the one `npm test` uses): Stryker's Vitest runner creates Vitest
// with `pool: 'threads'`, which overrides a project's `pool`, so the project's plugin sets it back
// on the resolved project (Vitest's `configureVitest` hook, after the options are merged). Dawn (the
// `webgpu` package) creates no device in a worker thread: under threads every GPU test would skip
// and every GPU mutant would go uncovered.
import { defineConfig } from 'vitest/config';

const include = (process.env.SPLATLAB_MUTATION_TESTS ?? '').split(',').filter((g) => g.length > 0);
if (include.length === 0) throw new Error('vitest.mutation.config.ts: SPLATLAB_MUTATION_TESTS is empty (run it through `npm run mutation`)');

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [{ name: 'splatlab-mutation-forks', configureVitest: ({ project }) => { project.config.pool = 'forks'; } }],
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
