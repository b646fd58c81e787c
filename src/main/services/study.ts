// LabApi handlers of the study rows (src/shared/api/study.ts): storage under labHome()/studies,
// the participant session over the shared EpisodeManager, results, replay frames, CSV, imports.
// Inputs: the LabContext (+ an optional renderer for tests). Output: HandlersFor the rows.
// Invariant: while a participant session runs, every row in SESSION_LOCKED_METHODS fails with one
// clear line before doing anything, so no hidden score can reach the participant's screen.
import { EXPORT_CHUNK_BYTES, SESSION_LOCKED_METHODS, studyMethods, type TrajectoryView } from '../../shared/api/study';
import { pairedDifferences, participantSummaries } from '../../shared/study/paired';
import { assignSlot, deleteParticipantData, readDeletions, recordWithdrawal, setExclusion } from '../study/participant-data';
import { exportStudy, readExportChunk } from '../study/export';
import { paperContent, paperHtml } from '../study/paper';
import { readFileSync } from 'node:fs';
import { confinedPath } from '../io/confine';
import { mergeStationArchive, mergeSummary } from '../study/merge';
import { inboxArchives, joinStation, stationInbox, writeStationArchive, writeStationFiles } from '../study/stations';
import { BOOTSTRAP_DEFAULTS } from '../../shared/analysis/bootstrap';
import { episodesCsv, summarize, summaryCsv } from '../../shared/study/results';
import { analyse } from '../../shared/analysis/report';
import { analysisEpisodes, studySources } from '../study/analyses';
import { parseTrajectory, readTrajectory } from '../env/trajectory';
import { pngDataUrl } from '../env/public';
import { readSpecHead, taskIds } from '../tasks/load';
import { kindModule } from '../../shared/kinds/registry';
import { mainKind } from '../kinds/registry';
import type { LabContext } from './context';
import { wrapHandlers, type HandlersFor } from './dispatch';
import { replayFrame, replayFrameFrom, type SceneRenderer } from '../study/replay';
import type { RunOf } from '../study/run-score';
import { trajectoryView } from '../study/trajectory-view';
import { flowSvg, participantFlow } from '../../shared/study/flow';
import { parseProcessLog, poseCamera } from '../../shared/env/process-log';
import { appendProcessEvents } from '../episodes/process-writer';
import { applyAttentionRule } from '../study/checks';
import { checkSummary } from '../../shared/study/checks';
import { shareStatus } from '../../shared/study/shares';
import { studyResults } from '../study/results';
import { StudySessions } from '../study/session';
import { StudyError, StudyStore } from '../study/store';
import { importProblem, modelNameProblem, verifyModelLog } from '../study/verify';
import type { EnvGrader } from '../env/types';
import type { Zippable } from 'fflate';

type StudyHandlers = HandlersFor<typeof studyMethods>;

export interface StudyServiceOptions {
  /** Rasterizer for replay frames; default the lab's one grader. */
  renderer?: () => Promise<SceneRenderer>;
  /** Grader for verifying imports; default the lab's one grader. */
  grader?: () => Promise<EnvGrader>;
}

