// Who is calling LabApi: one Connection per WebSocket, per Electron window (webContents), or the
// process itself for direct calls (tests, the CLI). Resources a handler creates for a caller (a
// debugger session, later a participant's episode) are registered with onClose and released when
// that connection goes (a closed tab, a destroyed window), so nothing outlives its owner.
// Invariant: each close hook runs exactly once, in registration order; a hook registered after
// close runs at once.
import { randomBytes } from 'node:crypto';

export interface Caller {
  readonly id: string;
  onClose(hook: () => void): void;
}

export class Connection implements Caller {
  readonly id = randomBytes(6).toString('hex');
  private hooks: (() => void)[] = [];
  private closed = false;

  onClose(hook: () => void): void {
    if (this.closed) hook();
    else this.hooks.push(hook);
  }

  /** Runs every hook once; a throwing hook does not keep the others from running. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const hooks = this.hooks;
    this.hooks = [];
    for (const hook of hooks) {
      try {
        hook();
      } catch {
        // A release that fails leaves nothing more to release; the others must still run.
      }
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

/** The process's own calls (tests, CLI): never closed while the process runs. */
export const DIRECT_CALLER: Caller = new Connection();
