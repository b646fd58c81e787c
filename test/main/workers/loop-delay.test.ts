// Event-loop delay (src/main/workers/loop-delay.ts, issue 29 item 1): a loop held for 300 ms shows
// as a delay of at least that order in the figures (a lower bound only: a loaded machine adds to
// it, never takes away), and app.info carries the figures in its schema.
import { describe, expect, it } from 'vitest';
import { AppInfo } from '../../../src/shared/api/schemas';
import { eventLoopDelay, watchEventLoop } from '../../../src/main/workers/loop-delay';
import { fakeServices } from '../services/fixtures';
import { DIRECT_CALLER } from '../../../src/main/services/connection';

describe('event-loop delay', () => {
  it('sees a held loop', async () => {
    watchEventLoop();
    await new Promise((r) => setTimeout(r, 50));
    const until = Date.now() + 300;
    while (Date.now() < until) {
      // holding the loop on purpose
    }
    await new Promise((r) => setTimeout(r, 50));
    const d = eventLoopDelay();
    expect(d.maxMs).toBeGreaterThanOrEqual(250);
    expect(d.p50Ms).toBeLessThanOrEqual(d.p99Ms);
    expect(d.p99Ms).toBeLessThanOrEqual(d.maxMs);
  });

  it('is part of app.info', async () => {
    const info = await fakeServices().handlers['app.info']({}, DIRECT_CALLER);
    expect(AppInfo.parse(info).eventLoop.maxMs).toBeGreaterThanOrEqual(0);
  });
});
