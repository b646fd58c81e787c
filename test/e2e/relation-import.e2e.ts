// Issue 35: a block of SpaRRTa-layout images played by keyboard in a real Chromium against
// `splatlab serve`. A small forest dataset is exported in SpaRRTa's layout, imported back with
// `splatlab relation import --format sparrta` (the CLI), and `splatlab relation block
// --display-px 336` makes an 8-trial block of the imported images; the Play screen plays it by
// the arrow keys only. Every trial shows the imported 224 px image at 336 px (the scale on the
// element, the image's own size as decoded by the browser), and the log holds the 8 answers.
// Screenshot: test-results/relation-import-trial.png.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { readTrajectory } from '../../src/main/env/trajectory';
import { RelationEndSchema } from '../../src/shared/kinds/relation/kind';
import { DatasetConfigSchema } from '../../src/shared/kinds/relation/dataset';
import { generateDataset } from '../../src/main/kinds/relation/generate';
import { exportDataset } from '../../src/main/kinds/relation/export';

const skip = browserMissing();
const KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
const BLOCK = 'relation__block__sparrta';

function cli(args: string[]): string {
  const r = spawnSync(process.execPath, ['src/main/cli/splatlab.mjs', ...args], { cwd: process.cwd(), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`splatlab ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

function findLog(dir: string, name: string): string | null {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const hit = findLog(p, name);
      if (hit) return hit;
    } else if (e.name.startsWith(name) && e.name.endsWith('.jsonl')) return p;
  }
  return null;
}

describe.skipIf(skip)('a block of imported SpaRRTa-layout images (browser mode)', () => {
  let serve: ServeProcess | undefined;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    let tasksDir: string;
    ({ serve, home, tasksDir } = await startTestLab('splatlab-relation-import-e2e-'));
    const root = dirname(home);
    const config = DatasetConfigSchema.parse({ seed: 7, environments: ['forest'], counts: { ego: 12, allo: 12 }, splits: [1, 0, 0], samples: 1, allowEmptySplits: true });
    await generateDataset(join(root, 'dataset'), config, { sheets: false });
    exportDataset(join(root, 'dataset'), join(root, 'sparrta'), 'sparrta');
    expect(cli(['relation', 'import', '--format', 'sparrta', join(root, 'sparrta'), '--out', join(root, 'imported')])).toMatch(/imported 24 samples from 6 folders/);
    const block = cli(['relation', 'block', '--dataset', join(root, 'imported'), '--name', 'sparrta', '--tasks', tasksDir, '--split', 'train',
      '--per-cell', '1', '--practice', '0', '--catch', '0', '--display-px', '336', '--fixation-ms', '200']);
    expect(block).toMatch(/images 224x224 shown at 336 px \(x1\.50\)/);
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('plays the 8 imported trials by keyboard, each image at the block\'s size', async () => {
    if (!serve) throw new Error('no server');
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-play').click();
    await page.getByTestId('play-task').selectOption(BLOCK);
    await page.getByTestId('play-start').click();
    for (let n = 1; n <= 8; n++) {
      const ready = page.locator(`[data-testid="relation-trial"][data-trial="${n}"][data-ready="true"]`);
      await ready.waitFor({ timeout: 60_000 });
      const img = page.getByTestId('relation-image');
      expect(await img.getAttribute('data-scale')).toBe('1.500');
      expect(await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight, el.getBoundingClientRect().width])).toEqual([224, 224, 336]);
      if (n === 1) await page.screenshot({ path: join(RESULTS_DIR, 'relation-import-trial.png') });
      await page.keyboard.press(KEYS[n % 4]);
    }
    await page.getByTestId('play-submitted').waitFor();
    const log = findLog(home, BLOCK);
    expect(log).not.toBeNull();
    const end = RelationEndSchema.parse(readTrajectory(log!).end);
    expect(end.trials).toHaveLength(8);
    expect(end.trials.every((t) => t.answer !== null && t.rt_ms !== null)).toBe(true);
    expect(new Set(end.trials.map((t) => t.task))).toEqual(new Set(['ego', 'allo']));
    expect(errors).toEqual([]);
  });
});
