// `splatlab export inspect` opens in Inspect's own log viewer: scripted eval runs of the test
// sculpt task (one of them cut by a cap) are exported as an Inspect eval log, and the viewer the
// Inspect ecosystem publishes on npm (@metrevals/inspect-log-viewer, inspect_ai's viewer as a
// library) is built with vite into a test page (test/e2e/inspect-viewer/) and opened over the log
// in a real Chromium, offline: no page or console errors (the viewer's probes for the optional
// files of a log folder aside), both samples listed, and one opened with its tool calls and its
// messages' images. Screenshots: test-results/inspect-viewer.png, inspect-viewer-sample.png and
// inspect-viewer-messages.png, for a person to look at.
import { createReadStream, existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR } from './harness';
import { EvalConfigSchema } from '../../src/main/models/config';
import { runEpisode } from '../../src/main/eval/episode';
import { exportInspect, trajectoryFiles } from '../../src/main/eval/inspect-export';
import { makeClient, parseModelSpec } from '../../src/main/models/spec';
import { testTask, testTasks } from '../main/env/fixtures';

const skip = browserMissing();
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.woff2': 'font/woff2', '.woff': 'font/woff', '.svg': 'image/svg+xml', '.png': 'image/png', '.wasm': 'application/wasm' };

/** A static file server of one folder on loopback. */
function serveFolder(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(root, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })));
}

describe.skipIf(skip)("the Inspect export in Inspect's log viewer (browser)", () => {
  let browser: Browser;
  let site: { url: string; server: Server };
  let logName = '';

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-inspect-viewer-'));
    // Two scripted runs, the second cut by a cap, exported as one eval log.
    const { tasksDir, grader } = await testTasks();
    const runs = join(root, 'runs');
    mkdirSync(runs);
    const spec = { ...parseModelSpec('scripted:random'), seed: 5 };
    const task = await testTask('test__sculpt');
    for (const [run, caps] of [[1, undefined], [2, { max_messages: 2 }]] as const) {
      const config = EvalConfigSchema.parse(caps ? { caps } : {});
      await runEpisode({ jobId: `v${run}`, task, run, spec, log: join(runs, `test__sculpt__r${run}.jsonl`) }, { grader, config, client: () => makeClient(spec, config, {}, run) });
    }
    const out = await exportInspect(trajectoryFiles(runs), { tasksDir, grader: async () => grader, version: '0.0.0-test' });
    expect(out.problems).toEqual([]);
    // The viewer page, built from the npm package (unminified, so React's warnings name their
    // components), with the log beside it.
    const site0 = join(root, 'site');
    await build({ root: resolve(__dirname, 'inspect-viewer'), base: './', logLevel: 'warn', configFile: false, build: { outDir: site0, emptyOutDir: true, chunkSizeWarningLimit: 100_000, minify: false } });
    mkdirSync(join(site0, 'logs'));
    logName = out.logs[0].name;
    writeFileSync(join(site0, 'logs', logName), JSON.stringify(out.logs[0].log));
    site = await serveFolder(site0);
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
  });

  it('opens the log with no errors and lists its samples', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    const missing: string[] = [];
    const pending: Promise<void>[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // A file the viewer probes for and may lack is logged by the browser as a failed load: those
      // are checked by name below; any other console error fails the test. React's list-key
      // warning names its component (the page is built unminified for that): the viewer's own
      // EpochFilter draws its epoch <option>s without keys whenever a log has two epochs or more
      // (@metrevals/inspect-log-viewer, not our data), so that one alone is left out; a key
      // warning from any list our log fills (samples, messages, events, scores) fails.
      if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 404/.test(m.text())) {
        pending.push(Promise.all(m.args().map((a) => a.jsonValue().catch(() => '?'))).then((args) => {
          const said = `${m.text()} ${JSON.stringify(args).slice(0, 600)}`;
          if (!/unique "key" prop/.test(m.text()) || !/Check the render method of `EpochFilter`/.test(said)) errors.push(said);
        }));
      }
    });
    page.on('response', (r) => {
      if (r.status() >= 400) missing.push(new URL(r.url()).pathname);
    });
    await page.goto(`${site.url}/?log_dir=logs&log_file=${encodeURIComponent(`logs/${logName}`)}`);
    await page.getByText('2 Samples').first().waitFor({ timeout: 120_000 });
    await page.getByText('test__sculpt').nth(1).waitFor();
    const body = await page.locator('body').innerText();
    // The header (task, model, scorer) and both samples, each with its first observation and score.
    expect(body).toContain('splatlab/splatbench');
    expect(body).toContain('scripted/random');
    expect(body).toContain('splatscore');
    expect(body.match(/test__sculpt/g)?.length).toBeGreaterThanOrEqual(2);
    expect(body).toContain('Reference views: V0');
    await page.screenshot({ path: join(RESULTS_DIR, 'inspect-viewer.png') });
    // One sample opens with its messages: the tool calls of the run.
    // Epochs of one sample sit under a group header ('Sample test__sculpt'): open the first sample's own row.
    await page.getByText('test__sculpt', { exact: true }).first().click();
    await page.getByText('add_gaussians').first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(RESULTS_DIR, 'inspect-viewer-sample.png') });
    // Its messages show the images replayed from the log (the reference sheet first), resolved from the attachments.
    await page.getByRole('tab', { name: /messages/i }).first().click();
    await page.locator('img[src^="data:image/png;base64,"]').first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(RESULTS_DIR, 'inspect-viewer-messages.png') });
    await Promise.all(pending);
    expect(errors).toEqual([]);
    // Only the optional files of a static log folder may be absent (an eval set, a flow, the listing).
    expect(missing.filter((p) => !/\/logs\/(eval-set\.json|flow\.yaml|listing\.json)$/.test(p))).toEqual([]);
  }, 300_000);
});
