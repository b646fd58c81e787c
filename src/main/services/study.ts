// LabApi handlers of the study rows (src/shared/api/study.ts): storage under labHome()/studies,
// the participant session over the shared EpisodeManager, results, replay frames, CSV, imports.
// Inputs: LabDeps (+ optional home, manager and renderer for tests). Output: HandlersFor the rows.
// Invariant: while a participant session runs, every row in SESSION_LOCKED_METHODS fails with one
// clear line before doing anything, so no hidden score can reach the participant's screen.
import { SESSION_LOCKED_METHODS, studyMethods, type TrajectoryView } from '../../shared/api/study';
import { BOOTSTRAP_DEFAULTS } from '../../shared/study/bootstrap';
import { episodesCsv, summarize, summaryCsv } from '../../shared/study/results';
import { analyse } from '../../shared/analysis/report';
import { labHome } from '../app/home';
import { analysisEpisodes, studySources } from '../eval/analyses';
import { parseTrajectory, readTrajectory } from '../env/trajectory';
import type { EpisodeManager } from '../episodes/manager';
import { pngDataUrl } from '../episodes/public';
import { Grader, graderDevice } from '../grader/grader';
import { loadTask, taskIds } from '../tasks/load';
import { resolveTasksDir } from '../tasks/paths';
import { LabFailure, type HandlersFor } from './dispatch';
import { episodeManager } from './episode';
import type { LabDeps } from './lab';
import { replayFrame, type SceneRenderer } from '../studies/replay';
import { studyResults, trajectorySteps } from '../studies/results';
import { StudySessions } from '../studies/session';
import { StudyStore } from '../studies/store';

type StudyHandlers = HandlersFor<typeof studyMethods>;

export interface StudyServiceOptions {
  home?: string;
  manager?: EpisodeManager;
  /** Rasterizer for replay frames; default a grader on the lab's device with LPIPS off. */
  renderer?: () => Promise<SceneRenderer>;
}

async function failing<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof LabFailure ? error : new LabFailure(error instanceof Error ? error.message : String(error));
  }
}

export function createStudyHandlers(deps: LabDeps, opts: StudyServiceOptions = {}): StudyHandlers {
  const store = new StudyStore(opts.home ?? labHome());
  const manager = opts.manager ?? episodeManager(deps);
  const sessions = new StudySessions(store, manager);
  const tasksDir = resolveTasksDir(deps.tasksDir);
  let renderer: Promise<SceneRenderer> | undefined;
  const getRenderer = (): Promise<SceneRenderer> => {
    renderer ??= opts.renderer ? opts.renderer() : Grader.create({ ...graderDevice(deps.gpu), lpipsDir: null });
    renderer.catch(() => (renderer = undefined));
    return renderer;
  };
  const trajectoryOf = (studyId: string, log: string) => {
    if (!store.exists(studyId)) throw new Error(`no study '${studyId}'`);
    return readTrajectory(store.resolveIn(studyId, log));
  };

  const handlers: StudyHandlers = {
    'study.list': () => failing(() => store.list()),
    'study.create': (p) => failing(() => store.create(p, new Set(taskIds(tasksDir)))),
    'study.get': (p) => failing(() => ({ config: store.config(p.studyId), participants: store.participants(p.studyId) })),
    'study.updateTexts': (p) => failing(() => store.updateTexts(p.studyId, p.texts)),
    'study.addParticipant': (p) => failing(() => store.addParticipant(p.studyId)),
    'study.results': (p) =>
      failing(() => {
        store.config(p.studyId);
        const episodes = studyResults(store, p.studyId);
        return { episodes, summary: summarize(episodes, BOOTSTRAP_DEFAULTS), bootstrap: { ...BOOTSTRAP_DEFAULTS } };
      }),
    'study.analyses': (p) =>
      failing(async () => {
        store.config(p.studyId);
        const r = await getRenderer();
        const rows = await analysisEpisodes(studySources(store, p.studyId), tasksDir, (splats, cameras) => r.renderViews(splats, cameras));
        return { report: analyse(rows), episodes: rows.length };
      }),
    'study.trajectory': (p) =>
      failing(async (): Promise<TrajectoryView> => {
        const traj = trajectoryOf(p.studyId, p.log);
        const taskId = traj.header?.task ?? '';
        const task = await loadTask(taskId, { tasksDir });
        const e = traj.end;
        return {
          log: p.log,
          taskId,
          player: traj.header?.player ?? 'unknown',
          protocol: traj.header?.protocol ?? 'unknown',
          started: traj.header?.started ?? '',
          heldoutViews: task.heldout.map((v) => v.name),
          steps: trajectorySteps(traj),
          end: e ? { reason: e.reason, score: e.score, reward: e.reward, lpipsMissing: e.lpips_missing, t: e.t } : null,
          truncated: traj.truncated,
        };
      }),
    'study.replayFrame': (p) =>
      failing(async () => {
        const traj = trajectoryOf(p.studyId, p.log);
        const task = await loadTask(traj.header?.task ?? '', { tasksDir });
        const frame = await replayFrame(task, traj, p.step, p.view, await getRenderer());
        return { step: p.step, view: p.view, image: pngDataUrl(frame.png), gaussians: frame.gaussians };
      }),
    'study.exportCsv': (p) =>
      failing(() => {
        store.config(p.studyId);
        const episodes = studyResults(store, p.studyId);
        const csv = p.table === 'episodes' ? episodesCsv(episodes) : summaryCsv(summarize(episodes, BOOTSTRAP_DEFAULTS));
        return { filename: `${p.studyId}-${p.table}.csv`, csv };
      }),
    'study.importModel': (p) =>
      failing(() => {
        const config = store.config(p.studyId);
        const traj = parseTrajectory(p.text.endsWith('\n') ? p.text : `${p.text}\n`);
        if (!traj.header) throw new Error('the file has no trajectory header line ({"type":"header", "task": ...})');
        if (traj.badLines.length) throw new Error(`line(s) ${traj.badLines.slice(0, 5).join(', ')} are not trajectory records`);
        if (!config.tasks.includes(traj.header.task)) throw new Error(`the trajectory is of task '${traj.header.task}', which is not a scored task of this study (${config.tasks.join(', ')})`);
        if (traj.steps.length === 0) throw new Error('the trajectory has no calls');
        const model = p.model ?? traj.header.player;
        const log = store.saveModelLog(p.studyId, model, traj.header.task, p.text);
        return { model: log.split('/')[1], taskId: traj.header.task, log };
      }),
    'study.session.start': (p) => failing(() => sessions.start(p.studyId, p.participant)),
    'study.session.get': async () => sessions.state(),
    'study.session.advance': (p) => failing(() => sessions.advance(p.accept === true)),
    'study.session.task': () => failing(() => sessions.task()),
    'study.session.next': () => failing(() => sessions.next()),
    'study.session.end': () => failing(() => sessions.end()),
  };

  for (const method of SESSION_LOCKED_METHODS) {
    const inner = handlers[method] as (params: unknown) => Promise<unknown>;
    (handlers as Record<string, (params: unknown) => Promise<unknown>>)[method] = (params) =>
      failing(() => {
        sessions.assertUnlocked();
        return inner(params);
      });
  }
  return handlers;
}
