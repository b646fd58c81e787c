// When an episode's first frame is on screen (issue 40 item 3; docs/PERFORMANCE.md "The UI's
// episode start"): the page's clock at the server's answer to `episode.start`, at the first frame
// that shows the budgets, the reference photos (decoded) and the tools, and when the 3D viewport
// is ready. Kept on `window.splatlabStartTiming` for the bench (`npm run bench -- ui`), and
// `window.splatlabViewportReady` resolves once the viewport is in place (e2e tests that drive the
// viewport wait on it). Work that may wait (the viewport's build when it was not prepared) runs
// after `startPainted()`, so it never delays that frame.
// Invariant: `painted` is stamped in a task after the frame that followed the DOM update and the
// photos' decode, so the frame it names has been produced, not merely requested.

export interface StartTiming {
  /** performance.now() when the answer to `episode.start` reached the page. */
  answered: number;
  /** performance.now() after the first frame showing the episode (budgets, photos, tools). */
  painted?: number;
  /** performance.now() when the 3D viewport was in place. */
  viewportReady?: number;
}

type StartWindow = Window & { splatlabStartTiming?: StartTiming; splatlabViewportReady?: Promise<void> };
const win = (): StartWindow => window as StartWindow;

let pending: Promise<void> | null = null;
let markViewportReady: (() => void) | null = null;

/** Resolves in a task after the next frame has been produced (rAF runs before the paint; the message after it). */
export function afterNextPaint(): Promise<number> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => resolve(performance.now());
      ch.port2.postMessage(0);
    });
  });
}

/** The answer to `episode.start` reached the page: a new timing. */
export function markStartAnswered(): void {
  win().splatlabStartTiming = { answered: performance.now() };
  pending = null;
}

/** The episode's view is in the DOM: stamps the first frame after `images` are decoded. */
export function stampStartPaint(images: readonly HTMLImageElement[]): Promise<void> {
  const timing = win().splatlabStartTiming;
  pending = (async () => {
    // A broken photo still shows its frame (with its alt text); it is not a reason to wait.
    await Promise.all(images.map((im) => im.decode().catch(() => undefined)));
    const at = await afterNextPaint();
    if (timing) timing.painted = at;
  })();
  return pending;
}

/** Resolves once the episode's first frame is painted (or after the next paint when no start is pending). */
export function startPainted(): Promise<unknown> {
  return pending ?? afterNextPaint();
}

/** A viewport panel mounted: `window.splatlabViewportReady` is a new promise until `viewportInPlace`. */
export function viewportComing(): void {
  win().splatlabViewportReady = new Promise((resolve) => (markViewportReady = resolve));
}

/** The viewport is in place (or failed and says why): the panel's promise resolves. */
export function viewportInPlace(): void {
  const timing = win().splatlabStartTiming;
  if (timing && timing.viewportReady === undefined) timing.viewportReady = performance.now();
  markViewportReady?.();
  markViewportReady = null;
}
