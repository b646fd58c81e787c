// The debugger's heavy work, run as worker-pool jobs (src/main/threads/jobs.ts) so a render never
// holds up the event loop: the CPU reference's forward state, the per-pixel maps, the figure of a
// view and its PNG encoding; the gradient view (backward pass) likewise.
// Inputs: the packed Splats, a Camera, the view and its display scale, and whatever the main
// thread already has cached (forward state, maps). Output: the finished ViewEntry plus the state
// and maps computed here, for the main thread's per-camera cache.
// Invariant: the same pure functions as before (src/shared/debug, src/shared/raster/cpu) on the
// same float32 scene, so every number is the one the main thread would have computed. A pixel
// click's trace and highlighted view (drawPixel) likewise. Colours are evaluated at the asked SH
// degree (already capped by the scene's), the same degree for the state, the trace and the GPU.
// A capture's (above DEBUG_SCENE_LIMIT Gaussians) overdraw view is the tile rasterizer's, with
// that frame's stage times (project, sort, bin, composite) in its stats and title.
import type { DebugGradientsResult, DebugImage, DebugLoss, DebugView } from '../../shared/api/debug';
import { DEBUG_SCENE_LIMIT } from '../../shared/api/debug';
import { DEBUG_LOSS_LABELS } from '../../shared/api/debug';
import { pixelMaps, type PixelMaps } from '../../shared/debug/maps';
import { overdrawMap, overdrawOf } from '../../shared/debug/overdraw';
import { tileOccupancy, type TileOccupancy } from '../../shared/debug/tiles';
import { gradientFigure } from '../../shared/debug/gradient-view';
import type { GradientParam } from '../../shared/debug/gradients';
import { countFigure, coverageFigure, depthFigure, differenceFigure, highlight, imageDifference, overdrawFigure, rgbFigure, tilesFigure, type DebugFigure } from '../../shared/debug/views';
import type { RgbImage } from '../../shared/image/image';
import { rasterizeBackward, rasterizeForwardState, tracePixel, type ForwardState, type PixelTrace } from '../../shared/raster/cpu';
import { rasterizeTiles } from '../../shared/raster/cpu/tiles';
import type { Camera, Projection, Splats, StageTimings } from '../../shared/raster/types';
import type { JobContext } from '../workers/protocol';
import { lossWithGrad, uploadedTarget } from './gradients';
import { toDebugImage } from './images';
import type { ViewEntry } from './views';

/** The GPU side of gpuDiff, rendered on the main thread's device: its RGB or why there is none. */
export type GpuSide = { name: string; rgb: Float32Array } | { reason: string };

/** The GPU's own tile lists as occupancy (read back on the main thread), or why there are none. */
export type GpuTiles = { name: string; occupancy: TileOccupancy } | { reason: string };

export interface DrawViewInput {
  splats: Splats;
  camera: Camera;
  view: DebugView;
  k: number;
  /** SH degree to evaluate (0..the scene's degree). */
  shDegree: number;
  state?: ForwardState;
  maps?: PixelMaps;
  gpu?: GpuSide;
  tiles?: GpuTiles;
}

export interface DrawViewOutput {
  entry: ViewEntry;
  /** Present when computed by this job (the caller had none cached). */
  state?: ForwardState;
  maps?: PixelMaps;
}

const STAGES = 3;

function forwardOf(input: { splats: Splats; camera: Camera; shDegree: number; state?: ForwardState }, ctx: JobContext): { state: ForwardState; fresh: boolean } {
  if (input.state) return { state: input.state, fresh: false };
  ctx.progress(0, STAGES, 'rasterizing (CPU reference)');
  return { state: rasterizeForwardState(input.splats, input.camera, { shDegree: input.shDegree }), fresh: true };
}

/** ", SH degree d of D" for a scene with view-dependent colour, else nothing. */
function shWords(splats: Splats, degree: number): string {
  return splats.sh ? `, SH degree ${degree} of ${splats.sh.degree}` : '';
}

