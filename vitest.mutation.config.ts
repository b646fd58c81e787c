// Vitest config for mutation runs only (docs/MUTATION.md): the node project of vitest.config.ts,
// restricted to the test globs that test/mutation/run.ts passes in SPLATLAB_MUTATION_TESTS
// (comma-separated), so Stryker's dry run and per-test coverage see one folder's tests, not the suite.
import { defineConfig } from 'vitest/config';

const include = (process.env.SPLATLAB_MUTATION_TESTS ?? '').split(',').filter((g) => g.length > 0);
if (include.length === 0) throw new Error('vitest.mutation.config.ts: SPLATLAB_MUTATION_TESTS is empty (run it through `npm run mutation`)');

export default defineConfig({
  test: {
    environment: 'node',
    include,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
