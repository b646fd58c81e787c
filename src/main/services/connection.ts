// Who is calling LabApi: one Connection per WebSocket, per Electron window (webContents), or the
// process itself for direct calls (tests, the CLI). Each has a role (src/shared/api/roles.ts):
// experimenter, participant (handed one study session) or process. Resources a handler creates
// for a caller (a debugger session, an episode it owns) are registered with onClose and released
// when that connection goes (a closed tab, a destroyed window), so nothing outlives its owner.
// Invariants: each close hook runs exactly once, in registration order; a hook registered after
// close runs at once; a participant connection always names the session it was handed.
import { randomBytes } from 'node:crypto';
import type { Role, SessionBinding } from '../../shared/api/roles';

export interface Caller {
  readonly id: string;
  readonly role: Role;
  /** The study session a participant connection was handed; null for the other roles. */
  readonly session: SessionBinding | null;
  /** A participant screen the experimenter handed over on their own page (not a participant link). */
  readonly handed?: boolean;
  readonly isClosed: boolean;
  onClose(hook: () => void): void;
}

export type ConnectionRole = { role: 'experimenter' } | { role: 'participant'; session: SessionBinding; handed?: boolean } | { role: 'process' };

export class Connection implements Caller {
  readonly id = randomBytes(6).toString('hex');
  private hooks: (() => void)[] = [];
  private closed = false;
  private current: ConnectionRole;

  constructor(role: ConnectionRole = { role: 'experimenter' }) {
    this.current = role;
  }

  get role(): Role {
    return this.current.role;
  }

  get session(): SessionBinding | null {
    return this.current.role === 'participant' ? this.current.session : null;
  }

  get handed(): boolean {
    return this.current.role === 'participant' && this.current.handed === true;
  }

  /** The unlock (PIN or experimenter token) or a session handed over: the services decide when. */
  setRole(role: ConnectionRole): void {
    this.current = role;
  }

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
export const DIRECT_CALLER: Caller = new Connection({ role: 'process' });
