// The UI's task list is the task registry: in a real Chromium against `splatlab serve` over the
// committed tasks folder, the rows of the first screen carry (and show) exactly the entries that
// `splatlab tasks --json` prints: id, kind, family, budgets, split, source and content hash.
// Screenshot: test-results/task-registry.png, for a person to look at.
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { TaskEntrySchema } from '../../src/shared/task/registry';
import { runCli } from '../main/cli/run';

const skip = browserMissing();
const TASKS = resolve(__dirname, '../../tasks');

describe.skipIf(skip)('the task list is the registry (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;

  beforeAll(async () => {
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: TASKS });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('shows every entry of splatlab tasks --json, equal field by field', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('task-row').first().waitFor();
    const rows = await page.getByTestId('task-row').evaluateAll((els) =>
      els.map((el) => ({
        entry: JSON.parse(el.getAttribute('data-entry') ?? 'null') as unknown,
        split: el.querySelector('[data-testid="task-split"]')?.textContent?.trim() ?? '',
        hash: el.querySelector('[data-testid="task-hash"]')?.textContent?.trim() ?? '',
      })),
    );
    const cli = await runCli('tasks', ['--json', '--tasks', TASKS]);
    expect(cli.code).toBe(0);
    const entries = TaskEntrySchema.array().parse(JSON.parse(cli.out.join('\n')));
    const shown = TaskEntrySchema.array().parse(rows.map((r) => r.entry));
    const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    expect([...shown].sort(byId)).toEqual([...entries].sort(byId));
    // What a person reads agrees with the entry it carries.
    for (const [i, r] of rows.entries()) {
      expect(r.split).toBe(shown[i].split);
      expect(r.hash).toBe(shown[i].content_hash.slice(0, 12));
    }
    await page.screenshot({ path: join(RESULTS_DIR, 'task-registry.png') });
    expect(errors).toEqual([]);
  }, 180_000);
});
