// The fit progress display: one redrawn line on a terminal, ~20 plain lines otherwise.
import { describe, expect, it } from 'vitest';
import { FitProgressBar, formatDuration, progressLine } from '../../../../src/main/authoring/fit/progress';

describe('progress', () => {
  it('formats a line with step, bar, loss, rate and ETA', () => {
    const line = progressLine({ step: 500, steps: 2000, loss: 0.01, elapsedMs: 50_000 }, 0.0123, 'snowman', 10);
    expect(line).toBe('snowman step  500/2000 [###-------]  25% loss 0.01230 10.0 steps/s ETA 2m30s');
    expect(formatDuration(3_700_000)).toBe('1h01m');
    expect(formatDuration(NaN)).toBe('--');
  });

  it('redraws one line on a terminal, throttled, and ends it', () => {
    const writes: string[] = [];
    let now = 0;
    const bar = new FitProgressBar({ write: (t) => writes.push(t), isTTY: true, now: () => now });
    for (let s = 1; s <= 100; s++) {
      now += 10; // 10 ms per step: one redraw per 100 ms
      bar.update({ step: s, steps: 100, loss: 0.1, elapsedMs: now });
    }
    bar.finish();
    expect(writes.length).toBeGreaterThanOrEqual(10);
    expect(writes.length).toBeLessThanOrEqual(13);
    expect(writes.slice(0, -1).every((w) => w.startsWith('\r') && !w.includes('\n'))).toBe(true);
    expect(writes[writes.length - 2]).toContain('100/100');
    expect(writes[writes.length - 1]).toBe('\n');
  });

  it('prints about twenty plain lines off a terminal', () => {
    const writes: string[] = [];
    const bar = new FitProgressBar({ write: (t) => writes.push(t), isTTY: false, now: () => 0 });
    for (let s = 1; s <= 2000; s++) bar.update({ step: s, steps: 2000, loss: 0.1, elapsedMs: s * 100 });
    bar.finish();
    expect(writes).toHaveLength(20);
    expect(writes.every((w) => w.endsWith('\n') && !w.includes('\r'))).toBe(true);
    expect(writes[19]).toContain('2000/2000');
  });
});
