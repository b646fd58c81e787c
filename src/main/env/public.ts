// Conversions from main-side episode state to the public LabApi shapes of src/shared/api/episode.ts.
// Inputs: SplatEnv records and budgets, a LoadedTask's reference views, PNG bytes.
// Outputs: PublicGaussian[], EpisodeBudgets, PublicView[], data: URLs.
// Invariant: only reference views are ever read here; a task's held-out views, anchors and
// fit never pass through this file.
import type { EpisodeBudgets, PublicGaussian, PublicView } from '../../shared/api/episode';
import type { SplatBudgetState } from '../../shared/env/format';
import type { GaussianRecord } from '../../shared/scene/records';
import { drawOverlay } from '../../shared/image/overlay';
import { encodePng } from '../io/png';
import type { LoadedTask } from '../tasks/load';
import type { RgbImage } from '../../shared/image/image';
import type { Camera } from '../../shared/raster/types';

export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
}

export function publicScene(records: readonly GaussianRecord[]): PublicGaussian[] {
  return records.map((r) => {
    const g: PublicGaussian = { id: r.id, pos: [...r.pos], scale: [...r.scale], quat: [...r.quat], color: [...r.color], opacity: r.opacity };
    if (r.group !== undefined) g.group = r.group;
    return g;
  });
}

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
// draws them on its worker pool (src/main/env/images-pool.ts, job 'image.publicPhotos'); the
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
