// PNG copies of the report's SVG charts (docs/AGENTS.md "Analyses"): each SVG is drawn by a
// headless Chromium (playwright-core, the browser the lab's UI tests use) and its element
// screenshotted, so the PNG is exactly what a browser shows for the SVG beside it.
// Inputs: SVG documents, a Chromium executable. Output: PNG bytes per chart id.
// Invariant: no browser found is one line for the caller, never a failed report.
import { existsSync } from 'node:fs';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

/** The Chromium to draw with: SPLATLAB_CHROMIUM, else the first installed candidate, else null. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const given = env.SPLATLAB_CHROMIUM;
  if (given) return existsSync(given) ? given : null;
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export async function svgsToPng(charts: readonly { id: string; svg: string }[], executablePath: string, scale = 2): Promise<Map<string, Uint8Array>> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const out = new Map<string, Uint8Array>();
  try {
    const page = await browser.newPage({ deviceScaleFactor: scale });
    for (const c of charts) {
      await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff">${c.svg}</body></html>`);
      const el = await page.$('svg');
      if (!el) throw new Error(`chart ${c.id} has no <svg> element`);
      out.set(c.id, await el.screenshot({ type: 'png' }));
    }
  } finally {
    await browser.close();
  }
  return out;
}
