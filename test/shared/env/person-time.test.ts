// Time as a person spends it: a scripted episode with known think times, a pause, a crash (the
// last heartbeat before it) and a submit followed by 11 s of final grading. Active, compute,
// transport and think time come out of the script's own numbers; the grading is in none of them.
import { describe, expect, it } from 'vitest';
import { episodeTimes } from '../../../src/shared/env/person-time';
import { episodeClock } from '../../../src/shared/env/time';
import type { TimeRecord } from '../../../src/shared/env/trajectory-schema';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();
/** The page's clock runs 250 ms behind the lab's. */
const page = (ms: number): string => at(ms - 250);

function script(): { steps: { step: number; tool: string; t: string; ms: number }[]; times: TimeRecord[]; end: { t: string } } {
  const steps = [
    { step: 0, tool: 'reset', t: at(0), ms: 50 },
    { step: 1, tool: 'render', t: at(5_000), ms: 300 },
    { step: 2, tool: 'add_gaussians', t: at(50_000), ms: 200 },
    { step: 3, tool: 'submit', t: at(60_000), ms: 10 },
  ];
  const times: TimeRecord[] = [];
  for (let s = 1_000; s <= 40_000; s += 1_000) {
    const beat: TimeRecord = { type: 'time', event: 'heartbeat', t: at(s), client_t: page(s) };
    // The render was sent 10 ms before it arrived; its answer was on screen 20 ms after it finished.
    if (s === 6_000) beat.calls = [{ step: 1, sent: page(4_990), shown: page(5_320) }];
    times.push(beat);
  }
  times.push({ type: 'time', event: 'pause', t: at(8_000) }, { type: 'time', event: 'resume', t: at(28_000) });
  // kill -9 at 40.5 s; the lab is back and the page reattaches at 46 s.
  times.push({ type: 'time', event: 'restart', t: at(46_000), since: at(40_000) });
  for (let s = 47_000; s <= 59_000; s += 1_000) times.push({ type: 'time', event: 'heartbeat', t: at(s), client_t: page(s) });
  return { steps, times, end: { t: at(71_000) } };
}

describe('episodeTimes', () => {
  it('splits active time into compute, transport and think; the final grading is in none', () => {
    const s = script();
    const t = episodeTimes({ started: at(0), ...s });
    expect(t.endedAt).toBe(T0 + 60_010);
    expect(t.clock.wallMs).toBe(60_010);
    expect(t.clock.pausedMs).toBe(20_000);
    expect(t.clock.downMs).toBe(6_000);
    expect(t.activeMs).toBe(34_010);
    expect(t.computeMs).toBe(560);
    expect(t.transportMs).toBe(30);
    expect(t.thinkMs).toBe(34_010 - 560 - 30);
    const render = t.calls[1];
    expect([render.clientSent, render.serverReceived, render.serverFinished, render.clientShown]).toEqual([T0 + 4_990, T0 + 5_000, T0 + 5_300, T0 + 5_320]);
    // Think before the render: from the reset's finish (50 ms) to its sending (4990 ms).
    expect(render.thinkMs).toBe(4_940);
    // Before the add: from the render on screen (5.32 s) to 50 s, less the pause and the downtime.
    expect(t.calls[2].thinkMs).toBe(50_000 - 5_320 - 20_000 - 6_000);
    expect(t.calls[3].thinkMs).toBe(60_000 - 50_200);
  });

  it("starts a person's time when the first observation is on screen", () => {
    const s = script();
    s.times.unshift({ type: 'time', event: 'heartbeat', t: at(900), client_t: page(900), calls: [{ step: 0, sent: page(-2_000), shown: page(800) }] });
    const t = episodeTimes({ started: at(0), ...s });
    expect(t.activeMs).toBe(34_010 - 800);
    expect(t.computeMs).toBe(510);
    expect(t.calls[1].thinkMs).toBe(4_990 - 800);
    expect(t.thinkMs).toBe(34_010 - 800 - 510 - 30);
  });

  it('gives a model the same fields: no page times, its think time is the time between calls', () => {
    const t = episodeTimes({ started: at(0), steps: script().steps, times: [], end: { t: at(60_011) } });
    expect(t.transportMs).toBe(0);
    expect(t.activeMs).toBe(60_010);
    expect(t.thinkMs).toBe(60_010 - 560);
  });

  it('counts a lost page from its last heartbeat to the return', () => {
    const times: TimeRecord[] = [
      { type: 'time', event: 'heartbeat', t: at(9_000) },
      { type: 'time', event: 'disconnect', t: at(9_800), since: at(9_000) },
      { type: 'time', event: 'reconnect', t: at(15_000) },
    ];
    const c = episodeClock({ started: at(0), steps: [{ t: at(0), ms: 0 }], times, now: T0 + 20_000 });
    expect(c.downMs).toBe(6_000);
    expect(c.interruptions).toEqual([{ kind: 'disconnect', from: T0 + 9_000, to: T0 + 15_000, ms: 6_000 }]);
  });
});
