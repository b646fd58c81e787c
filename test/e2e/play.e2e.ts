// The human player's episode in a real Chromium against `splatlab serve`: open the test task,
// place Gaussians by dragging the gizmo with the mouse, commit, render, undo a staged edit,
// submit; then check the trajectory on disk and that no LabApi message carried hidden data.
// A second test opens protocol `free` with WebGPU for the live preview. Screenshots go to
// test-results/play-*.png for a person to look at.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { dragGizmoAxis } from './viewport-helpers';
import { readTrajectory } from '../../src/main/env/trajectory';

const skip = browserMissing();

/** What would betray held-out data in a message to the player (images stripped first). */
const HIDDEN = [/\bH[0-7]\b/, /hidden/i, /anchors/i, /score/i, /heldout/i, /"fit"/i, /"lpips"/i, /"psnr"\s*:/i];

function stripImages(text: string): string {
  return text.replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/g, '<png>');
}

/** The slice of a browser canvas the pixel check uses (this file compiles without the DOM lib). */
interface Canvas2d {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}

async function stagedCount(page: Page): Promise<number> {
  return page.locator('[data-testid="staged-ops"] li').count();
}

describe.skipIf(skip)('play an episode (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    ({ serve, home } = await startTestLab('splatlab-play-e2e-'));
    browser = await launchBrowser({ webgpu: true });
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('plays test__sculpt with the gizmo, commits, renders, undoes, submits; the log matches', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    const errors: string[] = [];
    const frames: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
    await page.goto(serve.url);
    await page.getByTestId('play-test__sculpt').click();
    await page.getByTestId('play-start-form').waitFor();
    expect(await page.getByTestId('play-task').inputValue()).toBe('test__sculpt');
    await page.getByTestId('play-start').click();
    await page.getByTestId('budget-meter').waitFor();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 40/40');
    await page.getByTestId('ref-V0').waitFor();
    await page.screenshot({ path: join(RESULTS_DIR, 'play-start.png') });

    // A sphere at the view centre, dragged along +X with the gizmo's red arrow.
    await page.getByTestId('add-sphere').click();
    expect(await stagedCount(page)).toBe(1);
    await dragGizmoAxis(page, 'x', 90, 'splatlabViewport');
    expect(await stagedCount(page)).toBe(2);
    const x = Number(await page.getByTestId('insp-pos-0').inputValue());
    expect(x).toBeGreaterThan(0.1);
    await page.screenshot({ path: join(RESULTS_DIR, 'play-staged.png') });
    await expect.poll(() => page.getByTestId('commit-plan').textContent()).toContain('add_gaussians');
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    expect(await stagedCount(page)).toBe(0);

    // A reload re-attaches to the live episode: budgets, scene and log come back.
    await page.reload();
    await page.getByTestId('nav-play').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    expect(await page.getByTestId('log-entry').count()).toBe(2);

    // A disc dragged up along Z, then the drag undone with Ctrl+Z: only the add stays.
    await page.getByTestId('add-disc').click();
    await dragGizmoAxis(page, 'z', 70, 'splatlabViewport');
    expect(await stagedCount(page)).toBe(2);
    expect(Number(await page.getByTestId('insp-pos-2').inputValue())).toBeGreaterThan(0.05);
    await page.locator('body').press('Control+z');
    expect(await stagedCount(page)).toBe(1);
    expect(Number(await page.getByTestId('insp-pos-2').inputValue())).toBeCloseTo(0, 6);
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-gaussians').textContent()).toContain('2/300');

    // Alt-drag a box over the whole viewport: both Gaussians selected; Escape clears.
    const box = await page.getByTestId('viewport-canvas').boundingBox();
    if (!box) throw new Error('no viewport canvas');
    await page.keyboard.down('Alt');
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width - 5, box.y + box.height - 5, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Alt');
    await expect.poll(() => page.getByTestId('inspector').textContent()).toContain('2 Gaussians');

    // render_views of the four checked views: one call, one render, an image in the log.
    await page.getByTestId('tool-render-views').click();
    await expect.poll(() => page.getByTestId('budget-renders').textContent(), { timeout: 60_000 }).toContain('renders left 15/16');
    await expect.poll(() => page.locator('[data-testid="log-entry"] img').count()).toBe(2);
    await page.screenshot({ path: join(RESULTS_DIR, 'play-render.png') });

    await page.getByTestId('help-button').click();
    await page.getByTestId('help').waitFor();
    await page.screenshot({ path: join(RESULTS_DIR, 'play-help.png') });
    await page.keyboard.press('Escape');

    await page.getByTestId('tool-submit').click();
    await page.getByTestId('submit-yes').click();
    await page.getByTestId('play-submitted').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('play-view').textContent()).not.toMatch(/score\s*[:=]?\s*\d/i);
    await page.screenshot({ path: join(RESULTS_DIR, 'play-submitted.png') });

    const dir = join(home, 'trajectories');
    const files = readdirSync(dir).filter((f) => f.startsWith('test__sculpt-') && f.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    const log = readTrajectory(join(dir, files[0]));
    expect(log.header).toMatchObject({ task: 'test__sculpt', protocol: 'matched' });
    expect(log.steps.map((s) => s.tool)).toEqual(['reset', 'add_gaussians', 'add_gaussians', 'render_views', 'submit']);
    const firstAdd = log.steps[1].args as { gaussians: { pos: number[]; scale: number[] }[] };
    expect(firstAdd.gaussians).toHaveLength(1);
    expect(firstAdd.gaussians[0].pos[0]).toBeCloseTo(x, 3);
    expect(firstAdd.gaussians[0].scale).toEqual([0.08, 0.08, 0.08]);
    const disc = (log.steps[2].args as { gaussians: { pos: number[]; scale: number[] }[] }).gaussians[0];
    expect(disc.pos[2]).toBeCloseTo(0, 6);
    expect(disc.scale).toEqual([0.15, 0.15, 0.02]);
    expect(log.steps.map((s) => s.text.split('\n').pop())).toEqual([
      '[0/300 Gaussians | calls left 40 | renders left 16]',
      '[1/300 Gaussians | calls left 39 | renders left 16]',
      '[2/300 Gaussians | calls left 38 | renders left 16]',
      '[2/300 Gaussians | calls left 37 | renders left 15]',
      '[2/300 Gaussians | calls left 36 | renders left 15]',
    ]);
    expect(log.steps.every((s) => s.ms >= 0 && !Number.isNaN(Date.parse(s.t)))).toBe(true);
    expect(log.end).toMatchObject({ reason: 'submit', calls_used: 4, renders_used: 1 });

    expect(frames.length).toBeGreaterThanOrEqual(7); // app.info, tasks.list, start, 4 steps
    for (const f of frames) for (const marker of HIDDEN) expect(stripImages(f)).not.toMatch(marker);
    expect(errors).toEqual([]);
  });

  it('free protocol shows the live splat preview (or says why not) and logs the protocol', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-play').click();
    await page.getByTestId('play-protocol').selectOption('free');
    await page.getByTestId('play-task').selectOption('test__reassembly');
    await page.screenshot({ path: join(RESULTS_DIR, 'play-form.png') });
    await page.getByTestId('play-start').click();
    await page.getByTestId('preview').waitFor();
    expect(await page.getByTestId('play-protocol-badge').textContent()).toBe('free');
    await page.getByTestId('snap-V1').click();
    await expect
      .poll(async () => (await page.getByTestId('preview-problem').count()) > 0 || (await page.getByTestId('preview').textContent())?.includes('Live splat preview'), { timeout: 60_000 })
      .toBe(true);
    await page.getByTestId('group-select').selectOption({ index: 1 });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(RESULTS_DIR, 'play-free-preview.png') });
    if ((await page.getByTestId('preview-problem').count()) === 0) {
      // The preview drew the scrambled scene: some pixels are not the white background.
      const inked = await page.getByTestId('preview-canvas').evaluate((el) => {
        const c = el as unknown as Canvas2d;
        const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) n++;
        return n;
      });
      expect(inked).toBeGreaterThan(200);
    }
    await page.getByText('overlay the photo when snapped').click();
    await page.getByRole('button', { name: /Light theme/ }).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(RESULTS_DIR, 'play-free-light.png') });
    const files = readdirSync(join(home, 'trajectories')).filter((f) => f.startsWith('test__reassembly-'));
    expect(readTrajectory(join(home, 'trajectories', files[0])).header?.protocol).toBe('free');
    expect(errors).toEqual([]);
  });
});
