// Unit test projects: shared + main run in Node (two projects: a module graph per worker, and one
// per file for the files that need it), the renderer in happy-dom.
// The end-to-end suite has its own config (vitest.e2e.config.ts) because it needs a built UI.
// Workers: vitest's default is one fewer than the cores, which on the 2-core CI machine is one
// worker for the whole suite (some 370 files); three keep both cores busy, since many files wait on
// child processes, servers and pools (docs/DEVELOPING.md, "Test-suite time"). The
// sequencer starts the files known to be slow first, so none of them is left for the end.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { splatlabKinds } from './src/main/kinds/vite-kinds';
import { SlowFirstSequencer } from './test/helpers/slow-first';
import { ISOLATED_FILES } from './test/helpers/isolated-files';

/** What both Node projects share: their setup, and the waits of a loaded machine. */
const nodeTest = {
  environment: 'node' as const,
  // Which optional parts (GPU adapter, Redis, Python, LPIPS) ran: printed after the run.
  globalSetup: ['./test/helpers/optional-setup.ts'],
  // The lab's kinds registered from their manifests, as every entry point does first.
  setupFiles: ['./test/helpers/lab-kinds.ts'],
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // expect.poll waits for a state up to 30 s (its default of 1 s is an idle machine's).
  expect: { poll: { timeout: 30_000 } },
};
const NODE_FILES = ['test/shared/**/*.test.ts', 'test/main/**/*.test.ts', 'test/lint/**/*.test.ts'];

export default defineConfig({
  test: {
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        // The files that change what a later file in the same process would see (the process's
        // environment, a kind, a fixture built once per process, a mock, the clock, the peak
        // memory) and the slowest: each in its own module graph (test/helpers/isolated-files.ts).
        test: { ...nodeTest, name: 'node', include: [...ISOLATED_FILES] },
      },
      {
        // The rest share one module graph per worker, as the renderer project does: a file's own
        // graph cost about 0.5 CPU s, and loading the kinds' manifests a second more, in every
        // file that reads a registry. They keep no state between them (each makes its own temp
        // folders, servers and pools and closes them); they pass in vitest's order, in two
        // shuffled file orders and on one worker (docs/DEVELOPING.md, "Test-suite time").
        test: { ...nodeTest, name: 'node-shared', isolate: false, include: NODE_FILES, exclude: [...ISOLATED_FILES] },
      },
      {
        plugins: [vue(), splatlabKinds()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          // One module graph per worker instead of one per file: a renderer file spent about 1.7 CPU s
          // importing happy-dom and Vue and some 0.3 s in its tests (the project: 57 CPU s isolated,
          // 14 shared). Its files keep no state between them (each mounts its own components, with a
          // fresh Pinia where it reads stores); they pass in vitest's order, in two shuffled ones and on one worker
          // (docs/DEVELOPING.md, "Test-suite time").
          isolate: false,
          include: ['test/renderer/**/*.test.ts'],
        },
      },
    ],
  },
});
