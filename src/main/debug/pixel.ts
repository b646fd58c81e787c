// One pixel of the debugger: the CPU reference's trace (ordered contributors with depth, alpha,
// transmittance before/after and colour contribution, the final value) and the chosen view with
// those Gaussians outlined and the pixel marked.
// Inputs: a DebugScene, Camera, pixel (x, y), the view entry to draw on. Output: DebugPixel.
// Invariant: the list is tracePixel's, in compositing order; ids are the scene's Gaussian ids.
import type { DebugPixel } from '../../shared/api/debug';
import { tracePixel } from '../../shared/raster/cpu';
import type { Camera } from '../../shared/raster/types';
import { highlight } from '../../shared/debug/views';
import { toDebugImage } from './images';
import type { DebugScene } from './session';
import type { ViewEntry } from './views';
import { DebugSourceError } from './sources';

export function debugPixel(scene: DebugScene, camera: Camera, x: number, y: number, entry: ViewEntry): DebugPixel {
  if (x >= camera.width || y >= camera.height) throw new DebugSourceError(`pixel (${x}, ${y}) is outside the ${camera.width}x${camera.height} image`);
  const trace = tracePixel(scene.splats, camera, x, y);
  const state = scene.at(camera).state;
  if (!state) throw new Error('debug.pixel: the view has no forward state (draw the view first)');
  const records = scene.records;
  const contributors = trace.contributors.map((c, rank) => ({
    rank,
    index: c.index,
    id: records[c.index].id,
    depth: c.depth,
    alpha: c.alpha,
    T_before: c.T_before,
    T_after: c.T_after,
    contribution: c.contribution,
    color: [scene.splats.colors[c.index * 3], scene.splats.colors[c.index * 3 + 1], scene.splats.colors[c.index * 3 + 2]] as [number, number, number],
  }));
  const k = entry.out.scale;
  const fig = { ...entry.fig, image: highlight(entry.fig.image, k, state.projection, trace.contributors.map((c) => c.index), { x, y }) };
  fig.title = `${entry.fig.title}; pixel (${x}, ${y}): ${contributors.length} contributors outlined`;
  return {
    x,
    y,
    contributors,
    stoppedBy: trace.stoppedBy >= 0 ? records[trace.stoppedBy].id : null,
    T_final: trace.T_final,
    rgb: trace.rgb,
    highlight: toDebugImage(fig, camera.width, camera.height, k, entry.note),
  };
}
