// SplatBench's public state for the play view (src/shared/api/episode.ts): its budgets (Gaussians,
// calls, renders) and its reference views with the photos as the player sees them (the bounds cube
// and axes drawn on), drawn once per loaded task, here or on the lab's pool (./images-pool.ts).
// Inputs: SplatEnv's budgets, a LoadedTask's reference views. Outputs: EpisodeBudgets, PublicView[].
// Invariant: only reference views are ever read here; a task's held-out views, anchors and fit
// never pass through this file.
import type { EpisodeBudgets, PublicView } from '../../../shared/api/episode';
import type { SplatBudgetState } from '../../../shared/kinds/splatbench/format';
import { drawOverlay } from '../../../shared/image/overlay';
import type { RgbImage } from '../../../shared/image/image';
import type { Camera } from '../../../shared/raster/types';
import { pngDataUrl } from '../../env/public';
import { encodePng } from '../../io/png';
import type { LoadedTask } from '../../tasks/load';

export function publicBudgets(b: SplatBudgetState, task: LoadedTask): EpisodeBudgets {
  return {
    gaussians: b.gaussians,
    maxGaussians: b.maxGaussians,
    callsLeft: b.callsLeft,
    maxToolCalls: task.spec.max_tool_calls,
    rendersLeft: b.rendersLeft,
    maxRenders: task.spec.max_renders,
  };
}

// Drawn and encoded once per loaded task (every episode of it shows the same photos), so many
// episode starts at once do not each occupy the event loop; a reloaded task is a new key. The lab
// draws them on its worker pool (./images-pool.ts, job 'splatbench.publicPhotos'); the
// pending promise is kept, so concurrent starts share one job.
const viewsByTask = new WeakMap<LoadedTask, PublicView[] | Promise<PublicView[]>>();

/** One reference photo as the player sees it: the bounds cube and axes drawn on, as a PNG. */
export function publicPhotoPng(photo: RgbImage, camera: Camera): Uint8Array {
  return encodePng(drawOverlay(photo, camera));
}

/** Reference cameras with their photos as the sheet shows them (bounds cube and axes drawn on). */
export function publicViews(task: LoadedTask): PublicView[] {
  const kept = viewsByTask.get(task);
  if (kept && !(kept instanceof Promise)) return kept;
  const views = viewsOf(task, task.reference.map((v) => publicPhotoPng(v.photo, v.camera)));
  viewsByTask.set(task, views);
  return views;
}

/**
 * publicViews with the photos drawn by `draw` (the lab: a pool job), once per task; a failed
 * draw is forgotten so the next start tries again.
 */
export function cachedPublicViews(task: LoadedTask, draw: (photos: { photo: RgbImage; camera: Camera }[]) => Promise<Uint8Array[]>): PublicView[] | Promise<PublicView[]> {
  const kept = viewsByTask.get(task);
  if (kept) return kept;
  const pending = draw(task.reference.map((v) => ({ photo: v.photo, camera: v.camera }))).then(
    (pngs) => {
      const views = viewsOf(task, pngs);
      viewsByTask.set(task, views);
      return views;
    },
    (error: unknown) => {
      viewsByTask.delete(task);
      throw error;
    },
  );
  viewsByTask.set(task, pending);
  return pending;
}

function viewsOf(task: LoadedTask, pngs: Uint8Array[]): PublicView[] {
  return task.reference.map((v, i) => {
    const view: PublicView = { name: v.name, camera: { ...v.camera, world_to_camera: [...v.camera.world_to_camera] }, photo: pngDataUrl(pngs[i]) };
    if (v.azimuth !== undefined) view.azimuth = v.azimuth;
    if (v.elevation !== undefined) view.elevation = v.elevation;
    return view;
  });
}
