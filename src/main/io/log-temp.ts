// A small file that belongs to one log but is kept out of the log's folder (docs/DESIGN.md
// section 14): the trajectory lock (env/log-lock.ts) and the last heartbeat (episodes/alive.ts).
// It lives in the machine user's temp folder, one subfolder per purpose, named by a hash of the
// log's real path, so every lab process on the machine finds the same file and data folders hold
// only logs. Input: the log path, the purpose, the file ending. Output: the file's path (its folder
// made). Invariant: two paths to one log (a symlink, a relative path) give the same file.
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export function logTempFile(logPath: string, purpose: string, ending: string): string {
  let real = resolve(logPath);
  try {
    real = realpathSync(real);
  } catch {
    // A log not written yet: its resolved path names it.
  }
  const dir = join(tmpdir(), `splatlab-${purpose}-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true });
  return join(dir, `${createHash('sha256').update(real).digest('hex').slice(0, 32)}.${ending}`);
}
