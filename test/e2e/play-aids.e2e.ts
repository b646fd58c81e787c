// The play view's aids as a person uses them (issue 30, items 1-4 and 8), in a real Chromium
// against `splatlab serve` at 1280x720: a placement from two photos whose clicks are the
// projections of a known point through the task's own public cameras lands within 0.02 of it,
// and neither photo moves between the clicks; Esc cancels a pending click; colour sampling with
// a selection stages exactly one edit; a fill inherits the selection's colour and group; a typed
// 20 degree group rotation shows 15 before staging and is sent as 15; a reload comes back to the
// episode; 150 more Gaussians are drawn as dots by default. Screenshots at 1280x720 and 1920x1080 go to test-results/play-aids-*.png.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { startFreeEpisode } from './study-flow';
import { readTrajectory } from '../../src/main/env/trajectory';
import { projectPoint } from '../../src/shared/camera/triangulate';
import type { Camera } from '../../src/shared/raster/types';
import type { Vec3 } from '../../src/shared/math/vec3';

const skip = browserMissing();

interface View {
  name: string;
  camera: Camera;
}

/** The task's reference views and their public cameras (what the episode shows the player). */
function referenceViews(tasksDir: string): View[] {
  return (JSON.parse(readFileSync(join(tasksDir, 'objects', 'test', 'cameras.json'), 'utf8')) as { reference: View[] }).reference;
}

async function box(page: Page, id: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await page.getByTestId(id).boundingBox();
  if (!b) throw new Error(`${id} is not on screen`);
  return b;
}

/** Clicks photo `slot` at the continuous pixel (u, v) of its camera (through the photo's zoom window). */
async function clickPixel(page: Page, slot: 0 | 1, cam: Camera, p: { u: number; v: number }): Promise<void> {
  const b = await box(page, `pt-photo-${slot}`);
  const [k, ox, oy] = ((await page.getByTestId(`pt-photo-${slot}`).getAttribute('data-window')) ?? '1,0,0').split(',').map(Number);
  await page.mouse.click(b.x + (((p.u - ox) * k) / cam.width) * b.width, b.y + (((p.v - oy) * k) / cam.height) * b.height);
}

/** Zooms photo `slot` by 2^steps about the pixel p with the wheel. */
async function zoomAt(page: Page, slot: 0 | 1, cam: Camera, p: { u: number; v: number }, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) {
    const b = await box(page, `pt-photo-${slot}`);
    const [k, ox, oy] = ((await page.getByTestId(`pt-photo-${slot}`).getAttribute('data-window')) ?? '1,0,0').split(',').map(Number);
    await page.mouse.move(b.x + (((p.u - ox) * k) / cam.width) * b.width, b.y + (((p.v - oy) * k) / cam.height) * b.height);
    await page.mouse.wheel(0, -100);
    await expect.poll(() => page.getByTestId(`pt-zoom-${slot}`).textContent()).toBe(`×${k * 2}`);
  }
}

const stagedCount = (page: Page): Promise<number> => page.locator('[data-testid="staged-ops"] li').count();