export function createStudyHandlers(ctx: LabContext, opts: StudyServiceOptions = {}): StudyHandlers {
  const store = new StudyStore(ctx.home);
  const sessions = new StudySessions(store, ctx.episodes);
  const tasksDir = ctx.tasksDir;
  const getRenderer = (): Promise<SceneRenderer> => (opts.renderer ? opts.renderer() : ctx.grader());
  const getGrader = (): Promise<EnvGrader> => (opts.grader ? opts.grader() : ctx.grader());
  /** Running analyses by study (study.analysesCancel aborts one). */
  const analysing = new Map<string, AbortController>();
  const trajectoryOf = (studyId: string, log: string) => {
    if (!store.exists(studyId)) throw new Error(`no study '${studyId}'`);
    return readTrajectory(store.resolveIn(studyId, log));
  };

  // A model run's process stream is descriptive (its messages and tokens): kept as the file gave it,
  // parsed event by event and bounded by the process writer.
  const keepProcess = (studyId: string, log: string, text: string | undefined): void => {
    if (text) appendProcessEvents(store.resolveIn(studyId, log), parseProcessLog(text));
  };
  const handlers: StudyHandlers = {
    'study.list': async () => store.list(),
    'study.create': async (p) => store.create(p, new Set(taskIds(tasksDir)), new Date(), (id) => kindModule(readSpecHead(tasksDir, id).kind).participant),
    'study.get': async (p) => ({ config: store.config(p.studyId), participants: store.participants(p.studyId) }),
    'study.updateTexts': async (p) => store.updateTexts(p.studyId, p.texts),
    'study.addParticipant': async (p) => store.addParticipant(p.studyId),
    'study.results': async (p) => {
      store.config(p.studyId);
      const episodes = studyResults(store, p.studyId, tasksDir);
      return {
        episodes,
        summary: summarize(episodes, BOOTSTRAP_DEFAULTS),
        bootstrap: { ...BOOTSTRAP_DEFAULTS },
        paired: pairedDifferences(episodes, BOOTSTRAP_DEFAULTS),
        participants: participantSummaries(episodes),
        flow: (() => {
          const counts = participantFlow(store.participants(p.studyId), readDeletions(store, p.studyId));
          return { counts, svg: flowSvg(counts, `Participant flow: ${store.config(p.studyId).name}`) };
        })(),
        checks: (() => {
          const rule = store.config(p.studyId).checks.maxAttentionFailures;
          const rows = store.participants(p.studyId).filter((x) => x.checks).map((x) => checkSummary(x.id, x.checks, rule));
          return { rows, maxAttentionFailures: rule ?? null };
        })(),
        ...(() => {
          const config = store.config(p.studyId);
          return config.share ? { shares: { ...shareStatus({ tasks: config.tasks, share: config.share }, store.participants(p.studyId)), minPerTask: config.share.minPerTask } } : {};
        })(),
      };
    },
    'study.analyses': async (p, caller) => {
      store.config(p.studyId);
      if (analysing.has(p.studyId)) throw new StudyError(`the analyses of study '${p.studyId}' are already running`);
      const abort = new AbortController();
      analysing.set(p.studyId, abort);
      const task = `analyses ${p.studyId}`;
      try {
        const r = await getRenderer();
        const rows = await analysisEpisodes(studySources(store, p.studyId), tasksDir, (splats, cameras) => r.renderViews(splats, cameras), {
          signal: abort.signal,
          onProgress: (done, total) => ctx.events.publish('progress', { task, done, total, message: done < total ? `reading episode ${done + 1} of ${total}` : `${total} episodes read` }, caller),
        });
        return { report: analyse(rows), episodes: rows.length };
      } finally {
        analysing.delete(p.studyId);
      }
    },
    'study.paper': async (p) => {
      // As the archive's paper/: the mirror test drawn by the lab's renderer.
      const r = await getRenderer();
      const paper = await paperContent(store, p.studyId, { tasksDir, render: (splats, cameras) => r.renderViews(splats, cameras) });
      return { tables: paper.tables, figures: paper.figures, html: paperHtml(paper) };
    },
    'study.analysesCancel': async (p) => {
      const a = analysing.get(p.studyId);
      a?.abort();
      return { cancelled: a !== undefined };
    },
    'study.trajectory': async (p): Promise<TrajectoryView> => {
      const traj = trajectoryOf(p.studyId, p.log);
      const task = await ctx.tasks.getAny(traj.header?.task ?? '');
      // The one score of the run (run-score.ts): an imported model's per-call and final scores are the lab's regrades.
      const model = store.modelLogs(p.studyId).find((m) => m.rel === p.log);
      const run: RunOf = model ? { kind: 'model', verdict: model.verdict } : { kind: 'human' };
      return trajectoryView(traj, task, { log: p.log, path: store.resolveIn(p.studyId, p.log), run });
    },
    'study.replayFrame': async (p) => {
      const traj = trajectoryOf(p.studyId, p.log);
      const task = await ctx.tasks.get(traj.header?.task ?? '');
      const frame = await replayFrame(task, traj, p.step, p.view, await getRenderer());
      return { step: p.step, view: p.view, image: pngDataUrl(frame.png), gaussians: frame.gaussians };
    },
    'study.replayPose': async (p) => {
      const traj = trajectoryOf(p.studyId, p.log);
      const task = await ctx.tasks.get(traj.header?.task ?? '');
      const frame = await replayFrameFrom(task, traj, p.step, poseCamera(p.pose.m, p.pose.f), await getRenderer());
      return { step: p.step, image: pngDataUrl(frame.png), gaussians: frame.gaussians };
    },
    'study.exportCsv': async (p) => {
      store.config(p.studyId);
      const episodes = studyResults(store, p.studyId, tasksDir);
      const csv = p.table === 'episodes' ? episodesCsv(episodes) : summaryCsv(summarize(episodes, BOOTSTRAP_DEFAULTS));
      return { filename: `${p.studyId}-${p.table}.csv`, csv };
    },
    'study.importModel': async (p) => {
      const config = store.config(p.studyId);
      const traj = parseTrajectory(p.text.endsWith('\n') ? p.text : `${p.text}\n`);
      if (!traj.header) throw new Error('the file has no trajectory header line ({"type":"header", "task": ...})');
      if (traj.badLines.length) throw new Error(`line(s) ${traj.badLines.slice(0, 5).join(', ')} are not trajectory records`);
      if (!config.tasks.includes(traj.header.task)) throw new Error(`the trajectory is of task '${traj.header.task}', which is not a scored task of this study (${config.tasks.join(', ')})`);
      if (traj.steps.length === 0) throw new Error('the trajectory has no calls');
      const model = p.model ?? traj.header.player;
      const nameProblem = modelNameProblem(model, store.participants(p.studyId).map((x) => x.id));
      if (nameProblem) throw new Error(nameProblem);
      const importRun = mainKind(readSpecHead(tasksDir, traj.header.task).kind).importRun;
      if (importRun) {
        // A run regraded from its calls (search: no scene to grade); the regrade is the score.
        const outcome = await importRun(traj, tasksDir, traj.header.task);
        refuseCopy(p.studyId, p.text);
        const log = store.saveModelLog(p.studyId, model, traj.header.task, p.text, null);
        keepProcess(p.studyId, log, p.process);
        const claimed = typeof traj.end?.score === 'number' ? traj.end.score : null;
        return { model, taskId: traj.header.task, log, score: outcome.score, fileScore: claimed, mismatch: false };
      }
      const task = await ctx.tasks.get(traj.header.task);
      const problem = importProblem(traj, task);
      if (problem) throw new Error(problem);
      refuseCopy(p.studyId, p.text);
      const verdict = await verifyModelLog(traj, task, await getGrader());
      const log = store.saveModelLog(p.studyId, model, traj.header.task, p.text, verdict);
      keepProcess(p.studyId, log, p.process);
      return { model, taskId: traj.header.task, log, score: verdict.score, fileScore: verdict.fileScore, mismatch: verdict.mismatch };
    },
    'study.assignSlot': async (p) => assignSlot(store, store.config(p.studyId), p.participant, p.slot),
    'study.exclude': async (p) => setExclusion(store, p.studyId, p.participant, p.taskId, p.reason),
    'study.applyAttentionRule': async (p) => applyAttentionRule(store, p.studyId),
    'study.withdraw': async (p) => recordWithdrawal(store, p.studyId, p.participant, 'experimenter', p.reason),
    'study.deleteParticipant': async (p) => deleteParticipantData(store, p.studyId, p.participant, p.requestedBy),
    'study.export': async (p, caller) => {
      // The archive carries the paper's tables (paper/), the mirror test drawn by the lab's renderer.
      const r = await getRenderer();
      // The archive is compressed on the worker pool (job 'archive.zip'), off the event loop.
      const zip = (members: Zippable): Promise<Uint8Array> => ctx.pool.run('archive.zip', members, { client: caller.id });
      return exportStudy(store, p.studyId, { tasksDir, version: ctx.version, zip, paper: { render: (splats, cameras) => r.renderViews(splats, cameras) } });
    },
    'study.stations': async (p) => ({ files: writeStationFiles(store, p.studyId, p.count) }),
    'study.joinStation': async (p) => joinStation(store, p.text, new Set(taskIds(tasksDir))),
    'study.stationArchive': async (p) => writeStationArchive(store, p.studyId),
    'study.stationInbox': async (p) => ({ folder: stationInbox(store), archives: inboxArchives(store, p.studyId) }),
    'study.merge': async (p) => {
      const report = await mergeStationArchive(store, p.studyId, readFileSync(confinedPath(stationInbox(store), p.name, 'station archive', 'the stations folder')));
      return { summary: mergeSummary(report), added: report.participants.added, deleted: report.participants.deleted };
    },
    'study.exportChunk': async (p) => {
      const { data, total } = readExportChunk(store, p.studyId, p.name, p.offset, EXPORT_CHUNK_BYTES);
      return { data: Buffer.from(data).toString('base64'), offset: p.offset, total, done: p.offset + data.length >= total };
    },
    'study.session.start': async (p) => sessions.start(p.studyId, p.participant),
    'study.session.get': async () => sessions.state(),
    'study.session.advance': async (p) => sessions.advance(p.accept),
    'study.session.task': async (_p, caller) => {
      // The page that opens the task holds its episode (a closed page is then marked disconnected).
      const snapshot = await sessions.task();
      ctx.episodes.attach(snapshot.episodeId, caller);
      return snapshot;
    },
    'study.session.next': async () => sessions.next(),
    'study.session.answer': async (p) => sessions.answer(p.values),
    'study.session.check': async (p) => sessions.check(p.answers),
    // Only a screen the experimenter unlocked may record the withdrawal as theirs (issue 38 item 4).
    'study.session.withdraw': async (p, caller) => sessions.withdraw(p.reason, caller.role === 'participant' ? 'participant' : p.by),
    'study.session.meta': async (p) => sessions.meta(p, ctx.version),
    'study.session.end': async () => sessions.end(),
  };

  /** A copy of a run already in the study (the same calls at the same times) is refused, whatever its header or end record says. */
  function refuseCopy(studyId: string, text: string): void {
    const copy = store.duplicateRun(studyId, text);
    if (copy) throw new Error(`this run is already in the study as ${copy} (the same calls at the same times): not imported again`);
  }

  const locked = async (run: () => Promise<unknown>): Promise<unknown> => {
    sessions.assertUnlocked();
    return run();
  };
  return wrapHandlers(handlers, locked, SESSION_LOCKED_METHODS);
}
