// The state of this window's connection to the lab (browser mode): open, connecting, or lost
// and retrying with backoff. The socket client drives it; the connection banner shows it and
// the episode view re-attaches its episode when a lost connection comes back.
// Invariant: `reconnected` hooks run once per lost -> open transition, never on the first open.
import { reactive } from 'vue';

export type LinkState = 'connecting' | 'open' | 'lost';

export interface LinkStatus {
  readonly state: LinkState;
  /** Reconnection attempts since the connection was lost (0 while open). */
  readonly attempt: number;
  /** When the next attempt starts (epoch ms), while lost. */
  readonly retryAt: number | null;
  /** Epoch ms the connection was lost (null while open). */
  readonly lostAt: number | null;
}

export interface Link {
  readonly status: LinkStatus;
  onReconnected(hook: () => void): () => void;
}

export interface LinkDriver extends Link {
  set(next: Partial<LinkStatus> & { state: LinkState }): void;
}

/** Delay before reconnection attempt `n` (1-based): 250 ms doubling, at most 4 s, jittered. */
export function backoffMs(n: number, random: () => number = Math.random): number {
  const base = Math.min(4000, 250 * 2 ** Math.max(0, n - 1));
  return Math.round(base * (0.75 + 0.5 * random()));
}

export function createLink(initial: LinkState = 'connecting'): LinkDriver {
  const status = reactive<{ state: LinkState; attempt: number; retryAt: number | null; lostAt: number | null }>({ state: initial, attempt: 0, retryAt: null, lostAt: null });
  const hooks = new Set<() => void>();
  return {
    status,
    onReconnected(hook) {
      hooks.add(hook);
      return () => hooks.delete(hook);
    },
    set(next) {
      const wasLost = status.state === 'lost';
      Object.assign(status, { attempt: 0, retryAt: null, lostAt: null }, next);
      if (next.state === 'open' && wasLost) for (const hook of [...hooks]) hook();
    },
  };
}
