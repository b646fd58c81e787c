// SplatBench's episode images off the event loop (issue 29 item 1): EnvImages whose render_views
// sheet and render_angle image are drawn and PNG-encoded as worker-pool jobs (./image-jobs.ts, in
// the kinds' job table src/main/kinds/jobs.ts), and so is the reference sheet (issue 38 item 1),
// once per task and selection (the promise is cached in ./images.ts, so concurrent starts share
// one job). Input: the lab's pool (KindEnvOptions.pool). Output: EnvImages for SplatEnv.
// Invariant: the same bytes as envImages (one set of builders); only what a sheet shows is sent
// (the photo, camera, render and metrics of each row; not the task's masks).
import { cachedReferenceSheet, type EnvImages, type RenderRow, type SheetView } from './images';
import type { WorkerPool } from '../../workers/pool';
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
    referenceSheet: (task, views) => cachedReferenceSheet(task, views, (chosen) => pool.run('splatbench.references', { views: chosen.map(sheetView) }, { client: IMAGES_CLIENT })),
    renderViewsSheet: (rows: RenderRow[]) =>
      pool.run('splatbench.viewsSheet', { rows: rows.map(({ view, metrics }) => ({ view: sheetView(view), metrics: { psnr: metrics.psnr, ssim: metrics.ssim, iou: metrics.iou, render: metrics.render } })) }, { client: IMAGES_CLIENT }),
    renderAngleImage: (render, label, camera) => pool.run('splatbench.angleImage', { render, label, camera }, { client: IMAGES_CLIENT }),
    publicViews: (task) => cachedPublicViews(task, (views) => pool.run('splatbench.publicPhotos', { views }, { client: IMAGES_CLIENT })),
  };
}
