// The one clock of an episode (docs/DESIGN.md section 14, "Time"): splits the wall time from the
// header's start to the end (or to `now` for a live episode) into active, paused and down time,
// from the trajectory's time records. Every duration the lab reports (episode summaries, study
// results, the per-call CSV, the time limit) comes from here.
// Inputs: the header's start, the call records (t, ms), the time records, the end record.
// Output: totals, the interruptions, the state at the end, and activeMsAt() for any instant.
// Invariants: pure; active + paused + down = wall; down wins over paused (a crash during a
// pause is down time); hidden time is a part of active time, reported separately; a log
// without time records is all active, as before time records existed. A finished episode ends
// when its ending call (the submit) finished, not at the end record, which is written after
// the final grading (issue 24): the lab's grading is nobody's time. An interruption runs from
// the last sign of life before it (a page's heartbeat, 0.5 s apart, or a call) to the return.
import type { TimeRecord } from './trajectory-schema';

export interface ClockInput {
  /** The header's `started` (ISO). */
  started: string;
  steps: readonly { t: string; ms: number }[];
  times: readonly TimeRecord[];
  end?: { t: string } | null;
  /** A live episode: read the clock up to this instant (ISO or epoch ms). */
  now?: string | number;
}

export type Phase = 'active' | 'paused' | 'down';

export interface Interruption {
  kind: 'disconnect' | 'restart';
  from: number;
  to: number;
  ms: number;
}

export interface Segment {
  from: number;
  to: number;
  phase: Phase;
  hidden: boolean;
}

export interface EpisodeClock {
  wallMs: number;
  activeMs: number;
  pausedMs: number;
  downMs: number;
  /** Active time with the window hidden (a part of activeMs). */
  hiddenMs: number;
  pauses: number;
  interruptions: Interruption[];
  /** The state at the clock's end (a resumed episode continues from it). */
  paused: boolean;
  down: boolean;
  hidden: boolean;
  segments: Segment[];
  /** Active milliseconds from the start up to `at` (clamped to the clock's span). */
  activeMsAt(at: string | number): number;
}

interface Mark {
  at: number;
  order: number;
  apply: (s: State) => void;
}

interface State {
  paused: boolean;
  down: boolean;
  hidden: boolean;
  downKind: Interruption['kind'];
}

const ms = (t: string | number): number => (typeof t === 'number' ? t : Date.parse(t));

/** The latest instant any record before `before` shows the lab alive (a call's end, a time record). */
function lastAlive(input: ClockInput, before: number, start: number): number {
  let last = start;
  for (const s of input.steps) {
    const end = ms(s.t) + (Number.isFinite(s.ms) ? s.ms : 0);
    if (end <= before && end > last) last = end;
  }
  for (const r of input.times) {
    const t = ms(r.t);
    if (t < before && t > last) last = t;
  }
  return last;
}

function marks(input: ClockInput, start: number): Mark[] {
  const out: Mark[] = [];
  input.times.forEach((r, i) => {
    const at = ms(r.t);
    if (!Number.isFinite(at)) return;
    const order = 2 * i + 1;
    const set = (apply: (s: State) => void): void => void out.push({ at, order, apply });
    switch (r.event) {
      case 'pause':
        return set((s) => void (s.paused = true));
      case 'resume':
        return set((s) => void (s.paused = false));
      case 'hidden':
        return set((s) => void (s.hidden = true));
      case 'visible':
      case 'reload':
        return set((s) => void (s.hidden = false));
      case 'disconnect': {
        // Down from the last heartbeat before the page was lost (`since`), else from the record.
        const since = r.since !== undefined && Number.isFinite(ms(r.since)) ? Math.min(ms(r.since), at) : at;
        out.push({
          at: since,
          order,
          apply: (s) => {
            s.down = true;
            s.downKind = 'disconnect';
          },
        });
        return;
      }
      case 'reconnect':
        return set((s) => void (s.down = false));
      case 'restart': {
        // Down from the last sign of life before the crash to the restart.
        const since = r.since !== undefined && Number.isFinite(ms(r.since)) ? Math.min(ms(r.since), at) : lastAlive(input, at, start);
        out.push({
          at: since,
          order: order - 1,
          apply: (s) => {
            s.down = true;
            s.downKind = 'restart';
          },
        });
        return set((s) => {
          s.down = false;
          s.hidden = false;
        });
      }
      case 'time_limit':
      case 'heartbeat':
        return;
    }
  });
  return out.sort((a, b) => a.at - b.at || a.order - b.order);
}

