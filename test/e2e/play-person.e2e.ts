// The play view as a person uses it, in a real Chromium against `splatlab serve` (issue 10):
// staged edits survive renders (which show the committed scene and say so), a one-shot episode
// offers only "Commit and finish", a numeric group rotation logs exactly rotate_deg 90, a second
// click cycles to a Gaussian inside a bigger one, and a point clicked in two reference photos is
// placed at the triangulated position. Checks read the trajectory on disk and the result text.
// Screenshots for a person to look at go to test-results/person-*.png.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { playViewportReady } from './viewport-helpers';
import { readTrajectory, type Trajectory } from '../../src/main/env/trajectory';
import { projectPoint } from '../../src/shared/camera/triangulate';
import type { CamerasFile } from '../../src/shared/task/schema';
import type { Vec3 } from '../../src/shared/math/vec3';

interface Point {
  x: number;
  y: number;
}

/** Client position of a world point in the 3D viewport. */
async function screenOf(page: Page, p: Vec3): Promise<Point> {
  await playViewportReady(page);
  const at = await page.evaluate((q) => (globalThis as unknown as { splatlabViewport?: { toScreen(p: number[]): Point | null } }).splatlabViewport?.toScreen(q) ?? null, p);
  if (!at) throw new Error('point not on screen');
  return at;
}

async function insp(page: Page, field: 'pos' | 'scale'): Promise<number[]> {
  return Promise.all([0, 1, 2].map(async (i) => Number(await page.getByTestId(`insp-${field}-${i}`).inputValue())));
}

const skip = browserMissing();

async function stagedCount(page: Page): Promise<number> {
  return page.locator('[data-testid="staged-ops"] li').count();
}

/** Silhouette IoU values in the newest log entry's text. */
async function lastIous(page: Page): Promise<number[]> {
  const text = (await page.getByTestId('log-entry').last().textContent()) ?? '';
  return [...text.matchAll(/silhouette IoU (\d+\.\d+)/g)].map((m) => Number(m[1]));
}

