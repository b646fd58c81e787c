// LabApi handlers of free play in Results (src/shared/api/free-play.ts; issue 30 item 6): rows,
// replay and CSV of the episodes under <home>/trajectories/ (src/main/study/free-play.ts).
// Inputs: the LabContext (+ an optional renderer for tests). Output: HandlersFor the rows.
// Invariant: refused while a participant session runs (hidden scores); the scores are the run's
// one score (run-score.ts), as in a study's Results.
import type { freePlayMethods } from '../../shared/api/free-play';
import type { TrajectoryView } from '../../shared/api/study';
import { BOOTSTRAP_DEFAULTS } from '../../shared/analysis/bootstrap';
import { episodesCsv, summarize, summaryCsv } from '../../shared/study/results';
import { pngDataUrl } from '../env/public';
import { readTrajectory } from '../env/trajectory';
import { freePlayPath, freePlayResults } from '../study/free-play';
import { replayFrame, type SceneRenderer } from '../study/replay';
import { trajectoryView } from '../study/trajectory-view';
import type { LabContext } from './context';
import type { HandlersFor } from './dispatch';
import { refuseDuringSession } from './session-lock';

export function createFreePlayHandlers(ctx: LabContext, opts: { renderer?: () => Promise<SceneRenderer> } = {}): HandlersFor<typeof freePlayMethods> {
  const dir = (): string => ctx.episodes.trajectoriesDir;
  const getRenderer = (): Promise<SceneRenderer> => (opts.renderer ? opts.renderer() : ctx.grader());
  const handlers: HandlersFor<typeof freePlayMethods> = {
    'freeplay.results': async () => {
      const episodes = freePlayResults(dir(), ctx.tasksDir);
      return { episodes, summary: summarize(episodes, BOOTSTRAP_DEFAULTS), bootstrap: { ...BOOTSTRAP_DEFAULTS } };
    },
    'freeplay.trajectory': async (p): Promise<TrajectoryView> => {
      const path = freePlayPath(dir(), p.log);
      const traj = readTrajectory(path);
      return trajectoryView(traj, await ctx.tasks.getAny(traj.header?.task ?? ''), { log: p.log, path, run: { kind: 'human' } });
    },
    'freeplay.replayFrame': async (p) => {
      const traj = readTrajectory(freePlayPath(dir(), p.log));
      const task = await ctx.tasks.get(traj.header?.task ?? '');
      const frame = await replayFrame(task, traj, p.step, p.view, await getRenderer());
      return { step: p.step, view: p.view, image: pngDataUrl(frame.png), gaussians: frame.gaussians };
    },
    'freeplay.exportCsv': async (p) => {
      const episodes = freePlayResults(dir(), ctx.tasksDir);
      return { filename: `free-play-${p.table}.csv`, csv: p.table === 'episodes' ? episodesCsv(episodes) : summaryCsv(summarize(episodes, BOOTSTRAP_DEFAULTS)) };
    },
  };
  return refuseDuringSession(handlers, ctx.home);
}