/** When the ending call finished (its own work; grading after it excluded), or null. */
export function endingCallFinish(steps: ClockInput['steps']): number | null {
  let last: number | null = null;
  for (const s of steps) {
    const end = ms(s.t) + (Number.isFinite(s.ms) ? s.ms : 0);
    if (Number.isFinite(end) && (last === null || end > last)) last = end;
  }
  return last;
}

function clockEnd(input: ClockInput, start: number): number {
  if (input.end && Number.isFinite(ms(input.end.t))) {
    const finish = endingCallFinish(input.steps);
    return finish === null ? ms(input.end.t) : Math.min(finish, ms(input.end.t));
  }
  if (input.now !== undefined && Number.isFinite(ms(input.now))) return ms(input.now);
  let last = start;
  for (const s of input.steps) last = Math.max(last, ms(s.t) + (Number.isFinite(s.ms) ? s.ms : 0));
  for (const r of input.times) last = Math.max(last, ms(r.t));
  return last;
}

export function episodeClock(input: ClockInput): EpisodeClock {
  const first = input.steps[0]?.t;
  const parsed = ms(input.started);
  const start = Number.isFinite(parsed) ? parsed : first !== undefined ? ms(first) : 0;
  const stop = Math.max(start, clockEnd(input, start));
  const state: State = { paused: false, down: false, hidden: false, downKind: 'disconnect' };
  const segments: Segment[] = [];
  const interruptions: Interruption[] = [];
  let pauses = 0;
  let cur = start;
  let downFrom: number | null = null;
  const phase = (): Phase => (state.down ? 'down' : state.paused ? 'paused' : 'active');
  const advance = (to: number): void => {
    const t = Math.min(Math.max(to, cur), stop);
    if (t > cur) segments.push({ from: cur, to: t, phase: phase(), hidden: state.hidden });
    cur = t;
  };
  for (const m of marks(input, start)) {
    advance(m.at);
    const wasDown = state.down;
    const wasPaused = state.paused;
    m.apply(state);
    if (!wasPaused && state.paused) pauses += 1;
    if (!wasDown && state.down) downFrom = cur;
    if (wasDown && !state.down && downFrom !== null) {
      interruptions.push({ kind: state.downKind, from: downFrom, to: cur, ms: cur - downFrom });
      downFrom = null;
    }
  }
  advance(stop);
  if (state.down && downFrom !== null) interruptions.push({ kind: state.downKind, from: downFrom, to: stop, ms: stop - downFrom });
  const sum = (p: Phase): number => segments.filter((s) => s.phase === p).reduce((a, s) => a + s.to - s.from, 0);
  const activeMs = sum('active');
  return {
    wallMs: stop - start,
    activeMs,
    pausedMs: sum('paused'),
    downMs: sum('down'),
    hiddenMs: segments.filter((s) => s.phase === 'active' && s.hidden).reduce((a, s) => a + s.to - s.from, 0),
    pauses,
    interruptions,
    paused: state.paused,
    down: state.down,
    hidden: state.hidden,
    segments,
    activeMsAt(at: string | number): number {
      const t = ms(at);
      let total = 0;
      for (const s of segments) {
        if (s.from >= t) break;
        if (s.phase === 'active') total += Math.min(s.to, t) - s.from;
      }
      return total;
    },
  };
}
