// Issue 24 item 6 in the browser: a study with a comprehension check after the instructions and
// an attention check after its scored task. The participant answers the comprehension check
// wrongly once (back to the instructions, told so), passes the second time, plays, answers the
// attention check wrongly; both attempts and the attention answer are in the participant record,
// and Results shows them beside the participant, over the exclusion rule.
// Screenshots: test-results/checks-comprehension.png, checks-failed.png, checks-results.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import NodeWebSocket from 'ws';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { readJournal } from '../../src/main/study/store';

const skip = browserMissing();

async function labCall(url: string, method: string, params: unknown): Promise<unknown> {
  const ws = new NodeWebSocket(url);
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const reply = await new Promise<{ ok: boolean; result?: unknown; error?: { message: string } }>((resolve) => {
    ws.on('message', (d) => resolve(JSON.parse(d.toString()) as never));
    ws.send(JSON.stringify({ id: 1, method, params }));
  });
  ws.close();
  if (!reply.ok) throw new Error(`${method}: ${reply.error?.message}`);
  return reply.result;
}

const CHECKS = {
  comprehension: {
    questions: [
      { id: 'budget', prompt: 'What does a Commit cost?', options: ['nothing', 'one call of the budget'], correct: 'one call of the budget' },
      { id: 'score', prompt: 'Will you see your score during the study?', options: ['yes', 'no'], correct: 'no' },
    ],
  },
  attention: [{ id: 'instructed', prompt: 'To show you are reading, choose "purple".', options: ['red', 'purple', 'green'], correct: 'purple', afterTask: 1 }],
  maxAttentionFailures: 0,
};

describe.skipIf(skip)('comprehension and attention checks (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    ({ serve, home } = await startTestLab('splatlab-checks-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('records a failed and a passed comprehension attempt and an attention check', async () => {
    const base = new URL(serve.url);
    const desk = `ws://${base.host}/lab?token=${base.searchParams.get('token')}`;
    await labCall(desk, 'study.create', { name: 'Checks', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', checks: CHECKS });
    await labCall(desk, 'study.addParticipant', { studyId: 'checks' });
    await labCall(desk, 'roles.setPin', { studyId: 'checks', pin: '9753' });
    await labCall(desk, 'study.session.start', { studyId: 'checks', participant: 'P01' });
    const link = (await labCall(desk, 'roles.participantLink', {})) as { token: string };

    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${base.origin}/?token=${encodeURIComponent(link.token)}`);
    await page.getByTestId('consent-agree').click();
    await page.getByTestId('instructions-continue').click();
    // First attempt: one wrong answer.
    await page.getByTestId('check-comprehension').waitFor();
    await page.getByTestId('check-budget-0').check();
    await page.getByTestId('check-score-1').check();
    await page.screenshot({ path: join(RESULTS_DIR, 'checks-comprehension.png') });
    await page.getByTestId('check-submit').click();
    await page.getByTestId('check-failed').waitFor();
    await page.screenshot({ path: join(RESULTS_DIR, 'checks-failed.png') });
    // Second attempt after reading again: all right, on to the practice.
    await page.getByTestId('instructions-continue').click();
    await page.getByTestId('check-budget-1').check();
    await page.getByTestId('check-score-1').check();
    await page.getByTestId('check-submit').click();
    await page.getByTestId('session-task-banner').filter({ hasText: 'Practice' }).waitFor();
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('commit').click();
    await page.getByTestId('session-continue').click();
    await page.getByTestId('session-task-banner').filter({ hasText: 'Task 1' }).waitFor();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left');
    await page.getByTestId('tool-submit').click();
    await page.getByTestId('submit-yes').click();
    await page.getByTestId('session-continue').click({ timeout: 60_000 });
    // The attention check between the task and the end: answered wrongly.
    await page.getByTestId('check-attention').waitFor();
    await page.getByTestId('check-instructed-0').check();
    await page.getByTestId('check-submit').click();
    await page.getByTestId('session-thanks').waitFor();

    const record = readJournal(readFileSync(join(home, 'studies', 'checks', 'participants.jsonl'), 'utf8'))[0];
    expect(record.checks?.comprehension.map((a) => ({ answers: a.answers, wrong: a.wrong, passed: a.passed }))).toEqual([
      { answers: { budget: 'nothing', score: 'no' }, wrong: ['budget'], passed: false },
      { answers: { budget: 'one call of the budget', score: 'no' }, wrong: [], passed: true },
    ]);
    expect(record.checks?.attention.map((a) => [a.id, a.answer, a.passed])).toEqual([['instructed', 'red', false]]);
    await labCall(desk, 'study.session.end', {});

    const exp = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await exp.goto(serve.url);
    await exp.getByTestId('nav-results').click();
    const cell = exp.getByTestId('participant-checks').first();
    await expect.poll(() => cell.textContent()).toContain('comprehension passed (2 attempts), attention 0/1 (over the exclusion rule)');
    await exp.getByTestId('apply-attention-rule').click();
    await expect.poll(() => exp.getByTestId('participant-summary-row').first().textContent()).toContain('comprehension passed');
    await expect.poll(async () => (readJournal(readFileSync(join(home, 'studies', 'checks', 'participants.jsonl'), 'utf8'))[0].episodes.find((e) => !e.practice)?.excluded?.reason ?? '')).toContain('attention check');
    await cell.scrollIntoViewIfNeeded();
    await exp.screenshot({ path: join(RESULTS_DIR, 'checks-results.png'), fullPage: true });
  });
});
