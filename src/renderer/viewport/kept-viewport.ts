// The play view's 3D viewport, built once per page and kept across episodes (issue 40 item 3;
// docs/PERFORMANCE.md "The UI's episode start"). Building it costs the WebGL context, three.js's
// set-up and the first shader programs: about 0.5-1 s of main-thread work on SwiftShader, which
// used to sit between the server's answer to `episode.start` and the first frame of the episode.
// It is now built while the start form waits (`prepareViewport`, idle time) and handed to each
// episode's ViewportPanel (`claimViewport`), which gives it back when it unmounts
// (`releaseViewport`): the canvas leaves the page, the GL context and its programs stay.
// Inputs: the panel's event handlers. Outputs: one Viewport whose `root` the panel places in its
// host. Invariant: at most one panel holds the viewport; a released one draws an empty scene.
import { Viewport, type ViewportEvents } from './viewport';

let kept: Viewport | null = null;
let root: HTMLDivElement | null = null;
/** The handlers of the panel that holds the viewport (none while released). */
let holder: ViewportEvents | null = null;
let idle: number | null = null;

/** Forwards the viewport's events to whichever panel holds it now. */
const relay: ViewportEvents = {
  select: (ids, how) => holder?.select(ids, how),
  move: (m) => holder?.move(m),
  cameraChanged: () => holder?.cameraChanged(),
  drag: (phase, mode) => holder?.drag?.(phase, mode),
};

function build(): Viewport {
  if (idle !== null) cancelIdleCallback(idle);
  idle = null;
  if (kept) return kept;
  const el = document.createElement('div');
  // Fills the panel's positioned host, under the legend and hints placed after it.
  el.style.cssText = 'position:absolute;inset:0;';
  el.dataset.testid = 'viewport-root';
  kept = new Viewport(el, relay);
  root = el;
  return kept;
}

/**
 * Builds the viewport when the page is next idle (the start form calls this): the GL context
 * and its programs are then ready before the episode starts. A failure here is left for the
 * panel's own claim to report.
 */
export function prepareViewport(): void {
  if (kept || idle !== null) return;
  idle = requestIdleCallback(() => {
    idle = null;
    try {
      build().requestRender();
    } catch {
      // No WebGL here: ViewportPanel's claim tries again and shows the reason.
    }
  }, { timeout: 5000 });
}

/** The viewport for a panel now (built here if not prepared), placed as `host`'s first child; throws when WebGL fails. */
export function claimViewport(host: HTMLElement, events: ViewportEvents): Viewport {
  const v = build();
  if (!root) throw new Error('viewport root missing');
  holder = events;
  host.prepend(root);
  return v;
}

/** The panel is gone: the viewport leaves the page with an empty scene, ready for the next episode. */
export function releaseViewport(v: Viewport): void {
  if (v !== kept) return;
  holder = null;
  v.setScene([], []);
  root?.remove();
}