function figureOf(input: DrawViewInput, state: ForwardState, maps: () => PixelMaps): { fig: DebugFigure; note: string | null } {
  const { width, height } = state;
  const { k } = input;
  switch (input.view) {
    case 'rgb': {
      const fig = rgbFigure(state, k);
      return { fig: { ...fig, title: fig.title.replace(/\)$/, `${shWords(input.splats, input.shDegree)})`) }, note: null };
    }
    case 'coverage':
      return { fig: coverageFigure(state, k), note: null };
    case 'depth':
      return { fig: depthFigure(maps(), k), note: null };
    case 'count':
      return { fig: countFigure(maps(), k), note: null };
    case 'tiles': {
      const gpu = input.tiles ?? { reason: 'no GPU tile lists were given' };
      if ('occupancy' in gpu) return { fig: tilesFigure(gpu.occupancy, width, height, k, `the GPU's own lists (${gpu.name})`), note: null };
      const note = `No GPU tile lists: ${gpu.reason.replace(/\.$/, '')}. The GPU also skips tiles a Gaussian's ellipse cannot reach, so it lists fewer.`;
      return { fig: tilesFigure(tileOccupancy(state.projection, width, height), width, height, k, 'box estimate on the CPU'), note };
    }
    case 'overdraw':
      if (input.splats.count > DEBUG_SCENE_LIMIT) return captureOverdraw(input);
      return { fig: overdrawFigure(overdrawMap(state), k), note: null };
    case 'gpuDiff': {
      const gpu = input.gpu ?? { reason: 'no GPU render was given' };
      if ('reason' in gpu) return { fig: { ...rgbFigure(state, k), title: 'GPU vs CPU reference: no GPU' }, note: gpu.reason };
      const diff = imageDifference(gpu.rgb, state.rgb, width, height);
      const max = Math.max(...diff.maxAbs);
      return { fig: differenceFigure(diff, width, height, k, `GPU (${gpu.name}) vs CPU reference${shWords(input.splats, input.shDegree)}: max |diff| ${max.toExponential(2)}`), note: null };
    }
  }
}

/**
 * The overdraw of a capture on the tile rasterizer's own stage split (the CPU path that renders
 * captures: search views, `splatlab render`): the Gaussians its compositor evaluates per pixel,
 * and the wall time of each stage (project, sort, bin, composite) of that frame on this thread.
 */
function captureOverdraw(input: DrawViewInput): { fig: DebugFigure; note: string | null } {
  const { width, height } = input.camera;
  const counts = new Int32Array(width * height);
  let t: StageTimings | null = null;
  rasterizeTiles(input.splats, input.camera, { shDegree: input.shDegree, evaluated: counts, onTimings: (x) => (t = x) });
  const map = overdrawOf(width, height, counts);
  const fig = overdrawFigure(map, input.k);
  const st = t as StageTimings | null;
  const stages: Record<string, number> = st ? { project_ms: st.project, sort_ms: st.sort, bin_ms: st.bin, composite_ms: st.composite, visible: st.visible, intersections: st.intersections } : {};
  const line = st ? ` (tile rasterizer: project ${st.project.toFixed(0)} ms, sort ${st.sort.toFixed(0)}, bin ${st.bin.toFixed(0)}, composite ${st.composite.toFixed(0)})` : '';
  return {
    fig: { ...fig, title: `Overdraw: Gaussians the tile rasterizer evaluates per pixel${line}`, legend: { min: 0, max: Math.max(1, map.max), label: "Gaussians evaluated inside their ellipse's row span, up to the 1e-4 stop" }, stats: { ...fig.stats, ...stages } },
    note: null,
  };
}

