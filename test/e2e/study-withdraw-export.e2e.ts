// Withdrawal, questionnaires, deletion and the study archive in a real Chromium against
// `splatlab serve`: a study with the standard questionnaires whose five participants played (and
// a model's two verified runs per task, imported replays of two participants); Results shows humans vs the model
// per task and the per-participant table, and the archive downloads with its data dictionary. A
// new participant answers the demographic questionnaire, withdraws with a reason from the
// practice task and sees that the session ended; one paused at a post-task questionnaire is
// resumed; the experimenter deletes the withdrawn participant's data (gone from disk).
// Screenshots: test-results/withdraw-*.png, results-paired.png, for a person to look at.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { addParticipant, handOver } from './study-flow';
import { buildTestTask } from '../helpers/test-task';
import { Grader } from '../../src/main/grader/grader';
import { createLabContext } from '../../src/main/services/context';
import { dispatchCall, type Handlers } from '../../src/main/services/dispatch';
import { createLabServices } from '../../src/main/services/lab';
import { DEFAULT_QUESTIONNAIRES } from '../../src/shared/study/config';
import type { EpisodeSnapshot } from '../../src/shared/api/episode';
import { readJournal } from '../../src/main/study/store';

const skip = browserMissing();
const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS_DIR, `${name}.png`) });
let experimenterToken = '';
/** The experimenter unlock prompt answered with the serve token (as study.e2e.ts does). */
async function unlock(page: Page): Promise<void> {
  await page.getByTestId('unlock-prompt').waitFor();
  await page.getByTestId('unlock-secret').fill(experimenterToken);
  await page.getByTestId('unlock-submit').click();
}

/** Five participants play practice and both tasks; a sixth stops at the first post-task questionnaire. */
async function seed(tasksDir: string, home: string, grader: Grader): Promise<void> {
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', listTasks: async () => [], grader: async () => grader });
  const handlers: Handlers = createLabServices(ctx).handlers;
  const call = async <T>(method: string, params: unknown = {}): Promise<T> => {
    const out = await dispatchCall(handlers, method, params);
    if (!out.ok) throw new Error(`${method}: ${out.message}`);
    return out.result as T;
  };
  await call('study.create', { name: 'Pilot', tasks: ['test__sculpt', 'test__reassembly'], practiceTask: 'test__oneshot', questionnaires: DEFAULT_QUESTIONNAIRES });
  for (let k = 0; k < 6; k++) {
    const who = `P0${k + 1}`;
    await call('study.addParticipant', { studyId: 'pilot' });
    await call('study.session.start', { studyId: 'pilot', participant: who });
    await call('study.session.advance', { accept: true });
    await call('study.session.answer', { values: { vision: 'normal', colour_vision: 'no' } });
    await call('study.session.advance', {});
    for (let t = 0; t < 3; t++) {
      const s = await call<EpisodeSnapshot>('study.session.task');
      await call('episode.step', { episodeId: s.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0.06 * k, 0, 0], scale: [0.2 + 0.03 * k, 0.15, 0.3], color: '#c08040' }] } });
      if (s.kind !== 'oneshot') await call('episode.step', { episodeId: s.episodeId, tool: 'submit', args: {} });
      await call('study.session.next');
      if (t === 0) continue;
      if (k === 5) break; // P06 pauses at the post-task questionnaire
      await call('study.session.answer', { values: { confidence: 3 + (k % 4), strategy: 'outline first' } });
    }
    await call('study.session.end');
  }
  // A "model" whose two runs per task replay P01's and P02's calls (verified and regraded on import).
  for (const who of ['P01', 'P02']) {
    for (const task of ['test__sculpt', 'test__reassembly']) {
      const human = readFileSync(join(home, 'studies', 'pilot', 'trajectories', who, `${task}.jsonl`), 'utf8');
      await call('study.importModel', { studyId: 'pilot', model: 'replay-bot', text: human.replace(`"player":"${who}"`, '"player":"replay-bot"').replace('"protocol":"matched"', '"protocol":"agent"') });
    }
  }
}

