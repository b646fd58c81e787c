// The episode clock: active, paused and down time from a trajectory's time records, checked on
// hand-made timelines and against a per-millisecond count of the same timelines.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { episodeClock } from '../../../src/shared/env/time';
import { TIME_EVENTS, type TimeEvent, type TimeRecord } from '../../../src/shared/env/trajectory-schema';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();
const rec = (event: TimeEvent, s: number, extra: Partial<TimeRecord> = {}): TimeRecord => ({ type: 'time', event, t: iso(s), ...extra });

describe('episodeClock', () => {
  it('counts a log without time records as all active (old logs read as before)', () => {
    const c = episodeClock({ started: iso(0), steps: [{ t: iso(0), ms: 0 }, { t: iso(30), ms: 500 }, { t: iso(40), ms: 0 }], times: [], end: { t: iso(40) } });
    expect(c).toMatchObject({ wallMs: 40_000, activeMs: 40_000, pausedMs: 0, downMs: 0, pauses: 0, interruptions: [] });
  });

  it('takes pauses and a disconnect out of active time', () => {
    const c = episodeClock({
      started: iso(0),
      steps: [{ t: iso(0), ms: 0 }, { t: iso(60), ms: 0 }],
      times: [rec('pause', 10), rec('resume', 25), rec('disconnect', 40), rec('reconnect', 43), rec('hidden', 50), rec('visible', 55)],
      end: { t: iso(60) },
    });
    expect(c.wallMs).toBe(60_000);
    expect(c.pausedMs).toBe(15_000);
    expect(c.downMs).toBe(3_000);
    expect(c.activeMs).toBe(42_000);
    expect(c.hiddenMs).toBe(5_000);
    expect(c.pauses).toBe(1);
    expect(c.interruptions).toEqual([{ kind: 'disconnect', from: T0 + 40_000, to: T0 + 43_000, ms: 3_000 }]);
    expect(c.activeMsAt(iso(30))).toBe(15_000);
  });

  it('counts a crash as down time from the last record to the restart', () => {
    const c = episodeClock({
      started: iso(0),
      steps: [{ t: iso(0), ms: 0 }, { t: iso(20), ms: 1_000 }, { t: iso(100), ms: 0 }],
      times: [rec('restart', 90, { since: iso(21) })],
      end: { t: iso(100) },
    });
    expect(c.downMs).toBe(69_000);
    expect(c.activeMs).toBe(31_000);
    expect(c.interruptions).toEqual([{ kind: 'restart', from: T0 + 21_000, to: T0 + 90_000, ms: 69_000 }]);
    // Without `since` the last call's end is the last sign of life.
    const d = episodeClock({ started: iso(0), steps: [{ t: iso(20), ms: 1_000 }, { t: iso(100), ms: 0 }], times: [rec('restart', 90)], end: { t: iso(100) } });
    expect(d.downMs).toBe(69_000);
  });

  it('keeps a pause across a crash paused, and counts the crash itself as down', () => {
    const c = episodeClock({ started: iso(0), steps: [], times: [rec('pause', 10), rec('restart', 50, { since: iso(30) }), rec('resume', 70)], now: iso(80) });
    expect(c).toMatchObject({ pausedMs: 20_000 + 20_000, downMs: 20_000, activeMs: 20_000, paused: false, down: false });
  });

  it('ends a finished episode when its ending call finished, not at the end record written after the final grading', () => {
    const c = episodeClock({ started: iso(0), steps: [{ t: iso(0), ms: 0 }, { t: iso(30), ms: 20 }], times: [], end: { t: iso(41.3) } });
    expect(c.wallMs).toBe(30_020);
    expect(c.activeMs).toBe(30_020);
  });

  it('reads a live clock up to now, still down when no page came back', () => {
    const c = episodeClock({ started: iso(0), steps: [], times: [rec('disconnect', 10)], now: iso(25) });
    expect(c).toMatchObject({ activeMs: 10_000, downMs: 15_000, down: true });
    expect(c.interruptions[0]?.ms).toBe(15_000);
  });

  it('matches a per-millisecond count on random timelines, and the phases add up to the wall time', () => {
    const event = fc.constantFrom(...TIME_EVENTS);
    fc.assert(
      fc.property(fc.array(fc.tuple(event, fc.integer({ min: 0, max: 200 })), { maxLength: 12 }), fc.integer({ min: 0, max: 220 }), (evs, endAt) => {
        const sorted = [...evs].sort((a, b) => a[1] - b[1]);
        // As the writer does it: a restart's `since` is the record before it (or the start).
        const times = sorted.map(([e, at], i) => ({ type: 'time' as const, event: e, t: new Date(T0 + at).toISOString(), ...(e === 'restart' ? { since: new Date(T0 + (sorted[i - 1]?.[1] ?? 0)).toISOString() } : {}) }));
        const c = episodeClock({ started: new Date(T0).toISOString(), steps: [], times, end: { t: new Date(T0 + endAt).toISOString() } });
        expect(c.activeMs + c.pausedMs + c.downMs).toBe(c.wallMs);
        // Independent count: each millisecond's phase from the records at or before it, or down
        // when the next record is a restart.
        let active = 0;
        let down = 0;
        for (let t = 0; t < endAt; t++) {
          let paused = false;
          let isDown = false;
          const next = sorted.find(([, at]) => at > t);
          for (const [e, at] of sorted) {
            if (at > t) break;
            if (e === 'pause') paused = true;
            if (e === 'resume') paused = false;
            if (e === 'disconnect') isDown = true;
            if (e === 'reconnect' || e === 'restart') isDown = false;
          }
          if (next?.[0] === 'restart') isDown = true;
          if (isDown) down += 1;
          else if (!paused) active += 1;
        }
        expect(c.downMs).toBe(down);
        expect(c.activeMs).toBe(active);
      }),
      { numRuns: 300 },
    );
  });
});

