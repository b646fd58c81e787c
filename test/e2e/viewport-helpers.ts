// Helpers shared by the e2e tests that drive a viewport: drag a gizmo arrow by a number of pixels
// through the viewport's test probe (window.splatlabAuthorViewport in Author,
// window.splatlabViewport in Play), in small mouse steps like a person; and type a number into an
// inspector field and commit it (change fires on blur). The play viewport may be built after the
// episode's first frame (src/renderer/stores/start-paint.ts): `playViewportReady` waits for it.
import type { Page } from 'playwright-core';

interface Point {
  x: number;
  y: number;
}

type ViewportProbe = { gizmoScreen(a: string): { centre: Point; handle: Point } | null };
type ProbeName = 'splatlabAuthorViewport' | 'splatlabViewport';

/** Resolves once the play view's 3D viewport is in place (window.splatlabViewport set), or at once outside Play. */
export async function playViewportReady(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as { splatlabViewportReady?: Promise<void> }).splatlabViewportReady);
}

export async function dragGizmoAxis(page: Page, axis: 'x' | 'y' | 'z', pixels: number, probe: ProbeName = 'splatlabAuthorViewport'): Promise<void> {
  if (probe === 'splatlabViewport') await playViewportReady(page);
  const g = await page.evaluate(
    ([a, name]) => (globalThis as unknown as Record<string, ViewportProbe | undefined>)[name]?.gizmoScreen(a) ?? null,
    [axis, probe] as const,
  );
  if (!g) throw new Error('no gizmo on screen');
  const dx = g.handle.x - g.centre.x;
  const dy = g.handle.y - g.centre.y;
  const n = Math.hypot(dx, dy);
  await page.mouse.move(g.handle.x, g.handle.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(g.handle.x + (dx / n) * pixels * (i / 8), g.handle.y + (dy / n) * pixels * (i / 8));
  await page.mouse.up();
}

/** Types a number into an inspector field and commits it (change fires on blur). */
export async function setField(page: Page, testid: string, value: number): Promise<void> {
  const input = page.getByTestId(testid);
  await input.fill(String(value));
  await input.press('Tab');
}
