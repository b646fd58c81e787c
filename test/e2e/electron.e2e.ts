// The same first-screen check against the Electron window, where the binary and a display exist
// (users' machines). Build machines have neither, so this file skips there with the reason.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { _electron as electron } from 'playwright-core';
import { displayAvailable, findElectron } from '../../src/main/app/electron-binary';
import { repoRoot } from '../../src/main/io/data-dir';
import { RESULTS_DIR } from './harness';

const probe = findElectron();
const runnable = Boolean(probe.binary) && displayAvailable();

describe.skipIf(!runnable)(`first screen (Electron${runnable ? '' : `: skipped, ${probe.reason || 'no display'}`})`, () => {
  it('opens the hardened window with the task list over IPC', async () => {
    const app = await electron.launch({ executablePath: probe.binary as string, args: [repoRoot()] });
    try {
      const page = await app.firstWindow();
      await page.getByTestId('task-list').waitFor();
      expect(await page.getByTestId('gpu-status').textContent()).toMatch(/GPU:/);
      expect(await page.locator('.version').textContent()).toContain('desktop');
      // The sandboxed page must not see Node.
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
      await page.screenshot({ path: join(RESULTS_DIR, 'first-screen-electron.png') });
    } finally {
      await app.close();
    }
  });
});