describe('episodeClock segments', () => {
  it('are contiguous spans of non-zero length, even when records share an instant', () => {
    const c = episodeClock({
      started: iso(0),
      steps: [{ t: iso(0), ms: 0 }, { t: iso(30), ms: 0 }],
      times: [rec('pause', 0), rec('resume', 10), rec('hidden', 10), rec('visible', 20)],
      end: { t: iso(30) },
    });
    expect(c.segments).toEqual([
      { from: T0, to: T0 + 10_000, phase: 'paused', hidden: false },
      { from: T0 + 10_000, to: T0 + 20_000, phase: 'active', hidden: true },
      { from: T0 + 20_000, to: T0 + 30_000, phase: 'active', hidden: false },
    ]);
  });

  it('date a restart without `since` from the last call that ended at or before it', () => {
    const clock = (late: { t: string; ms: number }) => episodeClock({
      started: iso(0),
      steps: [{ t: iso(0), ms: 0 }, { t: iso(20), ms: 1_000 }, late, { t: iso(100), ms: 0 }],
      times: [rec('restart', 90)],
      end: { t: iso(100) },
    });
    expect(clock({ t: iso(85), ms: 5_000 }).interruptions).toEqual([{ kind: 'restart', from: T0 + 90_000, to: T0 + 90_000, ms: 0 }]);
    expect(clock({ t: iso(85), ms: 6_000 }).interruptions).toEqual([{ kind: 'restart', from: T0 + 21_000, to: T0 + 90_000, ms: 69_000 }]);
  });
  it('take the latest end before a restart, not the last call listed', () => {
    const c = episodeClock({
      started: iso(0),
      steps: [{ t: iso(0), ms: 0 }, { t: iso(10), ms: 50_000 }, { t: iso(30), ms: 0 }, { t: iso(100), ms: 0 }],
      times: [rec('restart', 90)],
      end: { t: iso(100) },
    });
    expect(c.interruptions).toEqual([{ kind: 'restart', from: T0 + 60_000, to: T0 + 90_000, ms: 30_000 }]);
  });
});
