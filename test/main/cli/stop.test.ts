// How the servers stop (issue #29 item 11): on the signal they close, but never wait past the
// grace time for a close that hangs (a worker or a device that does not let go), so the process
// exits within 2 s of SIGTERM; a close that finishes first ends the wait at once.
import { describe, expect, it } from 'vitest';
import { STOP_GRACE_MS, untilStopped } from '../../../src/main/cli/stop';

const io = () => {
  const err: string[] = [];
  return { err, io: { out: () => undefined, err: (l: string) => void err.push(l) } };
};

describe('untilStopped', () => {
  it('gives up on a close that hangs after the grace time, and says so', async () => {
    const { err, io: cli } = io();
    let closing = 0;
    const stopped = untilStopped(() => (closing++, new Promise(() => undefined)), cli, 30, ['SIGUSR2']);
    process.emit('SIGUSR2');
    await stopped;
    expect(closing).toBe(1);
    expect(err[0]).toMatch(/still closing after 30 ms; exiting anyway/);
    expect(STOP_GRACE_MS).toBeLessThan(2000);
  });

  it('resolves as soon as the close is done', async () => {
    const { err, io: cli } = io();
    const stopped = untilStopped(async () => undefined, cli, 60_000, ['SIGUSR2']);
    process.emit('SIGUSR2');
    await stopped;
    expect(err).toEqual([]);
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });
});
