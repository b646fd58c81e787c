// The episode's images off the event loop (issue 29 item 1): EnvImages whose render_views sheet
// and render_angle image are drawn and PNG-encoded as worker-pool jobs (jobs/sheets.ts), and so is
// the reference sheet (issue 38 item 1), once per task and selection (the promise is cached in
// src/main/env/images.ts, so concurrent starts share one job).
// Input: the lab's pool. Output: EnvImages for the EpisodeManager.
// Invariant: the same bytes as envImages (one set of builders); only what a sheet shows is sent
// (the photo, camera, render and metrics of each row; not the task's masks).
import { cachedReferenceSheet, type RenderRow, type SheetView } from './images';
import type { EnvImages } from './types';
import type { WorkerPool } from '../workers/pool';
import { cachedPublicViews } from './public';

/** The pool's queue these jobs wait in (one per lab; the pool serves it beside every other client). */
export const IMAGES_CLIENT = 'episode-images';

const sheetView = (v: SheetView): SheetView => ({
  name: v.name,
  camera: v.camera,
  photo: v.photo,
  ...(v.azimuth === undefined ? {} : { azimuth: v.azimuth }),
  ...(v.elevation === undefined ? {} : { elevation: v.elevation }),
});

export function poolImages(pool: WorkerPool): EnvImages {
  return {
    referenceSheet: (task, views) => cachedReferenceSheet(task, views, (chosen) => pool.run('image.references', { views: chosen.map(sheetView) }, { client: IMAGES_CLIENT })),
    renderViewsSheet: (rows: RenderRow[]) =>
      pool.run('image.views', { rows: rows.map(({ view, metrics }) => ({ view: sheetView(view), metrics: { psnr: metrics.psnr, ssim: metrics.ssim, iou: metrics.iou, render: metrics.render } })) }, { client: IMAGES_CLIENT }),
    renderAngleImage: (render, label, camera) => pool.run('image.angle', { render, label, camera }, { client: IMAGES_CLIENT }),
    publicViews: (task) => cachedPublicViews(task, (views) => pool.run('image.publicPhotos', { views }, { client: IMAGES_CLIENT })),
  };
}
