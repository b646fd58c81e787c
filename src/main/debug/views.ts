// The debugger's views of a session from one camera: rendered RGB, coverage, first-contributor
// depth, contributors per pixel, tile occupancy (the GPU's own tile lists when there is a GPU,
// else the CPU box estimate, and the title says which), overdraw and the GPU-vs-CPU difference.
// Inputs: a DebugScene, a Camera, the view name, a GPU renderer (or null: none available) and
// the job runner of the lab's worker pool, the SH degree. Output: DebugImage (cached per camera,
// degree and view).
// Invariant: every view is drawn by a worker job (draw.ts) from the CPU reference's forward
// state, computed once per camera and kept here; what needs the GPU (gpuDiff's render, the GPU's
// tile lists) runs on the main thread, where the device is, and goes into the job.
import type { DebugImage, DebugView } from '../../shared/api/debug';
import { displayScale } from '../../shared/debug/figure';
import { occupancyFromLists } from '../../shared/debug/tiles';
import type { DebugFigure } from '../../shared/debug/views';
import type { GpuTileLists } from '../../shared/raster/gpu';
import type { Camera, RasterOptions, RenderOutput, Splats } from '../../shared/raster/types';
import type { JobInput, JobKind, JobOutput } from '../workers/job-table';
import type { GpuSide, GpuTiles } from './draw';
import type { DebugScene } from './session';

/** What the GPU comparison needs: the grader's renderer, or null with the reason there is none. */
export type GpuRenderer =
  | { render(splats: Splats, camera: Camera, opts: RasterOptions): Promise<RenderOutput>; tileLists?(splats: Splats, camera: Camera): Promise<GpuTileLists>; name: string }
  | { render: null; reason: string };

/** Runs a job on the lab's worker pool for the caller of this request (its client and signal). */
export type DebugJobs = <K extends JobKind>(kind: K, input: JobInput<K>) => Promise<JobOutput<K>>;

/** A finished view: the figure (kept for highlighting clicks) and its encoded form. */
export interface ViewEntry {
  fig: DebugFigure;
  note: string | null;
  out: DebugImage;
}

async function gpuSide(scene: DebugScene, camera: Camera, shDegree: number, gpu: () => Promise<GpuRenderer>): Promise<GpuSide> {
  const renderer = await gpu();
  if (renderer.render === null) return { reason: renderer.reason };
  return { name: renderer.name, rgb: (await renderer.render(scene.splats, camera, { shDegree })).rgb };
}

async function gpuTiles(scene: DebugScene, camera: Camera, gpu: () => Promise<GpuRenderer>): Promise<GpuTiles> {
  const renderer = await gpu();
  if (renderer.render === null) return { reason: renderer.reason };
  if (!renderer.tileLists) return { reason: 'this GPU renderer does not expose its tile lists' };
  return { name: renderer.name, occupancy: occupancyFromLists(await renderer.tileLists(scene.splats, camera)) };
}

/** `shDegree`: the asked degree (undefined: all the scene has), capped by the scene's. */
export async function debugView(scene: DebugScene, camera: Camera, view: DebugView, gpu: () => Promise<GpuRenderer>, jobs: DebugJobs, shDegree?: number): Promise<ViewEntry> {
  const degree = scene.degreeFor(shDegree);
  const cache = scene.at(camera, degree);
  const cached = cache.views.get(view);
  if (cached) return cached;
  const k = displayScale(camera.width, camera.height);
  const input: JobInput<'debug.view'> = { splats: scene.splats, camera, view, k, shDegree: degree };
  if (cache.state) input.state = cache.state;
  if (cache.maps) input.maps = cache.maps;
  if (view === 'gpuDiff') input.gpu = await gpuSide(scene, camera, degree, gpu);
  if (view === 'tiles') input.tiles = await gpuTiles(scene, camera, gpu);
  const done = await jobs('debug.view', input);
  if (done.state) cache.state ??= done.state;
  if (done.maps) cache.maps ??= done.maps;
  cache.views.set(view, done.entry);
  return done.entry;
}