describe.skipIf(skip)('the play view as a person uses it', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;
  let tasksDir: string;

  beforeAll(async () => {
    ({ serve, home, tasksDir } = await startTestLab('splatlab-person-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  async function open(task: string, size = { width: 1500, height: 900 }): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: size });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-play').click();
    await page.getByTestId('play-task').selectOption(task);
    await page.getByTestId('play-start').click();
    await page.getByTestId('budget-meter').waitFor();
    return { page, errors };
  }

  function trajectoryOf(task: string): Trajectory {
    const dir = join(home, 'trajectories');
    const files = readdirSync(dir).filter((f) => f.startsWith(`${task}-`) && f.endsWith('.jsonl')).sort();
    return readTrajectory(join(dir, files[files.length - 1]));
  }

  it('keeps staged edits through render_views, which renders the committed scene and says so', async () => {
    const { page, errors } = await open('test__sculpt');
    for (const v of ['V1', 'V2', 'V3']) await page.getByTestId(`rv-${v}`).uncheck();
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('add-sphere').click();
    expect(await stagedCount(page)).toBe(2);
    await expect.poll(() => page.getByTestId('committed-note').textContent()).toContain('2 staged edits not included');
    await page.getByTestId('tool-render-views').click();
    await expect.poll(() => page.getByTestId('budget-renders').textContent(), { timeout: 60_000 }).toContain('renders left 15/16');
    expect(await stagedCount(page)).toBe(2);
    expect(await page.getByTestId('undo').isEnabled()).toBe(true);
    expect(await page.getByTestId('log-not-included').last().textContent()).toContain('2 staged edits not included');
    expect(await lastIous(page)).toEqual([0]); // the committed scene is empty
    await page.screenshot({ path: join(RESULTS_DIR, 'person-render-committed.png') });

    await page.getByTestId('commit-then-render').click();
    // Two calls: asked first (issue 42).
    await page.getByTestId('spend-yes').click();
    await expect.poll(() => page.getByTestId('budget-renders').textContent(), { timeout: 60_000 }).toContain('renders left 14/16');
    expect(await stagedCount(page)).toBe(0);
    const [iou] = await lastIous(page);
    expect(iou).toBeGreaterThan(0.01); // the two spheres now show in the render (0 before)
    expect(trajectoryOf('test__sculpt').steps.map((s) => s.tool)).toEqual(['reset', 'render_views', 'add_gaussians', 'render_views']);
    expect(errors).toEqual([]);
  });

  it('one-shot: only "Commit and finish" is enabled, and it sends the single call', async () => {
    const { page, errors } = await open('test__oneshot');
    for (const id of ['tool-render-views', 'tool-render-angle', 'tool-view-references', 'tool-list', 'tool-describe', 'tool-submit']) {
      expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
    }
    expect(await page.getByTestId('oneshot-reason').textContent()).toContain('single tool call');
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('add-disc').click();
    expect(await page.getByTestId('commit').textContent()).toContain('Commit and finish');
    await page.screenshot({ path: join(RESULTS_DIR, 'person-oneshot.png') });
    await page.getByTestId('commit').click();
    await page.getByTestId('play-submitted').waitFor({ timeout: 60_000 });
    const log = trajectoryOf('test__oneshot');
    expect(log.steps.map((s) => s.tool)).toEqual(['reset', 'add_gaussians']);
    expect(log.header).toMatchObject({ protocol: 'matched', protocol_options: { outline_overlay: true } });
    expect((log.steps[1].args as { gaussians: unknown[] }).gaussians).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  it('a numeric group rotation of 90 degrees (15 degree snapping) logs exactly rotate_deg: 90', async () => {
    const { page, errors } = await open('test__reassembly');
    const group = await page.locator('[data-testid="outliner"] [data-testid^="ol-select-"]').first().textContent();
    if (!group) throw new Error('no group in the outliner');
    await page.getByTestId(`ol-select-${group}`).click();
    await page.getByTestId('gt-rot-z').fill('50');
    await page.getByTestId('gt-rot-z').press('Tab');
    expect(await page.getByTestId('gt-call').textContent()).toBe(`transform_group {"group":"${group}","rotate_deg":45}`);
    await page.getByTestId('gt-rot-z').fill('90');
    await page.getByTestId('gt-rot-z').press('Tab');
    await page.getByTestId('gt-apply').click();
    await expect.poll(() => page.getByTestId('gt-readout').textContent()).toContain('heading change +90° about Z');
    await page.screenshot({ path: join(RESULTS_DIR, 'person-outliner-1500.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(RESULTS_DIR, 'person-outliner-1280.png') });
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    const step = trajectoryOf('test__reassembly').steps[1];
    expect(step.tool).toBe('transform_group');
    expect(step.args).toEqual({ group, rotate_deg: 90 });
    expect(errors).toEqual([]);
  });

  it('a second click at the same place cycles to a Gaussian inside a bigger one', async () => {
    const { page, errors } = await open('test__sculpt');
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('insp-lock').check();
    await page.getByTestId('insp-scale-0').fill('0.02');
    await page.getByTestId('insp-scale-0').press('Tab');
    expect(await insp(page, 'scale')).toEqual([0.02, 0.02, 0.02]);
    // Out of range: refused inline, nothing staged.
    const staged = await stagedCount(page);
    await page.getByTestId('insp-pos-0').fill('2');
    await page.getByTestId('insp-pos-0').press('Tab');
    expect(await page.getByTestId('insp-problem').textContent()).toContain('outside [-1.25, 1.25]');
    expect(await stagedCount(page)).toBe(staged);
    await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { blur(): void } | null } }).document.activeElement?.blur());
    await page.locator('body').press('Escape');
    await expect.poll(() => page.getByTestId('inspector').textContent()).toContain('Nothing selected');
    const c = await screenOf(page, [0, 0, 0]);
    await page.mouse.click(c.x, c.y);
    await expect.poll(() => page.getByTestId('inspector').textContent()).toContain('Gaussian #0');
    await page.mouse.click(c.x, c.y);
    await expect.poll(() => page.getByTestId('inspector').textContent()).toContain('Gaussian #1');
    expect(await insp(page, 'scale')).toEqual([0.02, 0.02, 0.02]);
    await page.mouse.click(c.x, c.y);
    await expect.poll(() => page.getByTestId('inspector').textContent()).toContain('Gaussian #0');
    // Typing a value and clicking Commit straight away: the click is not lost and the value goes out.
    await page.getByTestId('insp-opacity').fill('0.5');
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    const add = trajectoryOf('test__sculpt').steps[1].args as { gaussians: { opacity?: number; scale: number[] }[] };
    expect(add.gaussians.map((g) => g.opacity ?? 1)).toEqual([0.5, 1]);
    expect(errors).toEqual([]);
  });

  it('a second episode in the same page gets the same 3D viewport back, reset: empty scene, translate mode', async () => {
    // The viewport is built once per page (src/renderer/viewport/kept-viewport.ts, issue 40 item 3).
    const { page, errors } = await open('test__sculpt');
    await playViewportReady(page);
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('mode-rotate').click();
    await page.getByTestId('viewport-canvas').evaluate((el) => (el as unknown as { setAttribute(k: string, v: string): void }).setAttribute('data-episode', 'first'));
    await page.getByTestId('play-leave').click();
    await page.getByTestId('leave-yes').click();
    await page.getByTestId('nav-play').click();
    await page.getByTestId('play-task').selectOption('test__sculpt');
    await page.getByTestId('play-start').click();
    await page.getByTestId('budget-meter').waitFor();
    await playViewportReady(page);
    expect(await page.getByTestId('viewport-canvas').count()).toBe(1);
    expect(await page.getByTestId('viewport-canvas').getAttribute('data-episode')).toBe('first');
    const probe = (): Promise<{ mode: string; drawn: number }> =>
      page.evaluate(() => {
        const v = (globalThis as unknown as { splatlabViewport: { mode: string; screenCentres(): unknown[] } }).splatlabViewport;
        return { mode: v.mode, drawn: v.screenCentres().length };
      });
    expect(await probe()).toEqual({ mode: 'translate', drawn: 0 });
    await page.getByTestId('add-sphere').click();
    expect((await probe()).drawn).toBe(1);
    // The new sphere at the view centre lands inside the visible canvas.
    const at = await screenOf(page, [0, 0, 0]);
    const box = await page.getByTestId('viewport-canvas').boundingBox();
    if (!box) throw new Error('no canvas box');
    expect(at.x).toBeGreaterThan(box.x);
    expect(at.x).toBeLessThan(box.x + box.width);
    expect(at.y).toBeGreaterThan(box.y);
    expect(at.y).toBeLessThan(box.y + box.height);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('places a Gaussian at the point clicked in two reference photos (within 0.02)', async () => {
    const { page, errors } = await open('test__sculpt');
    const cams = JSON.parse(readFileSync(join(tasksDir, 'objects', 'test', 'cameras.json'), 'utf8')) as CamerasFile;
    const target: Vec3 = [0.1, -0.15, 0.3];
    await page.getByTestId('photo-tools-toggle').click();
    await page.getByTestId('pt-view-0').selectOption({ label: 'V0' });
    await page.getByTestId('pt-view-1').selectOption({ label: 'V2' });
    for (const [slot, name] of [[0, 'V0'], [1, 'V2']] as const) {
      const cam = cams.reference.find((v) => v.name === name)?.camera;
      const px = cam ? projectPoint(cam, target) : null;
      const box = await page.getByTestId(`pt-photo-${slot}`).boundingBox();
      if (!cam || !px || !box) throw new Error('no photo or camera');
      await page.mouse.click(box.x + (px.u / cam.width) * box.width, box.y + (px.v / cam.height) * box.height);
    }
    await expect.poll(() => page.getByTestId('pt-result').textContent()).toContain('point [');
    await page.screenshot({ path: join(RESULTS_DIR, 'person-photo-tools.png') });
    await page.getByTestId('pt-place').click();
    const pos = await insp(page, 'pos');
    expect(Math.hypot(...pos.map((x, i) => x - target[i]))).toBeLessThan(0.02);
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    const add = trajectoryOf('test__sculpt').steps[1].args as { gaussians: { pos: number[] }[] };
    expect(Math.hypot(...add.gaussians[0].pos.map((x, i) => x - target[i]))).toBeLessThan(0.02);

    // The render viewer: full-size panels, blink, Escape closes.
    await page.getByTestId('photo-tools-toggle').click();
    await page.getByTestId('tool-render-views').click();
    await expect.poll(() => page.getByTestId('budget-renders').textContent(), { timeout: 60_000 }).toContain('renders left 15/16');
    await page.getByTestId('open-viewer').click();
    await page.getByTestId('viewer-render').waitFor();
    expect(await page.getByTestId('viewer-metrics').textContent()).toMatch(/^V0: PSNR [\d.]+ dB, SSIM [\d.]+, silhouette IoU [\d.]+$/);
    await page.getByTestId('viewer-zoom').selectOption('2');
    const w = await page.getByTestId('viewer-render').evaluate((el) => {
      const img = el as unknown as { naturalWidth: number; clientWidth: number };
      return { naturalWidth: img.naturalWidth, clientWidth: img.clientWidth };
    });
    expect([w.naturalWidth, w.clientWidth]).toEqual([64, 128]); // one photo pixel = 2 screen pixels at 2x
    await page.screenshot({ path: join(RESULTS_DIR, 'person-viewer-1500.png') });
    await page.getByTestId('viewer-blink').click();
    await page.getByTestId('viewer-blink-img').waitFor();
    await page.getByTestId('viewer-side').click();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('viewer-zoom').selectOption('3');
    await page.screenshot({ path: join(RESULTS_DIR, 'person-viewer-1280.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('render-viewer').count()).toBe(0);
    await page.getByTestId('snap-V1').click();
    await page.getByTestId('photo-overlay').waitFor();
    await page.screenshot({ path: join(RESULTS_DIR, 'person-play-1280.png') });
    expect(errors).toEqual([]);
  });
});
