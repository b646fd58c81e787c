// Which log each live episode id writes, kept under the lab home (<home>/.episodes/<id>.json,
// mode 0600), so a restarted lab can continue an episode an open page still names (issue 11,
// "Honest time"); and the last sign of life in a log (where a restart's down time begins).
// Inputs: episode ids (12 hex digits) and log paths. Outputs: the recorded log path or null.
// Invariant: an id that is not 12 hex digits never touches the file system.
import { readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Trajectory } from '../env/trajectory';

const EPISODE_ID = /^[0-9a-f]{12}$/;

export class EpisodeRecall {
  private readonly dir: string;

  constructor(home: string) {
    this.dir = join(home, '.episodes');
  }

  /** Records `log` for `id` on libuv's pool (an episode start holds no other client: issue 38 item 1). */
  async remember(id: string, log: string): Promise<void> {
    if (!EPISODE_ID.test(id)) return;
    await mkdir(this.dir, { recursive: true });
    await writeFile(join(this.dir, `${id}.json`), `${JSON.stringify({ log })}\n`, { mode: 0o600 });
  }

  /** The log recorded for `id`, or null (unknown, malformed, or not an id). */
  logOf(id: string): string | null {
    if (!EPISODE_ID.test(id)) return null;
    try {
      const value: unknown = JSON.parse(readFileSync(join(this.dir, `${id}.json`), 'utf8'));
      const log = typeof value === 'object' && value !== null && 'log' in value ? value.log : undefined;
      return typeof log === 'string' ? log : null;
    } catch {
      return null;
    }
  }

  forget(id: string): void {
    if (EPISODE_ID.test(id)) rmSync(join(this.dir, `${id}.json`), { force: true });
  }
}

/** The last instant the log shows the lab alive: a call's end, a time record, the start. */
export function lastAlive(traj: Trajectory): string {
  let last = Date.parse(traj.header?.started ?? '');
  for (const s of traj.steps) last = Math.max(last, Date.parse(s.t) + s.ms);
  for (const r of traj.times) last = Math.max(last, Date.parse(r.t));
  return new Date(Number.isFinite(last) ? last : Date.now()).toISOString();
}
