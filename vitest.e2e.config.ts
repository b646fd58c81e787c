// End-to-end suite: starts `splatlab serve` and drives the UI in a real Chromium (and Electron
// where its binary exists). Runs files one at a time because each owns a server and a browser.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/e2e/**/*.e2e.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
