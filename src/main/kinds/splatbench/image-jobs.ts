// SplatBench's worker-pool jobs (issue 29 item 1, issue 38 item 1; in the kinds' job table
// src/main/kinds/jobs.ts): 'splatbench.references' (the reference sheet), 'splatbench.viewsSheet'
// (the render_views sheet), 'splatbench.angleImage' (the render_angle image) and
// 'splatbench.publicPhotos' (the player's reference photos), drawn and PNG-encoded on a worker
// thread with the same builders as on the calling thread (./images.ts, ./public.ts).
// Input: the views, the rows (photo, camera, render, metrics) or one render. Output: the PNG
// bytes, transferred. Invariant: structured-clone data in and out, no main-thread state.
import type { Camera, RenderOutput } from '../../../shared/raster/types';
import type { RgbImage } from '../../../shared/image/image';
import { drawReferenceViews, renderAngleImage, renderViewsSheet, type RenderRow, type SheetView } from './images';
import { publicPhotoPng } from './public';
import type { JobContext } from '../../workers/protocol';

export function referenceSheetJob(input: { views: SheetView[] }, ctx: JobContext): Uint8Array {
  const png = drawReferenceViews(input.views);
  ctx.transfer(png.buffer);
  return png;
}

/** The reference photos as the player sees them (./public.ts), one PNG each. */
export function publicPhotosJob(input: { views: { photo: RgbImage; camera: Camera }[] }, ctx: JobContext): Uint8Array[] {
  const pngs = input.views.map((v) => publicPhotoPng(v.photo, v.camera));
  for (const png of pngs) ctx.transfer(png.buffer);
  return pngs;
}

export function viewsSheetJob(input: { rows: RenderRow[] }, ctx: JobContext): Uint8Array {
  const png = renderViewsSheet(input.rows);
  ctx.transfer(png.buffer);
  return png;
}

export function angleImageJob(input: { render: RenderOutput; label: string; camera: Camera }, ctx: JobContext): Uint8Array {
  const png = renderAngleImage(input.render, input.label, input.camera);
  ctx.transfer(png.buffer);
  return png;
}
