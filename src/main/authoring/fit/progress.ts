// Progress display of a fit on stderr: one updating line (carriage return) on a terminal,
// periodic plain lines otherwise (logs, CI). Shows step, percentage, a bar, the smoothed loss,
// steps per second and the ETA. Input: FitProgress events. Output: text through `write`.
// Invariant: on a terminal at most one redraw per `intervalMs` (plus the last step); off a
// terminal one line per 5% of the steps, so a 2000-step fit prints about 20 lines.
import type { FitProgress } from '../../../shared/authoring/fit/fit';

export interface ProgressOptions {
  write: (text: string) => void;
  isTTY: boolean;
  label?: string;
  intervalMs?: number; // terminal redraw throttle, default 100
  now?: () => number; // clock (ms), for tests
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '--';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** The text of one progress report (no newline or carriage return). */
export function progressLine(p: FitProgress, smoothLoss: number, label = 'fit', barWidth = 20): string {
  const frac = p.steps > 0 ? p.step / p.steps : 1;
  const filled = Math.round(frac * barWidth);
  const bar = '#'.repeat(filled) + '-'.repeat(barWidth - filled);
  const rate = p.elapsedMs > 0 ? (p.step * 1000) / p.elapsedMs : 0;
  const eta = rate > 0 ? ((p.steps - p.step) / rate) * 1000 : NaN;
  const width = String(p.steps).length;
  return (
    `${label} step ${String(p.step).padStart(width)}/${p.steps} [${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ` +
    `loss ${smoothLoss.toFixed(5)} ${rate.toFixed(1)} steps/s ETA ${p.step >= p.steps ? '0s' : formatDuration(eta)}`
  );
}

export class FitProgressBar {
  private smooth = NaN;
  private lastDraw = -Infinity;
  private lastLineStep = 0;
  private drewInline = false;

  constructor(private readonly opts: ProgressOptions) {}

  update(p: FitProgress): void {
    // Exponential average over ~20 steps: single-view losses jump between views.
    this.smooth = Number.isNaN(this.smooth) ? p.loss : 0.95 * this.smooth + 0.05 * p.loss;
    const now = (this.opts.now ?? Date.now)();
    const last = p.step >= p.steps;
    if (this.opts.isTTY) {
      if (!last && now - this.lastDraw < (this.opts.intervalMs ?? 100)) return;
      this.lastDraw = now;
      this.opts.write(`\r${progressLine(p, this.smooth, this.opts.label)}\x1b[K`);
      this.drewInline = true;
      return;
    }
    const every = Math.max(1, Math.ceil(p.steps / 20));
    if (last || p.step - this.lastLineStep >= every) {
      this.lastLineStep = p.step;
      this.opts.write(`${progressLine(p, this.smooth, this.opts.label)}\n`);
    }
  }

  /** Ends the updating line (terminal) so later output starts on a fresh line. */
  finish(): void {
    if (this.drewInline) this.opts.write('\n');
    this.drewInline = false;
  }
}
