// LabApi handlers of the episode rows (src/shared/api/episode.ts), over one EpisodeManager per
// set of lab services. Inputs: LabDeps (GPU context, tasks folder). Output: HandlersFor the rows.
// Invariant: results are the manager's public snapshots only; the manager is shared with the
// study handlers through episodeManager(deps), so both see the same live episodes.
import { episodeMethods } from '../../shared/api/episode';
import { labHome } from '../app/home';
import { EpisodeManager } from '../episodes/manager';
import { Grader, graderDevice } from '../grader/grader';
import { LabFailure, type HandlersFor } from './dispatch';
import type { LabDeps } from './lab';

const managers = new WeakMap<LabDeps, EpisodeManager>();

/** The one EpisodeManager of these services (created on first use; the grader on first start). */
export function episodeManager(deps: LabDeps): EpisodeManager {
  let manager = managers.get(deps);
  if (!manager) {
    manager = new EpisodeManager({
      tasksDir: deps.tasksDir,
      home: labHome(),
      version: deps.version,
      // A GPU grader that fails to build (pipelines, limits) must not block play: the CPU
      // reference grades identically, only slower.
      grader: () => Grader.create(graderDevice(deps.gpu)).catch(() => Grader.create({ device: null })),
    });
    managers.set(deps, manager);
  }
  return manager;
}

/** Domain errors (unknown task, no such episode, bad log) reach the caller as they are worded. */
async function failing<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new LabFailure(error instanceof Error ? error.message : String(error));
  }
}

export function createEpisodeHandlers(deps: LabDeps, manager = episodeManager(deps)): HandlersFor<typeof episodeMethods> {
  return {
    'episode.start': (p) => failing(() => manager.start({ taskId: p.taskId, protocol: p.protocol, player: p.player, ...(p.options ? { options: p.options } : {}) })),
    'episode.step': (p) => failing(() => manager.step(p.episodeId, { tool: p.tool, args: p.args })),
    'episode.get': (p) => failing(() => manager.snapshotOf(p.episodeId)),
    'episode.resume': (p) => failing(() => manager.resume(p.log)),
    'episode.close': async (p) => ({ closed: manager.close(p.episodeId) }),
  };
}
