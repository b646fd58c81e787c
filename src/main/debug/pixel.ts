// One pixel of the debugger: the CPU reference's trace (ordered contributors with depth, alpha,
// transmittance before/after and colour contribution, the final value) and the chosen view with
// those Gaussians outlined and the pixel marked, drawn by a worker job (draw.ts drawPixel).
// Inputs: a DebugScene, Camera, pixel (x, y), the view entry to draw on, the job runner.
// Output: DebugPixel. Invariant: the list is tracePixel's, in compositing order; ids are the
// scene's Gaussian ids; each colour is the one composited (view-dependent at the view's degree).
import type { DebugPixel } from '../../shared/api/debug';
import type { Camera } from '../../shared/raster/types';
import type { DebugScene } from './session';
import type { DebugJobs, ViewEntry } from './views';
import { DebugSourceError } from './sources';

/** The colour a contributor was composited with: its view-dependent colour at the trace's SH degree (the stored DC colour if its weight is zero). */
function colourOf(c: { index: number; alpha: number; T_before: number; contribution: [number, number, number] }, dc: ArrayLike<number>): [number, number, number] {
  const w = c.alpha * c.T_before;
  if (!(w > 0)) return [dc[c.index * 3], dc[c.index * 3 + 1], dc[c.index * 3 + 2]];
  return [c.contribution[0] / w, c.contribution[1] / w, c.contribution[2] / w];
}

export async function debugPixel(scene: DebugScene, camera: Camera, x: number, y: number, entry: ViewEntry, jobs: DebugJobs): Promise<DebugPixel> {
  if (x >= camera.width || y >= camera.height) throw new DebugSourceError(`pixel (${x}, ${y}) is outside the ${camera.width}x${camera.height} image`);
  // The trace evaluates colours at the degree the clicked view was drawn at.
  const shDegree = entry.out.shDegree;
  const state = scene.at(camera, shDegree).state;
  if (!state) throw new Error('debug.pixel: the view has no forward state (draw the view first)');
  const { trace, highlight } = await jobs('debug.pixel', { splats: scene.splats, camera, x, y, fig: entry.fig, k: entry.out.scale, shDegree, note: entry.note, projection: state.projection });
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
    color: colourOf(c, scene.splats.colors),
  }));
  return {
    x,
    y,
    contributors,
    stoppedBy: trace.stoppedBy >= 0 ? records[trace.stoppedBy].id : null,
    T_final: trace.T_final,
    rgb: trace.rgb,
    highlight,
  };
}
