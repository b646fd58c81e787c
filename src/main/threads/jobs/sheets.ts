// Jobs 'image.png', 'image.publicPhotos' (the player's reference photos), 'image.references', 'image.views' and 'image.angle': any image's PNG (the
// Author view's previews and photo sheets) and the reference sheet (issue 38 item 1),
// the render_views sheet and the render_angle image drawn
// and PNG-encoded on a worker thread (issue 29 item 1), with the same builders as on the main
// thread (src/main/env/images.ts). Input: the rows (photo, camera, render, metrics) or one render.
// Output: the PNG bytes, transferred.
import type { Camera, RenderOutput } from '../../../shared/raster/types';
import type { RgbImage } from '../../../shared/image/image';
import { encodePng } from '../../io/png';
import { publicPhotoPng } from '../../env/public';
import { drawReferenceViews, renderAngleImage, renderViewsSheet, type RenderRow, type SheetView } from '../../env/images';
import type { JobContext } from '../../workers/protocol';

export function pngJob(input: { image: RgbImage }, ctx: JobContext): Uint8Array {
  const png = encodePng(input.image);
  ctx.transfer(png.buffer);
  return png;
}

export function referenceSheetJob(input: { views: SheetView[] }, ctx: JobContext): Uint8Array {
  const png = drawReferenceViews(input.views);
  ctx.transfer(png.buffer);
  return png;
}

/** The reference photos as the player sees them (src/main/env/public.ts), one PNG each. */
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