describe.skipIf(skip)('study withdrawal, questionnaires and export (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-withdraw-e2e-'));
    const tasksDir = join(root, 'tasks');
    home = join(root, 'home');
    const grader = await Grader.create({ lpipsDir: null });
    await buildTestTask(tasksDir, { size: 32, grader });
    await seed(tasksDir, home, grader);
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    experimenterToken = new URL(serve.url).searchParams.get('token') ?? '';
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('shows humans vs the model and downloads the archive with its dictionary', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1300 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-results').click();
    await page.getByTestId('paired-table').waitFor();
    const paired = await page.getByTestId('paired-table').innerText();
    expect(paired).toContain('test__sculpt');
    expect(paired).toContain('(all sculpt tasks)');
    // One row per participant and task kind: P01-P05 played sculpt and reassembly, P06 one of them.
    expect(await page.getByTestId('participant-summary-row').count()).toBe(11);
    await page.getByTestId('paired-table').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, 'results-paired');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-archive').click()]);
    const files = unzipSync(readFileSync((await download.path()) as string));
    const names = Object.keys(files).map((n) => n.slice(n.indexOf('/') + 1));
    expect(names).toEqual(expect.arrayContaining(['dataset_description.json', 'data/table-calls_data.csv', 'data/table-paired_data.csv', 'trajectories/P01/test__sculpt.jsonl']));
    expect(names.filter((n) => n.startsWith('models/') && n.endsWith('.jsonl')).length).toBeGreaterThanOrEqual(4);
    // The paper (issue 36) comes with the archive the Results button downloads: SplatBench's tables in three forms.
    for (const t of ['splatbench-leaderboard', 'splatbench-by-kind', 'splatbench-mirror']) for (const ext of ['csv', 'md', 'tex']) expect(names, `${t}.${ext}`).toContain(`paper/${t}.${ext}`);
    await page.getByTestId('export-last').waitFor();
    expect(errors).toEqual([]);
  });

  it('lets a participant withdraw with a reason, resumes one at a questionnaire, and deletes on request', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 860 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-study').click();
    await page.getByTestId('study-item-pilot').click();
    await page.getByTestId('counterbalance').waitFor();

    // P06 stopped at the post-task questionnaire: resuming shows it again.
    await page.getByTestId('start-session-P06').click();
    await page.getByTestId('session-post-task').waitFor();
    await page.getByTestId('question-confidence').getByText('6', { exact: true }).click();
    await page.getByTestId('question-strategy').locator('textarea').fill('matched the silhouette first');
    await shot(page, 'withdraw-post-task');
    // The page was handed to the participant: the experimenter unlocks it (here with their token).
    await page.getByTestId('session-end').click();
    await unlock(page);
    await page.getByTestId('session-end-yes').click();

    // A new participant: consent, the demographic questionnaire, then a withdrawal from the practice.
    await addParticipant(page, 'P07');
    await handOver(page, 'P07', { instructions: false });
    await page.getByTestId('session-demographics').waitFor();
    await page.getByTestId('question-vision').getByLabel('corrected to normal').check();
    await shot(page, 'withdraw-demographics');
    await page.getByTestId('questionnaire-send').click();
    await page.getByTestId('instructions-continue').click();
    await page.getByTestId('budget-meter').waitFor();
    await page.getByTestId('session-withdraw').click();
    await page.getByTestId('withdraw-reason').fill('I feel unwell');
    await shot(page, 'withdraw-form');
    await page.getByTestId('withdraw-confirm').click();
    await page.getByTestId('session-withdrawn').waitFor();
    await shot(page, 'withdraw-done');
    const participants = readJournal(readFileSync(join(home, 'studies', 'pilot', 'participants.jsonl'), 'utf8'));
    expect(participants.find((p) => p.id === 'P07')).toMatchObject({ status: 'withdrawn', withdrawal: { reason: 'I feel unwell', by: 'participant' } });

    // Back on the study page: the experimenter deletes P07's data on their request.
    await page.getByTestId('session-withdrawn-leave').click();
    await unlock(page);
    await page.getByTestId('manage-open-P07').click();
    await page.getByTestId('delete-confirm-id').fill('P07');
    await shot(page, 'withdraw-manage');
    expect(existsSync(join(home, 'studies', 'pilot', 'trajectories', 'P07'))).toBe(true);
    await page.getByTestId('delete-participant').click();
    await page.getByTestId('manage-deleted').waitFor();
    expect(existsSync(join(home, 'studies', 'pilot', 'trajectories', 'P07'))).toBe(false);
    expect(readFileSync(join(home, 'studies', 'pilot', 'deletions.json'), 'utf8')).toContain('"participant": "P07"');
    expect(errors).toEqual([]);
  });
});