/** Job 'debug.view': one finished view (figure and PNGs), with the state and maps it computed. */
export function drawView(input: DrawViewInput, ctx: JobContext): DrawViewOutput {
  const { state, fresh } = forwardOf(input, ctx);
  let maps = input.maps;
  let freshMaps = false;
  const needMaps = (): PixelMaps => {
    if (!maps) {
      maps = pixelMaps(state);
      freshMaps = true;
    }
    return maps;
  };
  ctx.progress(1, STAGES, 'drawing the view');
  const { fig, note } = figureOf(input, state, needMaps);
  ctx.progress(2, STAGES, 'encoding PNG');
  const entry: ViewEntry = { fig, note, out: toDebugImage(fig, input.camera, input.k, input.shDegree, note) };
  const out: DrawViewOutput = { entry };
  if (fresh) {
    out.state = state;
    ctx.transfer(state.rgb.buffer, state.alpha.buffer, state.transmittance.buffer, state.lastRank.buffer, state.order.buffer);
  }
  if (freshMaps && maps) {
    out.maps = maps;
    ctx.transfer(maps.count.buffer, maps.firstIndex.buffer, maps.firstDepth.buffer);
  }
  return out;
}

export interface DrawGradientsInput {
  splats: Splats;
  camera: Camera;
  state?: ForwardState;
  /** The target: a task photo, or an uploaded PNG decoded here (uploadedTarget). */
  photo?: RgbImage;
  png?: Uint8Array;
  k: number;
  shDegree: number;
  loss: DebugLoss;
  param: GradientParam;
  arrows: boolean;
  log: boolean;
  /** How the target is named in the title ("photo V0", "uploaded PNG"). */
  against: string;
}

/** Job 'debug.gradients': the loss against the photo and the per-Gaussian gradient figure. */
export function drawGradients(input: DrawGradientsInput, ctx: JobContext): { image: Omit<DebugGradientsResult, 'loss' | 'argmaxId'>; loss: number; argmax: number; state?: ForwardState } {
  const { camera } = input;
  // The target first: a bad upload fails before the forward pass.
  const photo = input.photo ?? uploadedTarget(input.png ?? new Uint8Array(0), camera.width, camera.height);
  const { state, fresh } = forwardOf(input, ctx);
  ctx.progress(1, STAGES, 'backward pass');
  const render: RgbImage = { width: state.width, height: state.height, data: Float32Array.from(state.rgb) };
  const loss = lossWithGrad(input.loss, render, photo);
  const grads = rasterizeBackward(input.splats, camera, { v_rgb: loss.grad }, state);
  ctx.progress(2, STAGES, 'drawing the gradients');
  const fig = gradientFigure(input.splats, camera, state, grads, input.k, { param: input.param, arrows: input.arrows, log: input.log });
  fig.title = `${DEBUG_LOSS_LABELS[input.loss]} = ${loss.value.toPrecision(4)} vs ${input.against}: ${fig.title}`;
  const image = toDebugImage(fig, camera, input.k, input.shDegree);
  return { image, loss: loss.value, argmax: fig.stats.argmax, ...(fresh ? { state } : {}) };
}

export interface DrawPixelInput {
  splats: Splats;
  camera: Camera;
  x: number;
  y: number;
  /** The view the pixel was clicked on, its scale and note, and the state's projection. */
  fig: DebugFigure;
  k: number;
  shDegree: number;
  note: string | null;
  projection: Projection;
}

/** Job 'debug.pixel': the CPU reference's trace of one pixel and the view with it outlined. */
export function drawPixel(input: DrawPixelInput): { trace: PixelTrace; highlight: DebugImage } {
  const { camera, x, y, fig, k } = input;
  const trace = tracePixel(input.splats, camera, x, y, { shDegree: input.shDegree });
  const marked = { ...fig, image: highlight(fig.image, k, input.projection, trace.contributors.map((c) => c.index), { x, y }) };
  marked.title = `${fig.title}; pixel (${x}, ${y}): ${trace.contributors.length} contributors outlined`;
  return { trace, highlight: toDebugImage(marked, camera, k, input.shDegree, input.note) };
}
