// Builds the three runtimes into out/: main (ESM, Node, plus the worker pool's thread entry
// out/main/pool-worker.js, found next to the bundle by src/main/workers/worker-entry.ts),
// preload (one CommonJS file, as a sandboxed preload must be), renderer (the Vue app, also
// served as-is by `splatlab serve`).
import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import vue from '@vitejs/plugin-vue';
import { splatlabKinds } from './src/main/kinds/vite-kinds';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts'), 'pool-worker': resolve(__dirname, 'src/main/threads/pool-worker.ts') },
        // Chunks beside the entries, so every module's import.meta.url resolves ./pool-worker.js.
        output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    // splatlabKinds: the kinds of SPLATLAB_KINDS folders, bundled beside the lab's own (src/main/kinds/plugins.ts).
    plugins: [vue(), splatlabKinds()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
      chunkSizeWarningLimit: 2048,
    },
  },
});
