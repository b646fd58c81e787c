// Reaction times measured at paint (issue 24, item 10; docs/STUDIES.md "Time"). A stimulus's
// onset is the first animation frame after its image is decoded and drawn, not the moment an
// <img> fires `load` (decoding and the first paint come later); the response is read from the
// page's monotonic clock (performance.now()), so neither a wall-clock jump nor the network
// enters the reaction time. Each instant is also given as wall time (timeOrigin + monotonic) so
// the server's receipt can be reported beside it.
// Inputs: the image element (or a canvas draw), a clock (the browser's, or a fake in tests).
// Outputs: Onset {at, wall} and ReactionTime {rtMs, onset, response}.
// Invariant: rtMs = response.at - onset.at, both from the same monotonic clock; an onset is
// never earlier than the frame that first shows the stimulus.

export interface PaintClock {
  /** Monotonic milliseconds (performance.now()). */
  now(): number;
  /** Epoch milliseconds of monotonic 0 (performance.timeOrigin). */
  readonly timeOrigin: number;
  /** Resolves with the timestamp of the next animation frame (requestAnimationFrame's argument). */
  frame(): Promise<number>;
}

export interface Onset {
  /** Monotonic milliseconds of the instant. */
  at: number;
  /** The same instant as epoch milliseconds. */
  wall: number;
}

export interface ReactionTime {
  /** Response minus onset, in milliseconds, on the monotonic clock. */
  rtMs: number;
  onset: Onset;
  response: Onset;
}

export const browserClock: PaintClock = {
  now: () => performance.now(),
  get timeOrigin() {
    return performance.timeOrigin;
  },
  frame: () => new Promise((resolve) => requestAnimationFrame(resolve)),
};

/** Epoch ms on the page's monotonic clock (the heartbeat's and the process log's times). */
export function pageNow(clock: PaintClock = browserClock): number {
  return clock.timeOrigin + clock.now();
}

const onsetAt = (at: number, clock: PaintClock): Onset => ({ at, wall: clock.timeOrigin + at });

/**
 * Waits until `image` is decoded (when given), runs `draw` (making the stimulus visible, or
 * drawing it into a canvas), and resolves with the onset at the first animation frame after
 * the draw. A decode failure (a broken image) rejects: no onset is made up for it.
 */
export async function onsetAfterPaint(image: HTMLImageElement | null, draw: () => void = () => undefined, clock: PaintClock = browserClock): Promise<Onset> {
  if (image) await image.decode();
  draw();
  const frame = await clock.frame();
  // rAF timestamps are the frame's start on the same clock; a fake or coarse clock may lag.
  return onsetAt(Math.max(frame, 0), clock);
}

/** The response now (a key or click handler calls this first), against `onset`. */
export function respond(onset: Onset, clock: PaintClock = browserClock): ReactionTime {
  const response = onsetAt(clock.now(), clock);
  return { rtMs: Math.max(0, response.at - onset.at), onset, response };
}
