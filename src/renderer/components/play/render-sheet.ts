// Where each photo / render / difference image sits inside a render_views sheet, so the render
// viewer can show them one by one at full size. Pure layout arithmetic mirroring
// src/shared/image/sheet.ts (equal cells, a label band above each image, `SHEET_GAP` around)
// and src/main/kinds/splatbench/images.ts (three tiles per view; 3 columns, 6 beyond four views).
// Inputs: the sheet's size, the tile size (the views' camera size) and the number of views.
// Output: one rectangle per view and panel. A unit test builds real sheets and checks the crops.
// See docs/DESIGN.md section 7.
import type { PublicView } from '../../../shared/api/episode';
import { resolveViews } from '../../../shared/env/views';

export const SHEET_GAP = 4;
export const PANELS = ['photo', 'render', 'difference'] as const;
export type Panel = (typeof PANELS)[number];

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Rectangles of every view's three panels in a render_views sheet (null if the size does not fit). */
export function sheetRects(sheetW: number, sheetH: number, tileW: number, tileH: number, views: number): Record<Panel, Rect>[] | null {
  const tiles = views * 3;
  const cols = Math.min(views > 4 ? 6 : 3, tiles);
  const rows = Math.ceil(tiles / cols);
  if (sheetW !== cols * tileW + (cols + 1) * SHEET_GAP) return null;
  const cellH = (sheetH - (rows + 1) * SHEET_GAP) / rows;
  if (!Number.isInteger(cellH) || cellH < tileH) return null;
  const out: Record<Panel, Rect>[] = [];
  for (let v = 0; v < views; v++) {
    const rect = (k: number): Rect => {
      const i = v * 3 + k;
      return { x: SHEET_GAP + (i % cols) * (tileW + SHEET_GAP), y: SHEET_GAP + Math.floor(i / cols) * (cellH + SHEET_GAP) + (cellH - tileH), w: tileW, h: tileH };
    };
    out.push({ photo: rect(0), render: rect(1), difference: rect(2) });
  }
  return out;
}

/** The view names a render_views call covered, in sheet order. */
export function renderedViewNames(args: unknown, views: readonly PublicView[]): string[] {
  const requested = (args as { views?: (number | string)[] } | null)?.views;
  const r = resolveViews(Array.isArray(requested) ? requested : undefined, views);
  return r.ok ? r.indices.map((i) => views[i].name) : [];
}
