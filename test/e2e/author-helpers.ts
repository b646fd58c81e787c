// Helpers for the Author view's e2e tests: drag a gizmo arrow by a number of pixels through the
// viewport's test probe (window.splatlabAuthorViewport), in small mouse steps like a person.
import type { Page } from 'playwright-core';

interface Point {
  x: number;
  y: number;
}

type ViewportProbe = { gizmoScreen(a: string): { centre: Point; handle: Point } | null };

export async function dragGizmoAxis(page: Page, axis: 'x' | 'y' | 'z', pixels: number): Promise<void> {
  const g = await page.evaluate((a) => (globalThis as unknown as { splatlabAuthorViewport?: ViewportProbe }).splatlabAuthorViewport?.gizmoScreen(a) ?? null, axis);
  if (!g) throw new Error('no gizmo on screen');
  const dx = g.handle.x - g.centre.x;
  const dy = g.handle.y - g.centre.y;
  const n = Math.hypot(dx, dy);
  await page.mouse.move(g.handle.x, g.handle.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(g.handle.x + (dx / n) * pixels * (i / 8), g.handle.y + (dy / n) * pixels * (i / 8));
  await page.mouse.up();
}
