// Time as a person (or a model) spends it (issue 24, item 1; docs/STUDIES.md "Time"): per call
// when the page sent it, when the lab got and finished it and when the page showed the answer;
// per episode the active time (wall minus pauses and downtime, from the first observation on
// screen, else the log's start, up to the ending call's finish; src/shared/env/time.ts), the lab's compute time (inside the calls), the transport (to the page
// and back) and the think time (active minus compute minus transport). A model's log has no
// page times: its transport is 0 and its think time is the time between calls (API latency).
// Inputs: the trajectory's header start, call records (t, ms), time records (heartbeats carry the
// page's times), the end record. Output: EpisodeTimes. Invariants: pure; think + compute +
// transport = active (each clamped at 0 only when a clock misbehaves); page times are placed on
// the lab's timeline through the median offset of the heartbeats (page clock vs lab clock).
import { episodeClock, type EpisodeClock } from './time';
import type { TimeRecord } from './trajectory-schema';

export interface CallTiming {
  step: number;
  tool: string;
  /** Epoch ms on the lab's clock; null when the page did not report it (a model, an old log). */
  clientSent: number | null;
  serverReceived: number;
  serverFinished: number;
  clientShown: number | null;
  /** The lab's own time inside the call (grading excluded). */
  computeMs: number;
  /** Round trip minus compute ((shown - sent) - compute; offset-free), or null without page times. */
  transportMs: number | null;
  /** Active time from the previous answer on screen (else its finish) to this call's sending. */
  thinkMs: number | null;
}

export interface EpisodeTimes {
  clock: EpisodeClock;
  /** Epoch ms the episode ended: the ending call's finish (null while it runs). */
  endedAt: number | null;
  activeMs: number;
  computeMs: number;
  transportMs: number;
  thinkMs: number;
  calls: CallTiming[];
}

export interface TimesInput {
  started: string;
  steps: readonly { step: number; tool: string; t: string; ms: number }[];
  times: readonly TimeRecord[];
  end?: { t: string } | null;
  now?: string | number;
}

const median = (xs: number[]): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Lab clock minus page clock, from the heartbeats (0 when there are none: one machine). */
export function pageClockOffset(times: readonly TimeRecord[]): number {
  const d: number[] = [];
  for (const r of times) {
    if (r.event !== 'heartbeat' || !r.client_t) continue;
    const x = Date.parse(r.t) - Date.parse(r.client_t);
    if (Number.isFinite(x)) d.push(x);
  }
  return median(d);
}

export function episodeTimes(input: TimesInput): EpisodeTimes {
  const offset = pageClockOffset(input.times);
  const page = new Map<number, { sent: number; shown: number }>();
  for (const r of input.times) {
    for (const c of r.calls ?? []) {
      const sent = Date.parse(c.sent) + offset;
      const shown = Date.parse(c.shown) + offset;
      if (Number.isFinite(sent) && Number.isFinite(shown) && !page.has(c.step)) page.set(c.step, { sent, shown });
    }
  }
  // A person's time starts when the first observation is on screen (step 0 shown); loading the
  // task and the first paint are the lab's, as the grading after the end is. A model: the start.
  const header = Date.parse(input.started);
  const firstShown = page.get(0)?.shown;
  const firstCall = input.steps.find((s) => s.step > 0);
  const startsAt = firstShown !== undefined && Number.isFinite(header) && firstShown > header && (!firstCall || firstShown <= Date.parse(firstCall.t)) ? firstShown : header;
  const clock = episodeClock({ ...input, started: Number.isFinite(startsAt) ? new Date(startsAt).toISOString() : input.started });
  const endedAt = input.end ? startsAt + clock.wallMs : null;
  const within = (at: number): number => clock.activeMsAt(endedAt === null ? at : Math.min(at, endedAt));
  let prevFree: number | null = null;
  const calls: CallTiming[] = input.steps.map((s) => {
    const received = Date.parse(s.t);
    const computeMs = Number.isFinite(s.ms) ? Math.max(0, s.ms) : 0;
    const finished = received + computeMs;
    const p = page.get(s.step);
    // The submit's answer is shown after the final grading: only the part up to the end counts.
    const shownBy = p ? (endedAt === null ? p.shown : Math.min(p.shown, Math.max(endedAt, finished))) : null;
    const transportMs = p && shownBy !== null ? Math.max(0, shownBy - p.sent - computeMs) : null;
    const asked = p ? Math.min(p.sent, received) : received;
    const thinkMs = s.step > 0 && prevFree !== null ? Math.max(0, within(asked) - within(prevFree)) : null;
    // Step 0 (the first observation) is before the person's time: none of it is transport.
    if (s.step === 0) {
      prevFree = p ? Math.max(p.shown, finished) : finished;
      return { step: 0, tool: s.tool, clientSent: p?.sent ?? null, serverReceived: received, serverFinished: finished, clientShown: p?.shown ?? null, computeMs, transportMs: null, thinkMs: null };
    }
    prevFree = p ? Math.max(p.shown, finished) : finished;
    return { step: s.step, tool: s.tool, clientSent: p?.sent ?? null, serverReceived: received, serverFinished: finished, clientShown: p?.shown ?? null, computeMs, transportMs, thinkMs };
  });
  // Only the part of each call inside active time is the lab's compute (a crash mid-call is down).
  const activeMs = clock.activeMs;
  const computeMs = calls.reduce((a, c) => a + Math.max(0, within(c.serverFinished) - within(c.serverReceived)), 0);
  const transportMs = calls.reduce((a, c) => a + (c.transportMs ?? 0), 0);
  const thinkMs = Math.max(0, activeMs - computeMs - transportMs);
  return { clock, endedAt, activeMs, computeMs, transportMs, thinkMs, calls };
}
