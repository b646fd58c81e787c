// Loss-curve plot of a fit (fit_loss.png): per-step losses in light grey, their moving average
// in blue, log-scale y with labelled decade (or 1-2-5) ticks, x in steps, axis labels, title.
// Input: losses [steps] (positive), a title. Output: an RgbImage (white background).
// Invariant: deterministic pixels for the same input; non-finite or non-positive losses are
// skipped, and an empty series still gives labelled axes. LossPlotPng is where the plot is drawn
// and PNG-encoded: this thread, or the lab's worker pool (job 'author.lossPlot', issue 38).
import type { RgbImage } from '../../../shared/image/image';
import { createRgb } from '../../../shared/image/image';
import { drawLine, fillRect, type Rgb } from '../../../shared/image/draw';
import { drawText, textWidth } from '../../../shared/image/font';
import { encodePng } from '../../io/png';
import type { WorkerPool } from '../../workers/pool';

/** A fit's fit_loss.png bytes, drawn and encoded somewhere. */
export type LossPlotPng = (losses: readonly number[], title: string) => Promise<Uint8Array>;

export const localLossPlot: LossPlotPng = (losses, title) => Promise.resolve(encodePng(lossPlot(losses, title)));

/** The plot as a worker-pool job queued as `client` (the same bytes). */
export function poolLossPlot(pool: WorkerPool, client: string): LossPlotPng {
  return (losses, title) => pool.run('author.lossPlot', { losses: [...losses], title }, { client });
}

export const PLOT_WIDTH = 640;
export const PLOT_HEIGHT = 400;
const MARGIN = { left: 64, right: 20, top: 30, bottom: 44 };
const AXIS: Rgb = [0.2, 0.2, 0.2];
const GRID: Rgb = [0.88, 0.88, 0.88];
const RAW: Rgb = [0.72, 0.72, 0.72];
const SMOOTH: Rgb = [0.1, 0.3, 0.8];

/** Nice step (1, 2 or 5 times a power of ten) giving about `target` intervals over `span`. */
export function niceStep(span: number, target: number): number {
  const raw = span / Math.max(1, target);
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / pow;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * pow;
}

/** Tick values of a log axis over [lo, hi]: decades, or 1-2-5 per decade when the range is short. */
export function logTicks(lo: number, hi: number): number[] {
  const d0 = Math.floor(Math.log10(lo));
  const d1 = Math.ceil(Math.log10(hi));
  const mantissas = Math.log10(hi / lo) <= 2 ? [1, 2, 5] : [1];
  const out: number[] = [];
  for (let d = d0; d <= d1; d++) for (const m of mantissas) {
    const v = Number(`${m}e${d}`); // exact decimal, unlike m * 10 ** d
    if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(v);
  }
  return out;
}

/** Short label of a tick value: 0.05, 2e-3, 1500, 2k. */
export function tickLabel(v: number): string {
  if (v === 0) return '0';
  if (v >= 10000) return `${+(v / 1000).toPrecision(3)}k`;
  if (v >= 0.01) return `${+v.toPrecision(3)}`;
  const e = Math.floor(Math.log10(v));
  return `${+(v / Math.pow(10, e)).toPrecision(2)}e${e}`;
}

/** Moving average over a centred window of `w` samples (shrinking at the ends). */
export function movingAverage(xs: readonly number[], w: number): number[] {
  const half = Math.max(0, Math.floor(w / 2));
  const prefix = [0];
  for (const x of xs) prefix.push(prefix[prefix.length - 1] + x);
  return xs.map((_, i) => {
    const a = Math.max(0, i - half);
    const b = Math.min(xs.length, i + half + 1);
    return (prefix[b] - prefix[a]) / (b - a);
  });
}

export function lossPlot(losses: readonly number[], title: string): RgbImage {
  const img = createRgb(PLOT_WIDTH, PLOT_HEIGHT, 1);
  const x0 = MARGIN.left;
  const x1 = PLOT_WIDTH - MARGIN.right;
  const y0 = MARGIN.top;
  const y1 = PLOT_HEIGHT - MARGIN.bottom;
  const valid = losses.filter((v) => Number.isFinite(v) && v > 0);
  const lo = valid.length ? Math.min(...valid) : 0.01;
  const hi = valid.length ? Math.max(...valid) : 1;
  // Pad the log range a little so the curve never touches the frame.
  const logLo = Math.log10(lo) - 0.05 * Math.max(0.3, Math.log10(hi / lo));
  const logHi = Math.log10(hi) + 0.05 * Math.max(0.3, Math.log10(hi / lo));
  const steps = Math.max(1, losses.length);
  const px = (step: number): number => x0 + ((x1 - x0) * step) / steps;
  const py = (v: number): number => y1 - ((y1 - y0) * (Math.log10(v) - logLo)) / (logHi - logLo);

  for (const t of logTicks(Math.pow(10, logLo), Math.pow(10, logHi))) {
    const y = py(t);
    drawLine(img, x0, y, x1, y, GRID);
    const label = tickLabel(t);
    drawText(img, x0 - 6 - textWidth(label), Math.round(y - 3), label, AXIS);
  }
  const xStep = niceStep(steps, 8);
  for (let s = 0; s <= steps + 1e-9; s += xStep) {
    const x = px(s);
    drawLine(img, x, y0, x, y1, GRID);
    drawLine(img, x, y1, x, y1 + 4, AXIS);
    const label = tickLabel(s);
    drawText(img, Math.round(x - textWidth(label) / 2), y1 + 8, label, AXIS);
  }

  const series = (values: readonly number[], color: Rgb, width: number): void => {
    let prev: [number, number] | null = null;
    values.forEach((v, i) => {
      if (!(Number.isFinite(v) && v > 0)) {
        prev = null;
        return;
      }
      const p: [number, number] = [px(i + 1), py(v)];
      if (prev) drawLine(img, prev[0], prev[1], p[0], p[1], color, width);
      prev = p;
    });
  };
  series(losses, RAW, 1);
  series(movingAverage(losses, Math.max(1, Math.round(steps / 40))), SMOOTH, 2);

  drawLine(img, x0, y0, x0, y1, AXIS);
  drawLine(img, x0, y1, x1, y1, AXIS);
  drawText(img, Math.round((x0 + x1 - textWidth('step')) / 2), PLOT_HEIGHT - 16, 'step', AXIS);
  drawText(img, 6, 8, 'loss (log scale)', AXIS);
  drawText(img, Math.round((x0 + x1 - textWidth(title)) / 2), 8, title, AXIS);
  // Legend: grey = each step's loss (one view), blue = moving average.
  const lx = x1 - 150;
  fillRect(img, lx, y0 + 8, 14, 3, RAW);
  drawText(img, lx + 20, y0 + 5, 'per step', AXIS);
  fillRect(img, lx, y0 + 20, 14, 3, SMOOTH);
  drawText(img, lx + 20, y0 + 17, 'moving average', AXIS);
  return img;
}
