// The participant session: one study participant at a time goes consent -> (demographic
// questionnaire) -> instructions -> practice -> scored tasks (in their order, each followed by the
// post-task questionnaire when the study has one) -> thanks, each task an EpisodeManager episode
// whose log is trajectories/<participant>/<task>.jsonl in the study folder; a withdrawal (with a
// reason, by the participant or the experimenter) ends it from any screen. Every ended session is
// appended to sessions.jsonl.
// Inputs: the experimenter's start/end, the participant's advance/task/next/answer/withdraw. Outputs: the public
// SessionState (never a score). Invariants: while a session is active `active` is non-null and is
// also on disk (<home>/studies/session.json), so a restarted lab stays locked until an explicit
// end; a task is left only after its episode is done (submitted or out of calls); a task that was
// interrupted (pause, crash) continues from its log; operations run one at a time. Across lab
// processes on one home the live session belongs to the process holding <home>/studies/
// session.lock (src/main/io/process-lock.ts): another process reads session.json (so it stays
// locked too) but refuses to start, continue or end that session while the holder lives.
import { appendSessionMeta } from './session-meta';
import type { SessionMeta } from '../../shared/api/study';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EpisodeSnapshot } from '../../shared/api/episode';
import type { SessionState } from '../../shared/api/study';
import { answersProblem, currentConsentVersion, type Answers, type Participant, type Question, type StudyConfig } from '../../shared/study/config';
import { checkForPage, MAX_COMPREHENSION_ATTEMPTS, wrongAnswers, type AttentionCheck, type CheckForPage } from '../../shared/study/checks';
import { readTrajectory } from '../env/trajectory';
import type { EpisodeManager } from '../episodes/manager';
import { ProcessLock, ProcessLockBusy } from '../io/process-lock';
import { writeFileAtomic } from '../io/write-atomic';
import { StudyError, type StudyStore } from './store';
import { appendSession, recordWithdrawal } from './participant-data';
import { breakAfter } from '../../shared/study/time';

const ActiveSchema = z.strictObject({
  studyId: z.string(),
  participant: z.string(),
  started: z.string(),
  episodeId: z.string().nullable(),
});
type Active = z.infer<typeof ActiveSchema>;

export class SessionLockedError extends StudyError {
  override name = 'SessionLockedError';
}

export class StudySessions {
  private active: Active | null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Held while this process runs the session (taken by the first operation, dropped at its end). */
  private lock: ProcessLock | null = null;

  constructor(
    private readonly store: StudyStore,
    private readonly manager: EpisodeManager,
  ) {
    this.active = this.load();
  }

  private get file(): string {
    return join(this.store.root, 'session.json');
  }

  private load(): Active | null {
    if (!existsSync(this.file)) return null;
    try {
      const parsed = ActiveSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      // An unreadable lock file still means a session may be running: stay locked on it.
      return parsed.success ? parsed.data : { studyId: '?', participant: '?', started: '', episodeId: null };
    } catch {
      return { studyId: '?', participant: '?', started: '', episodeId: null };
    }
  }

  private save(): void {
    if (this.active) writeFileAtomic(this.file, `${JSON.stringify(this.active)}\n`);
    else rmSync(this.file, { force: true });
  }

