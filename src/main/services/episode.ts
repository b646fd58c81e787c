// LabApi handlers of the episode rows (src/shared/api/episode.ts), over the lab context's one
// EpisodeManager (shared with the study handlers, so both see the same live episodes).
// Input: the LabContext. Output: HandlersFor the rows. Invariant: results are the manager's
// public snapshots only; domain errors reach the caller through dispatch as they are worded.
import { episodeMethods } from '../../shared/api/episode';
import type { LabContext } from './context';
import type { HandlersFor } from './dispatch';

export function createEpisodeHandlers(ctx: Pick<LabContext, 'episodes'>): HandlersFor<typeof episodeMethods> {
  const manager = ctx.episodes;
  return {
    'episode.start': async (p) => manager.start({ taskId: p.taskId, protocol: p.protocol, player: p.player, ...(p.options ? { options: p.options } : {}) }),
    'episode.step': async (p) => manager.step(p.episodeId, { tool: p.tool, args: p.args }),
    'episode.get': async (p) => manager.snapshotOf(p.episodeId),
    'episode.resume': async (p) => manager.resume(p.log),
    'episode.close': async (p) => ({ closed: manager.close(p.episodeId) }),
  };
}