describe.skipIf(skip)('play-view aids (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;
  let tasksDir: string;

  beforeAll(async () => {
    ({ serve, home, tasksDir } = await startTestLab('splatlab-play-aids-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('places from two photos that hold still, samples into the selection, fills with its colour and group, snaps a typed 20 degrees', async () => {
    const { page, errors } = await startFreeEpisode(browser, serve.url, 'test__sculpt');
    await page.getByTestId('ref-V0').waitFor();
    await page.screenshot({ path: join(RESULTS_DIR, 'play-aids-1280-start.png') });
    const views = referenceViews(tasksDir);

    // The photo panel sits beside the viewport, not over it.
    const before = await box(page, 'viewport');
    await page.getByTestId('photo-tools-toggle').click();
    const panel = await box(page, 'photo-tools');
    const vp = await box(page, 'viewport');
    expect(panel.x).toBeGreaterThanOrEqual(vp.x + vp.width - 1);
    expect(vp.width).toBeLessThan(before.width);

    // A known point and its pixels in the two chosen photos (their public cameras).
    const names = [await page.getByTestId('pt-view-0').locator('option:checked').textContent(), await page.getByTestId('pt-view-1').locator('option:checked').textContent()];
    const cams = names.map((n) => (views.find((v) => n?.endsWith(v.name)) as View).camera);
    const truth: Vec3 = [0.12, -0.08, 0.1];
    const px = cams.map((c) => projectPoint(c, truth));
    if (!px[0] || !px[1]) throw new Error('the point is behind a camera');
    const geometry = async (): Promise<string> => JSON.stringify([await box(page, 'photo-tools'), await box(page, 'pt-photo-0'), await box(page, 'pt-photo-1')]);
    const still = await geometry();

    // A wrong first try, cancelled with Esc: nothing pends, the photos have not moved.
    await clickPixel(page, 0, cams[0], { u: 20, v: 44 });
    await page.getByTestId('pt-ray').waitFor();
    expect(await page.getByTestId('pt-steps').getAttribute('data-step')).toBe('2');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('pt-steps').getAttribute('data-step')).toBe('1');
    expect(await page.getByTestId('pt-mark-0').count()).toBe(0);

    // Click 1 at the feature in photo 1 (zoomed x4 with the wheel, inside the same frame): marked
    // there, its ray drawn on photo 2; click 2 on photo 2.
    await zoomAt(page, 0, cams[0], px[0], 2);
    await zoomAt(page, 1, cams[1], px[1], 2);
    expect(await geometry()).toBe(still);
    await clickPixel(page, 0, cams[0], px[0]);
    await page.getByTestId('pt-mark-0').waitFor();
    await page.getByTestId('pt-ray').waitFor();
    expect(await geometry()).toBe(still);
    await page.screenshot({ path: join(RESULTS_DIR, 'play-aids-1280-pending.png') });
    await clickPixel(page, 1, cams[1], px[1]);
    await page.getByTestId('pt-mark-1').waitFor();
    expect(await page.getByTestId('pt-steps').getAttribute('data-step')).toBe('3');
    expect(await geometry()).toBe(still);
    await page.screenshot({ path: join(RESULTS_DIR, 'play-aids-1280-photos.png') });
    await page.getByTestId('pt-place').click();
    expect(await geometry()).toBe(still);
    const placed = await Promise.all([0, 1, 2].map(async (k) => Number(await page.getByTestId(`insp-pos-${k}`).inputValue())));
    expect(Math.hypot(placed[0] - truth[0], placed[1] - truth[1], placed[2] - truth[2])).toBeLessThan(0.02);
    // One lone sphere renders as fog: the inspector says so and points to a solid fill.
    expect(await page.getByTestId('insp-fog').textContent()).toContain('solid preset');
    // A click after a placement starts a new one (never pairs with the old photo-2 click).
    await clickPixel(page, 0, cams[0], px[0]);
    expect(await page.getByTestId('pt-steps').getAttribute('data-step')).toBe('2');
    expect(await page.getByTestId('pt-mark-1').count()).toBe(0);
    await page.keyboard.press('Escape');

    // Sampling with the new sphere selected: exactly one staged edit, and the line says where it went.
    const n0 = await stagedCount(page);
    await page.getByTestId('pt-sample').click();
    await clickPixel(page, 0, cams[0], px[0]);
    await expect.poll(() => stagedCount(page)).toBe(n0 + 1);
    expect(await page.getByTestId('pt-result').textContent()).toContain('selected Gaussian');
    const sampled = await page.getByTestId('insp-color').inputValue();
    expect(await page.locator('[data-testid="staged-ops"] li').last().textContent()).toContain(`Colour ${sampled}`);
    await page.getByTestId('insp-group').fill('body');
    await page.getByTestId('insp-group').press('Enter');
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');

    // Fill around the selected sphere: the new Gaussians take its colour and group.
    await page.getByTestId('aids-toggle').click();
    await page.getByTestId('fill-count').fill('6');
    await page.getByTestId('fill').click();
    expect(await page.getByTestId('fill-said').textContent()).toContain("group 'body'");
    await expect.poll(() => page.getByTestId('commit-plan').textContent()).toContain('add_gaussians');
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 38/40');

    // The whole group, turned by a typed 20 degrees: the field shows 15 before staging, the call says 15.
    await page.getByTestId('ol-select-body').click();
    await page.getByTestId('gt-rot-z').fill('20');
    await page.getByTestId('gt-rot-z').press('Tab');
    expect(await page.getByTestId('gt-rot-z').inputValue()).toBe('15');
    expect(await page.getByTestId('gt-snap-note').textContent()).toContain('snapped to 15');
    expect(await page.getByTestId('gt-call').textContent()).toContain('"rotate_deg":15');
    await page.getByTestId('gt-apply').click();
    await expect.poll(() => page.getByTestId('commit-plan').textContent()).toContain('transform_group');
    await page.screenshot({ path: join(RESULTS_DIR, 'play-aids-1280-transform.png') });
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 37/40');

    // A reload comes back to the open episode (not to Tasks).
    await page.reload();
    await page.getByTestId('budget-meter').waitFor();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 37/40');

    // The same screen at 1920x1080, the photo panel open beside the viewport.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByTestId('photo-tools-toggle').click();
    const wide = await box(page, 'photo-tools');
    const wideVp = await box(page, 'viewport');
    expect(wide.x).toBeGreaterThanOrEqual(wideVp.x + wideVp.width - 1);
    await page.screenshot({ path: join(RESULTS_DIR, 'play-aids-1920.png') });

    // A crowd (a staged fill of 150 more): auto draws solid bodies, as opaque as the render; looked at in both sizes.
    await page.getByTestId('photo-tools-toggle').click();
    await page.getByTestId('ol-select-body').click();
    await page.getByTestId('aids-toggle').click();
    await page.getByTestId('fill-count').fill('150');
    await page.getByTestId('fill-r').fill('0.4');
    await page.getByTestId('fill').click();
    await expect.poll(() => page.getByTestId('budget-gaussians').textContent()).toContain('→ 157');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('outline-style').locator('option:checked').textContent()).toBe('auto (solid bodies)');
    await page.screenshot({ path: join(RESULTS_DIR, 'play-aids-1920-crowd.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: join(RESULTS_DIR, 'play-aids-1280-crowd.png') });
    expect(errors).toEqual([]);

    const dir = join(home, 'trajectories');
    const file = readdirSync(dir).find((f) => f.startsWith('test__sculpt-') && f.endsWith('.jsonl'));
    if (!file) throw new Error('no trajectory');
    const steps = readTrajectory(join(dir, file)).steps;
    expect(steps.map((s) => s.tool)).toEqual(['reset', 'add_gaussians', 'add_gaussians', 'transform_group']);
    const first = (steps[1].args as { gaussians: { color: number[]; group?: string }[] }).gaussians[0];
    expect(first.group).toBe('body');
    const fill = (steps[2].args as { gaussians: { color: number[]; group?: string }[] }).gaussians;
    expect(fill).toHaveLength(6);
    for (const g of fill) {
      expect(g.group).toBe('body');
      g.color.forEach((c, k) => expect(c).toBeCloseTo(first.color[k], 3));
    }
    expect(steps[3].args).toMatchObject({ group: 'body', rotate_deg: 15 });
  });
});
