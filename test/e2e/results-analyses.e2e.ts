// Results with models beside people, in a real Chromium against `splatlab serve`: a study whose
// two participants played their sessions and whose models/ folder holds a scripted model's runs
// from `splatlab eval --study`; the experimenter computes the analyses and sees every chart
// (scores with CIs, score over calls, best vs final, scores per object source, the mirror test beside
// its ceiling, heading errors, one-shot vs
// full, cost and time, effort) naming unit and n, and exports one as CSV.
// Screenshot: test-results/results-analyses.png, for a person to look at.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { buildTestTask } from '../helpers/test-task';
import { withEnv } from '../helpers/env';
import { Grader } from '../../src/main/grader/grader';
import { loadTask } from '../../src/main/tasks/load';
import { createLabContext } from '../../src/main/services/context';
import { dispatchCall, type Handlers } from '../../src/main/services/dispatch';
import { createLabServices } from '../../src/main/services/lab';
import { command as evalCommand } from '../../src/main/cli/commands/eval';
import type { EpisodeSnapshot } from '../../src/shared/api/episode';
import type { PartsTruth } from '../../src/shared/authoring/scramble/truth';

const skip = browserMissing();

/** Each reassembly part's start pose as its (test) true pose. */
function writeStartTruth(dir: string, init: { id: number; pos: [number, number, number]; quat: [number, number, number, number]; group?: string }[]): string[] {
  const labels = [...new Set(init.map((r) => r.group as string))];
  const truth: PartsTruth = {
    version: 1, seed: 0, k: labels.length, kmeans_iterations: 0, kmeans_converged: true,
    parts: labels.map((label) => {
      const recs = init.filter((r) => r.group === label);
      const c = [0, 1, 2].map((a) => recs.reduce((s, r) => s + r.pos[a], 0) / recs.length) as [number, number, number];
      return { label, count: recs.length, ids: recs.map((r) => r.id), true_centroid: c, scrambled_centroid: c, translation: [0, 0, 0], rotation_deg: 0, true_positions: recs.map((r) => r.pos), true_quats: recs.map((r) => r.quat) };
    }),
  };
  writeFileSync(join(dir, 'parts_truth.json'), JSON.stringify(truth));
  return labels;
}

/** A copy of the test object under another name whose tasks say they are photographed (per-source rows). */
function photographedCopy(tasksDir: string): void {
  cpSync(join(tasksDir, 'objects', 'test'), join(tasksDir, 'objects', 'testcap'), { recursive: true });
  const spec = JSON.parse(readFileSync(join(tasksDir, 'test__sculpt.json'), 'utf8'));
  writeFileSync(join(tasksDir, 'testcap__sculpt.json'), JSON.stringify({ ...spec, task_id: 'testcap__sculpt', object: 'testcap', source: 'photographed' }));
}

async function seed(tasksDir: string, home: string, grader: Grader): Promise<void> {
  photographedCopy(tasksDir);
  const reass = await loadTask('test__reassembly', { tasksDir });
  const labels = writeStartTruth(reass.dir, reass.init ?? []);
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', listTasks: async () => [], grader: async () => grader });
  const handlers: Handlers = createLabServices(ctx).handlers;
  const call = async <T>(method: string, params: unknown = {}): Promise<T> => {
    const out = await dispatchCall(handlers, method, params);
    if (!out.ok) throw new Error(`${method}: ${out.message}`);
    return out.result as T;
  };
  await call('study.create', { name: 'Pilot', tasks: ['test__sculpt', 'test__reassembly', 'testcap__sculpt'], practiceTask: 'test__oneshot', protocol: 'matched', order: 'counterbalanced' });
  for (const [k, who] of ['P01', 'P02'].entries()) {
    await call('study.addParticipant', { studyId: 'pilot' });
    await call('study.session.start', { studyId: 'pilot', participant: who });
    await call('study.session.advance', { accept: true });
    await call('study.session.advance', {});
    for (let t = 0; t < 4; t++) {
      const s = await call<EpisodeSnapshot>('study.session.task');
      const calls = s.kind === 'reassembly' ? [{ tool: 'transform_group', args: { group: labels[k], rotate_deg: 30 + 60 * k } }] : [{ tool: 'add_gaussians', args: { gaussians: [{ pos: [0.1 * k, 0, 0], scale: [0.25, 0.15, 0.35], color: '#c08040' }] } }, { tool: 'render_views', args: {} }];
      for (const c of calls) if (s.kind !== 'oneshot' || c.tool === 'add_gaussians') await call('episode.step', { episodeId: s.episodeId, ...c });
      if (s.kind !== 'oneshot') await call('episode.step', { episodeId: s.episodeId, tool: 'submit', args: {} });
      await call('study.session.next');
    }
    await call('study.session.end');
  }
  // The eval command writes into the lab home the environment names.
  await withEnv({ SPLATLAB_HOME: home }, async () => {
    const io = { out: () => undefined, err: () => undefined };
    for (const model of ['scripted:basic', 'scripted:basic@high']) {
      expect(await evalCommand.run(['--model', model, '--tasks', 'test__*', '--runs', '2', '--study', 'pilot', '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'], io)).toBe(0);
    }
  });
}

describe.skipIf(skip)('Results: analyses of models beside people (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-analyses-e2e-'));
    const tasksDir = join(root, 'tasks');
    const home = join(root, 'home');
    const grader = await Grader.create({ lpipsDir: null });
    await buildTestTask(tasksDir, { size: 32, grader });
    await seed(tasksDir, home, grader);
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('computes and shows every analysis with unit and n, and exports a figure as CSV', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-results').click();
    await page.getByTestId('run-analyses').click();
    await page.getByTestId('figure-score-sculpt').waitFor();
    for (const id of ['score-sculpt', 'score-reassembly', 'curve-sculpt', 'best-final-sculpt', 'score-by-source', 'mirror', 'heading', 'heading-parts', 'oneshot-full', 'cost-time', 'effort']) {
      expect(await page.getByTestId(`figure-${id}`).count()).toBe(1);
    }
    const scores = await page.getByTestId('figure-score-sculpt').innerText();
    expect(scores).toContain('participants (n=4)');
    expect(scores).toContain('scripted:basic@high (n=2)');
    expect(scores).toContain('SplatScore (points');
    // Per object source: the pooled row, then the procedural test object and its photographed copy.
    const bySource = await page.getByTestId('figure-score-by-source').innerText();
    expect(bySource).toContain('sculpt participants (procedural) (n=2)');
    expect(bySource).toContain('sculpt participants (photographed) (n=2)');
    // The mirror test beside its ceiling.
    expect(await page.getByTestId('figure-score-by-source').innerText()).toContain('sculpt participants (all) (n=4)');
    expect(await page.getByTestId('figure-mirror').innerText()).toContain('reference fit (ceiling)');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-heading-csv').click()]);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv).toMatch(/^group,episodes,parts,within_15deg,share,mean_error_deg/);
    expect(csv).toContain('participants,2,4,2,0.5');
    // The app scrolls inside its main pane, so a tall window shows every chart in one picture.
    await page.setViewportSize({ width: 1500, height: 2600 });
    await page.getByTestId('analyses').evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: join(RESULTS_DIR, 'results-analyses.png') });
    expect(errors).toEqual([]);
  });
});
