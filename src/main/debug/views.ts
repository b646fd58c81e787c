// The debugger's views of a session from one camera: rendered RGB, coverage, first-contributor
// depth, contributors per pixel, tile occupancy (the GPU's own tile lists when there is a GPU,
// else the CPU box estimate, and the title says which), overdraw and the GPU-vs-CPU difference.
// Inputs: a DebugScene, a Camera, the view name and a GPU renderer (or null: none available).
// Output: DebugImage (cached per camera and view). Invariant: every view but gpuDiff is computed
// from the CPU reference's forward state; gpuDiff renders the same float32 scene on the grader's
// GPU rasterizer and compares with that state.
import type { DebugImage, DebugView } from '../../shared/api/debug';
import { displayScale } from '../../shared/debug/figure';
import { countFigure, coverageFigure, depthFigure, differenceFigure, imageDifference, overdrawFigure, rgbFigure, tilesFigure, type DebugFigure } from '../../shared/debug/views';
import { overdrawMap } from '../../shared/debug/overdraw';
import { occupancyFromLists } from '../../shared/debug/tiles';
import type { GpuTileLists } from '../../shared/raster/gpu';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import { toDebugImage } from './images';
import type { CameraCache, DebugScene } from './session';

/** What the GPU comparison needs: the grader's renderer, or null with the reason there is none. */
export type GpuRenderer =
  | { render(splats: Splats, camera: Camera): Promise<RenderOutput>; tileLists?(splats: Splats, camera: Camera): Promise<GpuTileLists>; name: string }
  | { render: null; reason: string };

/** A finished view: the figure (kept for highlighting clicks) and its encoded form. */
export interface ViewEntry {
  fig: DebugFigure;
  note: string | null;
  out: DebugImage;
}

export async function debugView(scene: DebugScene, camera: Camera, view: DebugView, gpu: () => Promise<GpuRenderer>): Promise<ViewEntry> {
  const cache = scene.at(camera);
  const cached = cache.views.get(view);
  if (cached) return cached;
  const { width, height } = cache.state;
  const k = displayScale(width, height);
  const { fig, note } = await makeView(scene, cache, view, k, gpu);
  const entry: ViewEntry = { fig, note, out: toDebugImage(fig, width, height, k, note) };
  cache.views.set(view, entry);
  return entry;
}

async function makeView(scene: DebugScene, cache: CameraCache, view: DebugView, k: number, gpu: () => Promise<GpuRenderer>): Promise<{ fig: DebugFigure; note: string | null }> {
  const { state } = cache;
  const { width, height } = state;
  const done = (fig: DebugFigure, note: string | null = null) => ({ fig, note });
  switch (view) {
    case 'rgb':
      return done(rgbFigure(state, k));
    case 'coverage':
      return done(coverageFigure(state, k));
    case 'depth':
      return done(depthFigure(cache.maps, k));
    case 'count':
      return done(countFigure(cache.maps, k));
    case 'tiles': {
      const renderer = await gpu();
      if (renderer.render !== null && renderer.tileLists) {
        const lists = await renderer.tileLists(scene.splats, cache.camera);
        return done(tilesFigure(occupancyFromLists(lists), width, height, k, `the GPU's own lists (${renderer.name})`));
      }
      const why = renderer.render === null ? renderer.reason : 'this GPU renderer does not expose its tile lists';
      return done(tilesFigure(cache.tiles, width, height, k, 'box estimate on the CPU'), `No GPU tile lists: ${why.replace(/\.$/, '')}. The GPU also skips tiles a Gaussian's ellipse cannot reach, so it lists fewer.`);
    }
    case 'overdraw':
      return done(overdrawFigure(overdrawMap(state), k));
    case 'gpuDiff': {
      const renderer = await gpu();
      if (renderer.render === null) {
        const fig = rgbFigure(state, k);
        return done({ ...fig, title: 'GPU vs CPU reference: no GPU' }, renderer.reason);
      }
      const out = await renderer.render(scene.splats, cache.camera);
      const diff = imageDifference(out.rgb, state.rgb, width, height);
      const max = Math.max(...diff.maxAbs);
      return done(differenceFigure(diff, width, height, k, `GPU (${renderer.name}) vs CPU reference: max |diff| ${max.toExponential(2)}`));
    }
  }
}
