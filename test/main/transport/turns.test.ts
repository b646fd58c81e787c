// TurnQueue (src/main/transport/turns.ts): queued starts run in order, one per event-loop turn
// (a timer due meanwhile runs between two starts), and a start that throws does not stop the rest.
import { describe, expect, it } from 'vitest';
import { TurnQueue } from '../../../src/main/transport/turns';

describe('TurnQueue', () => {
  it('runs starts in order, one per turn, so a due timer runs between them', async () => {
    const q = new TurnQueue();
    const seen: string[] = [];
    await new Promise<void>((done) => {
      // Queued from one callback, as frames that arrive in one poll phase are.
      setTimeout(() => {
        setTimeout(() => seen.push('timer'), 0);
        for (let i = 0; i < 4; i++) {
          q.push(() => {
            const until = Date.now() + 3;
            while (Date.now() < until);
            seen.push(`call ${i}`);
            if (i === 3) done();
          });
        }
      }, 0);
    });
    expect(seen.filter((s) => s.startsWith('call'))).toEqual(['call 0', 'call 1', 'call 2', 'call 3']);
    // The timer was due after the first start's 3 ms; it must not wait for all four.
    expect(seen.indexOf('timer')).toBeGreaterThan(0);
    expect(seen.indexOf('timer')).toBeLessThan(4);
    expect(q.length).toBe(0);
  });

  it('goes on after a start that throws', async () => {
    const q = new TurnQueue();
    const seen: number[] = [];
    const errors: unknown[] = [];
    const onError = (e: unknown): void => void errors.push(e);
    process.on('uncaughtException', onError);
    try {
      await new Promise<void>((done) => {
        q.push(() => {
          throw new Error('boom');
        });
        q.push(() => {
          seen.push(2);
          done();
        });
      });
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(seen).toEqual([2]);
  });
});
