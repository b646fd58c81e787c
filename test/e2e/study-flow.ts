// The study setup the e2e files share (issue 23): an experimenter creates a study in the UI (its
// name, practice and scored tasks, demographics unticked: the flows that need them tick them
// themselves), adds a participant and hands the tab over through consent and instructions; or the
// same set up over LabApi (a study with a PIN, its participants, P01's session started, P01's
// participant link); or, outside any study, a free-play episode started from the Play screen.
// Inputs: a page of the lab (or its WebSocket URL) and the study's choices.
// Output: the page at the first task (or the participant token). Invariant: every step waits
// for the screen it leads to, so a flow after it starts from a known screen.
import type { Browser, Page } from 'playwright-core';
import NodeWebSocket from 'ws';
import { playViewportReady } from './viewport-helpers';

export interface StudyChoice {
  name: string;
  practice: string;
  tasks: readonly string[];
}

/** Study page, new-study form filled (demographics unticked), created; waits for the study's page. */
export async function createStudy(page: Page, study: StudyChoice, beforeCreate?: () => Promise<void>): Promise<void> {
  await page.getByTestId('nav-study').click();
  await page.getByTestId('study-new').click();
  await page.getByTestId('study-name').fill(study.name);
  // Demographics are on by default (issue 24); these flows run without them.
  await page.getByTestId('study-questionnaires').uncheck();
  await page.getByTestId('study-practice').selectOption(study.practice);
  for (const id of study.tasks) await page.getByTestId(`study-task-${id}`).check();
  await beforeCreate?.();
  await page.getByTestId('study-create').click();
  await page.getByTestId('study-detail').waitFor();
}

/** Adds the study's next participant and waits for its row. */
export async function addParticipant(page: Page, id: string): Promise<void> {
  await page.getByTestId('add-participant').click();
  await page.getByTestId(`participant-${id}`).waitFor();
}

export interface HandOver {
  /** Runs on the participant's page before consent (the hand-over navigates the tab afresh). */
  beforeConsent?: () => Promise<void>;
  /** Also pass the instructions (default true); false stops after consent. */
  instructions?: boolean;
}

/** Starts the participant's session (the tab is handed over) and agrees to consent (and the instructions). */
export async function handOver(page: Page, id: string, opts: HandOver = {}): Promise<void> {
  // In browser mode the hand-over navigates the tab afresh (handTabTo): wait for that navigation,
  // so beforeConsent runs on the participant's page and not on the one that is leaving.
  const bridged = await page.evaluate(() => 'lab' in window);
  const navigated = bridged ? null : page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame() });
  await page.getByTestId(`start-session-${id}`).click();
  if (navigated) {
    await navigated;
    await page.waitForLoadState();
  }
  await page.getByTestId('consent-agree').waitFor();
  await opts.beforeConsent?.();
  await page.getByTestId('consent-agree').click();
  if (opts.instructions ?? true) await page.getByTestId('instructions-continue').click();
}

/** A new study with P01 at its first task: createStudy, addParticipant, handOver. */
export async function studyToFirstTask(page: Page, study: StudyChoice, opts: HandOver = {}): Promise<void> {
  await createStudy(page, study);
  await addParticipant(page, 'P01');
  await handOver(page, 'P01', opts);
}

/** Ends the participant's session from the handed-over tab: the experimenter unlocks it with
 *  their token (the serve URL's), confirms, and the study's page comes back. */
export async function endSessionAsExperimenter(page: Page, serveUrl: string): Promise<void> {
  await page.getByTestId('session-end').click();
  await page.getByTestId('unlock-prompt').waitFor();
  await page.getByTestId('unlock-secret').fill(new URL(serveUrl).searchParams.get('token') ?? '');
  await page.getByTestId('unlock-submit').click();
  await page.getByTestId('session-end-yes').click();
  await page.getByTestId('study-detail').waitFor();
}

/** One LabApi call over its own WebSocket (the experimenter's token in the URL); throws the lab's error line. */
export async function labCall(url: string, method: string, params: unknown): Promise<unknown> {
  const ws = new NodeWebSocket(url);
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const reply = await new Promise<{ ok: boolean; result?: unknown; error?: { message: string } }>((resolve) => {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { id?: number };
      if (m.id === 1) resolve(m as never);
    });
    ws.send(JSON.stringify({ id: 1, method, params }));
  });
  ws.close();
  if (!reply.ok) throw new Error(`${method}: ${reply.error?.message}`);
  return reply.result;
}

export interface ApiStudy {
  name: string;
  studyId: string;
  tasks: readonly string[];
  practiceTask: string;
  participants: number;
  pin: string;
}

/** Over LabApi: the study, its participants and PIN, P01's session started; returns P01's participant token. */
export async function studyOverApi(url: string, s: ApiStudy): Promise<string> {
  await labCall(url, 'study.create', { name: s.name, tasks: s.tasks, practiceTask: s.practiceTask });
  for (let i = 0; i < s.participants; i++) await labCall(url, 'study.addParticipant', { studyId: s.studyId });
  await labCall(url, 'roles.setPin', { studyId: s.studyId, pin: s.pin });
  await labCall(url, 'study.session.start', { studyId: s.studyId, participant: 'P01' });
  return ((await labCall(url, 'roles.participantLink', {})) as { token: string }).token;
}

/**
 * A new page at `url` with a free-play episode of `taskId` started from the Play screen (the
 * budget meter shown); `errors` collects the page's uncaught errors for the test to check at its end.
 */
export async function startFreeEpisode(browser: Browser, url: string, taskId: string, viewport = { width: 1280, height: 720 }): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.getByTestId(`play-${taskId}`).click();
  await page.getByTestId('play-start').click();
  await page.getByTestId('budget-meter').waitFor();
  // The tests then drive the viewport through window.splatlabViewport: it may come after the first frame.
  await playViewportReady(page);
  return { page, errors };
}
