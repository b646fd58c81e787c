// The participant session: one study participant at a time goes consent -> instructions ->
// practice -> scored tasks (in their order) -> thanks, each task an EpisodeManager episode whose
// log is trajectories/<participant>/<task>.jsonl in the study folder.
// Inputs: the experimenter's start/end, the participant's advance/task/next. Outputs: the public
// SessionState (never a score). Invariants: while a session is active `active` is non-null and is
// also on disk (<home>/studies/session.json), so a restarted lab stays locked until an explicit
// end; a task is left only after its episode is done (submitted or out of calls); a task that was
// interrupted (pause, crash) continues from its log; operations run one at a time.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EpisodeSnapshot } from '../../shared/api/episode';
import type { SessionState } from '../../shared/api/study';
import { currentConsentVersion, type Participant, type StudyConfig } from '../../shared/study/config';
import { readTrajectory } from '../env/trajectory';
import type { EpisodeManager } from '../episodes/manager';
import { StudyError, writeFileAtomic, type StudyStore } from './store';
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

  /** Runs session operations one at a time (a double click cannot start two episodes). */
  private serial<T>(work: () => Promise<T> | T): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  get locked(): boolean {
    return this.active !== null;
  }

  /** Throws the clear error an experimenter row gets while a participant session runs. */
  assertUnlocked(): void {
    const a = this.active;
    if (a) {
      throw new SessionLockedError(
        `locked while participant ${a.participant}'s session of study '${a.studyId}' runs: experimenter views and hidden scores stay closed until the session is ended (End session, study.session.end)`,
      );
    }
  }

  start(studyId: string, participantId: string): Promise<SessionState> {
    return this.serial(() => {
      this.assertUnlocked();
      const p = this.store.participant(studyId, participantId);
      if (p.status === 'completed') throw new StudyError(`participant ${participantId} has already completed study '${studyId}'`);
      if (p.status === 'declined') throw new StudyError(`participant ${participantId} declined consent (${p.consent?.at ?? 'recorded'}); add a new participant if they change their mind`);
      this.store.updateParticipant(studyId, participantId, (x) => ({ ...x, status: 'in-session' }));
      this.active = { studyId, participant: participantId, started: new Date().toISOString(), episodeId: null };
      this.save();
      return this.stateNow();
    });
  }

  state(): SessionState | null {
    return this.active ? this.stateNow() : null;
  }

  /**
   * consent -> instructions (accept: true), a declined consent recorded (accept: false: the
   * participant's status becomes 'declined' and the session can go no further), and
   * instructions -> practice. The decision keeps the time and the consent version shown.
   */
  advance(accept: boolean | undefined): Promise<SessionState> {
    return this.serial(() => {
      const { a, p } = this.current();
      if (p.stage === 'consent') {
        if (p.status === 'declined') throw new StudyError('consent was declined: this session has ended; please tell the experimenter');
        if (accept === undefined) throw new StudyError('consent was not given: the session cannot continue without it');
        const at = new Date().toISOString();
        const version = currentConsentVersion(this.store.config(a.studyId));
        if (!accept) {
          this.store.updateParticipant(a.studyId, p.id, (x) => ({ ...x, status: 'declined', consent: { decision: 'declined', at, version } }));
          return this.stateNow();
        }
        this.store.updateParticipant(a.studyId, p.id, (x) => ({ ...x, stage: 'instructions', consentAt: at, consent: { decision: 'agreed', at, version } }));
      } else if (p.stage === 'instructions') {
        this.store.updateParticipant(a.studyId, p.id, (x) => ({ ...x, stage: 'practice' }));
      } else {
        throw new StudyError(`cannot advance from the '${p.stage}' screen (a task ends by submitting it)`);
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
        this.store.updateParticipant(a.studyId, p.id, (x) => ({
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
    return this.serial(() => {
      const { a, p, config } = this.current();
      const taskId = this.taskOf(p, config);
      if (!taskId) throw new StudyError(`there is no task to finish on the '${p.stage}' screen`);
      if (!this.taskDone(a, p.id, taskId)) throw new StudyError(`task '${taskId}' is not finished yet: submit it first`);
      if (a.episodeId) this.manager.close(a.episodeId);
      a.episodeId = null;
      const now = new Date().toISOString();
      this.store.updateParticipant(a.studyId, p.id, (x) => {
        const episodes = x.episodes.map((e) => (e.taskId === taskId ? { ...e, status: 'submitted' as const, ended: now } : e));
        if (x.stage === 'practice') return { ...x, episodes, stage: 'task', taskIndex: 0 };
        const last = x.taskIndex + 1 >= x.order.length;
        return last ? { ...x, episodes, stage: 'thanks', status: 'in-session' } : { ...x, episodes, taskIndex: x.taskIndex + 1 };
      });
      this.save();
      return this.stateNow();
    });
  }

  /** The explicit end (or pause): closes the live episode, its log stays for a later resume. */
  end(): Promise<{ ended: boolean; participant: Participant | null }> {
    return this.serial(() => {
      const a = this.active;
      if (!a) return { ended: false, participant: null };
      if (a.episodeId) this.manager.close(a.episodeId);
      this.active = null;
      this.save();
      if (!this.store.exists(a.studyId)) return { ended: true, participant: null };
      const participant = this.store.updateParticipant(a.studyId, a.participant, (x) => ({ ...x, status: x.status === 'declined' ? 'declined' : x.stage === 'thanks' ? 'completed' : 'paused' }));
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
      taskNumber: p.stage === 'task' ? p.taskIndex + 1 : 0,
      taskCount: p.order.length,
      episodeId: a.episodeId,
      breakSeconds: due ? due.seconds : null,
    };
  }
}
