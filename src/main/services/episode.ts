// LabApi handlers of the episode rows (src/shared/api/episode.ts), over the lab context's one
// EpisodeManager (shared with the study handlers, so both see the same live episodes).
// Input: the LabContext. Output: HandlersFor the rows. Invariant: results are the manager's
// public snapshots only; domain errors reach the caller through dispatch as they are worded.
// Every row that names an episode attaches its caller, so a closed page is marked disconnected.
import { episodeMethods } from '../../shared/api/episode';
import type { LabContext } from './context';
import type { Caller } from './connection';
import type { HandlersFor } from './dispatch';

export function createEpisodeHandlers(ctx: Pick<LabContext, 'episodes'>): HandlersFor<typeof episodeMethods> {
  const manager = ctx.episodes;
  const held = <T extends { episodeId: string }>(caller: Caller, value: T): T => {
    manager.attach(value.episodeId, caller);
    return value;
  };
  return {
    'episode.start': async (p, caller) => held(caller, await manager.start({ taskId: p.taskId, protocol: p.protocol, player: p.player, ...(p.options ? { options: p.options } : {}) })),
    'episode.step': async (p, caller) => {
      manager.attach(p.episodeId, caller);
      return manager.step(p.episodeId, { tool: p.tool, args: p.args }, p.requestId);
    },
    'episode.result': async (p, caller) => {
      manager.attach(p.episodeId, caller);
      return manager.result(p.episodeId, p.requestId);
    },
    'episode.get': async (p, caller) => held(caller, await manager.reattach(p.episodeId)),
    'episode.mark': async (p, caller) => {
      manager.attach(p.episodeId, caller);
      return manager.mark(p.episodeId, p.event);
    },
    'episode.heartbeat': async (p, caller) => {
      manager.attach(p.episodeId, caller);
      return manager.heartbeat(p.episodeId, { sentAt: p.sentAt, ...(p.calls ? { calls: p.calls } : {}), ...(p.events ? { events: p.events } : {}) });
    },
    'episode.resume': async (p, caller) => held(caller, await manager.resume(p.log)),
    'episode.close': async (p) => ({ closed: manager.close(p.episodeId) }),
  };
}
