// Unit test projects: shared + main run in Node, the renderer in happy-dom.
// The end-to-end suite has its own config (vitest.e2e.config.ts) because it needs a built UI.
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { splatlabKinds } from './src/main/kinds/vite-kinds';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/shared/**/*.test.ts', 'test/main/**/*.test.ts', 'test/lint/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [vue(), splatlabKinds()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/renderer/**/*.test.ts'],
        },
      },
    ],
  },
});