  /**
   * Runs session operations one at a time (a double click cannot start two episodes), each
   * holding the cross-process session lock; the lock is let go when no session is left running.
   */
  private serial<T>(work: () => Promise<T> | T): Promise<T> {
    const run = this.queue.then(async () => {
      try {
        await this.claim();
        return await work();
      } finally {
        if (!this.active) this.letGo();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Takes the session lock (then session.json is this process's to change) or refuses; off the event loop. */
  private async claim(): Promise<void> {
    if (this.lock) return;
    try {
      this.lock = await ProcessLock.acquireAsync(join(this.store.root, 'session.lock'), 'the participant session', { shared: true });
    } catch (error) {
      if (!(error instanceof ProcessLockBusy)) throw error;
      const a = this.load();
      const who = error.pid > 0 ? `another lab process (pid ${error.pid})` : 'another lab process';
      throw new SessionLockedError(
        a ? `participant ${a.participant}'s session of study '${a.studyId}' is live in ${who} on this home: continue or end it there` : `a participant session is being started in ${who} on this home`,
      );
    }
    this.active = this.load();
  }

  private letGo(): void {
    this.lock?.release();
    this.lock = null;
  }

  /** What runs now: this process's own session, else what session.json on disk says. */
  private refresh(): Active | null {
    if (!this.lock) this.active = this.load();
    return this.active;
  }

  get locked(): boolean {
    return this.refresh() !== null;
  }

  /** Throws the clear error an experimenter row gets while a participant session runs. */
  assertUnlocked(): void {
    const a = this.refresh();
    if (a) {
      throw new SessionLockedError(
        `locked while participant ${a.participant}'s session of study '${a.studyId}' runs: experimenter views and hidden scores stay closed until the session is ended (End session, study.session.end)`,
      );
    }
  }

  start(studyId: string, participantId: string): Promise<SessionState> {
    return this.serial(async () => {
      this.assertUnlocked();
      const p = this.store.participant(studyId, participantId);
      if (p.status === 'completed') throw new StudyError(`participant ${participantId} has already completed study '${studyId}'`);
      if (p.status === 'declined') throw new StudyError(`participant ${participantId} declined consent (${p.consent?.at ?? 'recorded'}); add a new participant if they change their mind`);
      if (p.status === 'withdrawn') throw new StudyError(`participant ${participantId} withdrew (${p.withdrawal?.at ?? 'recorded'}); their session cannot start again`);
      if (p.status === 'deleted') throw new StudyError(`participant ${participantId}'s data were deleted on request; add a new participant`);
      await this.store.updateParticipant(studyId, participantId, (x) => ({ ...x, status: 'in-session' }));
      this.active = { studyId, participant: participantId, started: new Date().toISOString(), episodeId: null };
      this.save();
      return this.stateNow();
    });
  }

  state(): SessionState | null {
    return this.refresh() ? this.stateNow() : null;
  }

  /**
   * consent -> instructions (accept: true), a declined consent recorded (accept: false: the
   * participant's status becomes 'declined' and the session can go no further), and
   * instructions -> practice. The decision keeps the time and the consent version shown.
   */
  advance(accept: boolean | undefined): Promise<SessionState> {
    return this.serial(async () => {
      const { a, p } = this.current();
      if (p.stage === 'consent') {
        if (p.status === 'declined') throw new StudyError('consent was declined: this session has ended; please tell the experimenter');
        if (accept === undefined) throw new StudyError('consent was not given: the session cannot continue without it');
        const at = new Date().toISOString();
        const version = currentConsentVersion(this.store.config(a.studyId));
        if (!accept) {
          await this.store.updateParticipant(a.studyId, p.id, (x) => ({ ...x, status: 'declined', consent: { decision: 'declined', at, version } }));
          return this.stateNow();
        }
        const next = this.store.config(a.studyId).questionnaires.demographic.length ? 'demographics' : 'instructions';
        await this.store.updateParticipant(a.studyId, p.id, (x) => ({ ...x, stage: next, consentAt: at, consent: { decision: 'agreed', at, version } }));
      } else if (p.stage === 'instructions') {
        // A comprehension check, when the study has one, stands between the instructions and the practice.
        const next = this.store.config(a.studyId).checks.comprehension ? 'comprehension' : 'practice';
        await this.store.updateParticipant(a.studyId, p.id, (x) => ({ ...x, stage: next }));
      } else {
        throw new StudyError(`cannot advance from the '${p.stage}' screen (${p.stage === 'demographics' || p.stage === 'post-task' ? 'send the questionnaire' : 'a task ends by submitting it'})`);
      }
      return this.stateNow();
    });
  }

  /** The episode of the current task: the live one, resumed from its log, or a new one. */
  task(): Promise<EpisodeSnapshot> {
    return this.serial(async () => {
      const { a, p, config } = this.current();
      const taskId = this.taskOf(p, config);
      if (!taskId) throw new StudyError(`there is no task on the '${p.stage}' screen`);
      if (a.episodeId) {
        try {
          return this.manager.snapshotOf(a.episodeId);
        } catch {
          a.episodeId = null; // the lab restarted: continue from the log below
        }
      }
      const rel = this.store.trajectoryRel(p.id, taskId);
      const path = this.store.resolveIn(a.studyId, rel);
      const known = p.episodes.find((e) => e.taskId === taskId);
      let snapshot: EpisodeSnapshot;
      if (known && existsSync(path) && readTrajectory(path).header) {
        snapshot = await this.manager.resume(path);
      } else {
        const limit = p.stage === 'task' ? config.taskTimeLimitS : undefined; // practice: no limit
        snapshot = await this.manager.start({ taskId, protocol: config.protocol, player: p.id, logPath: path, options: config.protocolOptions, ...(limit ? { timeLimitS: limit } : {}) });
        const practice = p.stage === 'practice';
        await this.store.updateParticipant(a.studyId, p.id, (x) => ({
          ...x,
          episodes: [...x.episodes.filter((e) => e.taskId !== taskId), { taskId, practice, log: rel, status: 'started', started: new Date().toISOString() }],
        }));
      }
      a.episodeId = snapshot.episodeId;
      this.save();
      return snapshot;
    });
  }

  /** Leaves a finished task for the next screen (next task or thanks). */
  next(): Promise<SessionState> {
    return this.serial(async () => {
      const { a, p, config } = this.current();
      const taskId = this.taskOf(p, config);
      if (!taskId) throw new StudyError(`there is no task to finish on the '${p.stage}' screen`);
      if (!this.taskDone(a, p.id, taskId)) throw new StudyError(`task '${taskId}' is not finished yet: submit it first`);
      if (a.episodeId) this.manager.close(a.episodeId);
      a.episodeId = null;
      const now = new Date().toISOString();
      await this.store.updateParticipant(a.studyId, p.id, (x) => {
        const episodes = x.episodes.map((e) => (e.taskId === taskId ? { ...e, status: 'submitted' as const, ended: now } : e));
        if (x.stage === 'practice') return { ...x, episodes, stage: 'task', taskIndex: 0 };
        if (config.questionnaires.postTask.length) return { ...x, episodes, stage: 'post-task' };
        return afterTask({ ...x, episodes }, config);
      });
      this.save();
      return this.stateNow();
    });
  }

  /** The page's session metadata, stored with the session's start and the lab's version. */
  meta(meta: SessionMeta, labVersion: string): Promise<{ recorded: boolean }> {
    return this.serial(async () => {
      const { a, p } = this.current();
      appendSessionMeta(this.store, a.studyId, { ...meta, participant: p.id, started: a.started, at: new Date().toISOString(), labVersion });
      return { recorded: true };
    });
  }

  /**
   * The questionnaire on screen (demographic after consent, post-task after a scored task):
   * checks the answers against the study's questions, stores them with the time, moves on.
   */
  answer(values: Answers): Promise<SessionState> {
    return this.serial(async () => {
      const { a, p, config } = this.current();
      const questions = questionsOf(p, config);
      if (p.stage !== 'demographics' && p.stage !== 'post-task') throw new StudyError(`there is no questionnaire on the '${p.stage}' screen`);
      const problem = answersProblem(questions, values);
      if (problem) throw new StudyError(problem);
      const at = new Date().toISOString();
      await this.store.updateParticipant(a.studyId, p.id, (x) => {
        const answers = { postTask: {}, ...x.answers };
        if (x.stage === 'demographics') return { ...x, answers: { ...answers, demographic: { at, values } }, stage: 'instructions' };
        const taskId = x.order[x.taskIndex];
        return afterTask({ ...x, answers: { ...answers, postTask: { ...answers.postTask, [taskId]: { at, values } } } }, config);
      });
      return this.stateNow();
    });
  }

  /**
   * The check on screen (checks.ts): a comprehension attempt is recorded and, all right, goes on
   * to the practice, else back to the instructions; an attention check is recorded and the
   * session goes on either way.
   */
  check(answers: Record<string, string>): Promise<SessionState> {
    return this.serial(async () => {
      const { a, p, config } = this.current();
      const at = new Date().toISOString();
      const checks = { comprehension: [], attention: [], ...p.checks };
      if (p.stage === 'comprehension') {
        if (checks.comprehension.length >= MAX_COMPREHENSION_ATTEMPTS) {
          throw new StudyError(`the comprehension check was tried ${checks.comprehension.length} times, the most a session allows: please ask the experimenter`);
        }
        const items = config.checks.comprehension?.questions ?? [];
        const wrong = checked(() => wrongAnswers(items, answers));
        const passed = wrong.length === 0;
        const attempt = { at, answers, wrong, passed };
        await this.store.updateParticipant(a.studyId, p.id, (x) => ({ ...x, checks: { ...checks, comprehension: [...checks.comprehension, attempt] }, stage: passed ? 'practice' : 'instructions' }));
      } else if (p.stage === 'attention') {
        const item = dueAttention(p, config);
        if (!item) throw new StudyError('no attention check is due');
        checked(() => wrongAnswers([item], answers));
        const answer = answers[item.id] ?? '';
        const record = { id: item.id, at, answer, passed: answer === item.correct };
        await this.store.updateParticipant(a.studyId, p.id, (x) => afterTask({ ...x, checks: { ...checks, attention: [...checks.attention, record] } }, config));
      } else throw new StudyError(`there is no check on the '${p.stage}' screen`);
      return this.stateNow();
    });
  }

  /**
   * Withdrawal from any screen, by the participant (on their screen) or the experimenter, with a
   * reason: recorded, the live episode closed (its log stays unless the data are deleted), the
   * session ended and the lab unlocked.
   */
  withdraw(reason: string, by: 'participant' | 'experimenter'): Promise<{ ended: boolean; participant: Participant }> {
    return this.serial(async () => {
      const { a, p } = this.current();
      if (a.episodeId) this.manager.close(a.episodeId);
      const participant = await recordWithdrawal(this.store, a.studyId, p.id, by, reason);
      this.active = null;
      this.save();
      appendSession(this.store, a.studyId, { participant: p.id, started: a.started, ended: participant.withdrawal?.at ?? new Date().toISOString(), outcome: 'withdrawn' });
      return { ended: true, participant };
    });
  }

  /** The participant whose session runs now (experimenter rows that touch one participant check it). */
  runningParticipant(): { studyId: string; participant: string } | null {
    const a = this.refresh();
    return a ? { studyId: a.studyId, participant: a.participant } : null;
  }

  /** The explicit end (or pause): closes the live episode, its log stays for a later resume. */
  end(): Promise<{ ended: boolean; participant: Participant | null }> {
    return this.serial(async () => {
      const a = this.active;
      if (!a) return { ended: false, participant: null };
      if (a.episodeId) this.manager.close(a.episodeId);
      this.active = null;
      this.save();
      if (!this.store.exists(a.studyId)) return { ended: true, participant: null };
      const participant = await this.store.updateParticipant(a.studyId, a.participant, (x) => ({ ...x, status: x.status === 'declined' ? 'declined' : x.stage === 'thanks' ? 'completed' : 'paused' }));
      const outcome = participant.status === 'declined' ? 'declined' : participant.status === 'completed' ? 'completed' : 'paused';
      appendSession(this.store, a.studyId, { participant: participant.id, started: a.started || new Date().toISOString(), ended: new Date().toISOString(), outcome });
      return { ended: true, participant };
    });
  }

  private taskDone(a: Active, participant: string, taskId: string): boolean {
    if (a.episodeId) {
      try {
        return this.manager.info(a.episodeId).done;
      } catch {
        // not live any more: the log decides
      }
    }
    const path = this.store.resolveIn(a.studyId, this.store.trajectoryRel(participant, taskId));
    return existsSync(path) && readTrajectory(path).end !== null;
  }

  private taskOf(p: Participant, config: StudyConfig): string | null {
    if (p.stage === 'practice') return config.practiceTask;
    if (p.stage === 'task') return p.order[p.taskIndex] ?? null;
    return null;
  }

  private current(): { a: Active; p: Participant; config: StudyConfig } {
    const a = this.active;
    if (!a) throw new StudyError('no participant session is running');
    return { a, p: this.store.participant(a.studyId, a.participant), config: this.store.config(a.studyId) };
  }

  private stateNow(): SessionState {
    const { a, p, config } = this.current();
    const taskId = this.taskOf(p, config);
    // A break the study schedules after the tasks done so far, shown before the next one starts.
    const due = p.stage === 'task' && taskId !== null && !p.episodes.some((e) => e.taskId === taskId) ? breakAfter(config, p.taskIndex) : null;
    return {
      studyId: config.id,
      studyName: config.name,
      participant: p.id,
      stage: p.stage,
      protocol: config.protocol,
      texts: config.texts,
      practiceTask: config.practiceTask,
      taskId,
      taskNumber: p.stage === 'task' || p.stage === 'post-task' ? p.taskIndex + 1 : 0,
      taskCount: p.order.length,
      episodeId: a.episodeId,
      questions: questionsOf(p, config),
      breakSeconds: due ? due.seconds : null,
      ...checkOf(p, config),
    };
  }
}

/** The questions of the screen a participant is on (none outside the questionnaires). */
function questionsOf(p: Participant, config: StudyConfig): Question[] {
  if (p.stage === 'demographics') return config.questionnaires.demographic;
  if (p.stage === 'post-task') return config.questionnaires.postTask;
  return [];
}

/** The check on a participant's screen, without its correct answers. */
function checkOf(p: Participant, config: StudyConfig): { check?: CheckForPage } {
  if (p.stage === 'comprehension') return { check: checkForPage('comprehension', config.checks.comprehension?.questions ?? [], p.checks?.comprehension) };
  const due = p.stage === 'attention' ? dueAttention(p, config) : null;
  if (due) return { check: checkForPage('attention', [due]) };
  // At the instructions: the page says questions follow, and after a failed attempt that the answers were not all right.
  if (p.stage === 'instructions' && config.checks.comprehension) return { check: checkForPage('comprehension', [], p.checks?.comprehension) };
  return {};
}

/** The attention check due after the participant's current scored task, not answered yet. */
function dueAttention(p: Participant, config: StudyConfig): AttentionCheck | null {
  return config.checks.attention.find((c) => c.afterTask === p.taskIndex + 1 && !(p.checks?.attention ?? []).some((r) => r.id === c.id)) ?? null;
}

function checked<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new StudyError((e as Error).message);
  }
}

/**
 * After a scored task (and its questionnaire): an attention check due after it, else the next
 * task, or thanks after the last.
 */
function afterTask(x: Participant, config: StudyConfig): Participant {
  if (dueAttention(x, config)) return { ...x, stage: 'attention' };
  const last = x.taskIndex + 1 >= x.order.length;
  return last ? { ...x, stage: 'thanks', status: 'in-session' } : { ...x, stage: 'task', taskIndex: x.taskIndex + 1 };
}
