// SplatBench's PNG images the player receives: the reference sheet (view_references and the first
// observation), the render_views sheet (photo | render | difference per view, with that view's
// metrics) and the render_angle image, drawn here (the CLI, tests) or on the lab's worker pool
// (./images-pool.ts, when the episode is given the pool). Inputs: a loaded task, renders and their metrics.
// Output: PNG bytes. Invariant: only reference views appear here; photos and renders carry the
// bounds-cube overlay for their own camera, difference images are computed before any overlay.
import type { PublicView } from '../../../shared/api/episode';
import type { Camera, RenderOutput } from '../../../shared/raster/types';
import type { RgbImage } from '../../../shared/image/image';
import { drawOverlay } from '../../../shared/image/overlay';
import { contactSheet, type SheetTile } from '../../../shared/image/sheet';
import { DIFFERENCE_GAIN, differenceImage } from '../../../shared/image/difference';
import { encodePng } from '../../io/png';
import type { LoadedTask, RefView } from '../../tasks/load';

/** The per-view numbers a sheet row shows (a subset of the grader's ViewMetrics). */
export interface RowMetrics {
  psnr: number;
  ssim: number;
  iou: number;
  render: RenderOutput;
}

/** What a sheet shows of a reference view (not its mask). */
export type SheetView = Pick<RefView, 'name' | 'azimuth' | 'elevation' | 'camera' | 'photo'>;

export interface RenderRow {
  view: SheetView;
  metrics: RowMetrics;
}

/** "V0 az 0° el 20°", or just the name for views without orbit angles. */
export function viewLabel(view: Pick<RefView, 'name' | 'azimuth' | 'elevation'>): string {
  const parts = [view.name];
  if (view.azimuth !== undefined) parts.push(`az ${fmt(view.azimuth)}°`);
  if (view.elevation !== undefined) parts.push(`el ${fmt(view.elevation)}°`);
  return parts.join(' ');
}

/** SplatBench's PNG builders for its three image tools and the player's reference photos (tests pass cheap fakes). */
export interface EnvImages {
  /** May answer later, like the sheets below (the lab draws it on its pool once per task). */
  referenceSheet(task: LoadedTask, views?: number[]): Uint8Array | Promise<Uint8Array>;
  /** May answer later: the lab draws these on its worker pool (./images-pool.ts). */
  renderViewsSheet(rows: RenderRow[]): Uint8Array | Promise<Uint8Array>;
  renderAngleImage(render: RenderOutput, label: string, camera: Camera): Uint8Array | Promise<Uint8Array>;
  /** The reference photos as the player sees them, once per task; absent: drawn here (./public.ts). */
  publicViews?(task: LoadedTask): PublicView[] | Promise<PublicView[]>;
}

const fmt = (x: number): string => String(Math.round(x * 10) / 10);

const asImage = (r: RenderOutput): RgbImage => ({ width: r.width, height: r.height, data: r.rgb });

// Reference sheets never change for a loaded task (a changed task is a new object), and every
// episode.start draws one: drawn once per task and selection (on the lab's worker pool through
// ./images-pool.ts, here in a worker or a CLI), so 16 starts at once share one drawing. The
// WeakMap lets an unloaded task's sheets go with it; a failed drawing is forgotten, not cached.
const sheets = new WeakMap<LoadedTask, Map<string, Uint8Array | Promise<Uint8Array>>>();

/** The task's reference sheet, drawn by `draw` from the chosen views the first time only. */
export function cachedReferenceSheet<T extends Uint8Array | Promise<Uint8Array>>(task: LoadedTask, views: number[] | undefined, draw: (chosen: SheetView[]) => T): T {
  const key = views ? views.join(',') : 'all';
  let perTask = sheets.get(task);
  if (!perTask) {
    perTask = new Map();
    sheets.set(task, perTask);
  }
  const hit = perTask.get(key);
  if (hit) return hit as T;
  const chosen = views ? views.map((i) => task.reference[i]).filter((v): v is RefView => v !== undefined) : task.reference;
  if (chosen.length === 0) throw new Error('referenceSheet: no reference views selected');
  const png = draw(chosen);
  perTask.set(key, png);
  if (png instanceof Promise) png.catch(() => perTask.delete(key));
  return png;
}

/** Sheet of the task's reference photos (all, or those at the given indices), 4 per row. */
export function referenceSheet(task: LoadedTask, views?: number[]): Uint8Array {
  return cachedReferenceSheet(task, views, drawReferenceViews);
}

/** The reference sheet of these views (photo with its bounds-cube overlay and label), 4 per row. */
export function drawReferenceViews(chosen: SheetView[]): Uint8Array {
  const tiles: SheetTile[] = chosen.map((v) => ({ image: drawOverlay(v.photo, v.camera), label: viewLabel(v) }));
  return encodePng(contactSheet(tiles, Math.min(4, tiles.length)));
}

/** Photo, render and amplified difference for each view; two views per row beyond four views. */
export function renderViewsSheet(rows: RenderRow[]): Uint8Array {
  if (rows.length === 0) throw new Error('renderViewsSheet: no views');
  const tiles: SheetTile[] = [];
  for (const { view, metrics } of rows) {
    const render = asImage(metrics.render);
    tiles.push(
      { image: drawOverlay(view.photo, view.camera), label: `${viewLabel(view)}\nphoto` },
      {
        image: drawOverlay(render, view.camera),
        label: `${view.name} render\nPSNR ${metrics.psnr.toFixed(2)} dB\nSSIM ${metrics.ssim.toFixed(3)} IoU ${metrics.iou.toFixed(3)}`,
      },
      { image: differenceImage(view.photo, render), label: `${view.name} difference\nabs(photo-render) x${DIFFERENCE_GAIN}` },
    );
  }
  return encodePng(contactSheet(tiles, rows.length > 4 ? 6 : 3));
}

/** One render from any camera, with the overlay and a label (no photo to compare with). */
export function renderAngleImage(render: RenderOutput, label: string, camera: Camera): Uint8Array {
  return encodePng(contactSheet([{ image: drawOverlay(asImage(render), camera), label }], 1));
}

/** The three builders as one object (the episode's EnvImages on the calling thread). */
export const envImages = { referenceSheet, renderViewsSheet, renderAngleImage } satisfies EnvImages;
