// The page's heartbeat of a live episode (issue 24 items 1-2; docs/STUDIES.md "Time"): a beat
// twice a second, paused or not, so main counts an interruption from the last beat before it to
// the first after; each beat carries the page's send and paint times of the calls answered since
// the last one. Times are the page's monotonic clock anchored to wall time (timeOrigin + now()).
// Inputs: a send function (episode.heartbeat); the episode store reports each call's send and
// answer. Output: beats. Invariants: at most one beat in flight; timings a failed beat carried
// are sent again (at most 64 kept); a stopped heartbeat sends nothing more.
import { nextTick } from 'vue';
import { browserClock, pageNow, type PaintClock } from '../study/paint-clock';
import type { ProcessEvent } from '../../shared/env/process-log';
import { putBackProcessEvents, takeProcessEvents } from './process-recorder';

export const HEARTBEAT_MS = 500;
const MAX_PENDING = 64;

export interface CallTimes {
  step: number;
  sentAt: number;
  shownAt: number;
}

export type SendBeat = (beat: { sentAt: number; calls?: CallTimes[]; events?: ProcessEvent[] }) => Promise<unknown>;

/** When an answer just put into the store is first on screen: the frame after Vue's update. */
export async function paintedAt(clock: PaintClock = browserClock): Promise<number> {
  await nextTick();
  const frame = await clock.frame();
  return clock.timeOrigin + frame;
}

export class Heartbeat {
  private timer: ReturnType<typeof setInterval> | null = null;
  private pending: CallTimes[] = [];
  private inFlight = false;

  constructor(
    private readonly send: SendBeat,
    private readonly clock: PaintClock = browserClock,
    private readonly every = HEARTBEAT_MS,
  ) {}

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), this.every);
    void this.beat();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.pending = [];
  }

  /** A call's answer was painted: its times go with the next beat. */
  shown(times: CallTimes): void {
    if (!this.timer) return;
    this.pending.push(times);
    if (this.pending.length > MAX_PENDING) this.pending.splice(0, this.pending.length - MAX_PENDING);
  }

  async beat(): Promise<void> {
    if (!this.timer || this.inFlight) return;
    this.inFlight = true;
    const calls = this.pending.splice(0);
    // The process log's events since the last beat go with it (process-recorder.ts).
    const events = takeProcessEvents();
    try {
      await this.send({ sentAt: pageNow(this.clock), ...(calls.length ? { calls } : {}), ...(events.length ? { events } : {}) });
    } catch {
      // A lost connection: the timings and events wait for the beat after the return.
      putBackProcessEvents(events);
      if (this.timer) this.pending.unshift(...calls.slice(-MAX_PENDING));
    } finally {
      this.inFlight = false;
    }
  }
}
