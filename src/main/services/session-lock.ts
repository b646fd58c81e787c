// Experimenter rows that can reveal held-out views, fits or scores (authoring, debugging) are
// refused while a participant session runs, so nothing a participant's screen could request
// carries hidden data. The study side writes the lock file; this only reads it. A connection that
// proved it is the experimenter's (its token, or the unlock: roles.ts) may author meanwhile; the
// participant's screen never reaches these rows at all (the role check refuses them first). The
// lock file is looked for on libuv's pool (issue 38 item 2), not with a synchronous call per row.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { labHome } from '../io/home';
import type { Caller } from './connection';
import { LabFailure, wrapHandlers } from './dispatch';

export const SESSION_LOCKED_MESSAGE =
  'locked while a participant session runs: experimenter views and hidden data stay closed until the session is ended (End session, study.session.end)';

export function sessionLockFile(home = labHome()): string {
  return join(home, 'studies', 'session.json');
}

/** The same handlers, each refusing to run while the session lock exists. */
export function refuseDuringSession<H extends Record<string, (params: never, caller: Caller) => Promise<unknown>>>(handlers: H, home?: string): H {
  return wrapHandlers(handlers, async (run, call) => {
    if (call.caller.role !== 'experimenter' && (await access(sessionLockFile(home)).then(() => true, () => false))) throw new LabFailure(SESSION_LOCKED_MESSAGE);
    return run();
  });
}
