// `splatlab render`: renders any scene or splat file from one or more cameras to PNG with the
// lab's rasterizers (GPU, or the CPU). A debugging tool: no scene bounds or Gaussian caps apply to
// captures. --scene takes a scene document or any format the lab reads (src/main/formats; SH bands
// and the antialiased flag kept, the file's own frame unless --up), via loadRenderScene.
// --device gpu renders on whatever WebGPU adapter exists (SwiftShader included) and fails with
// one line when there is none; auto (the default) takes the grader's choice (a hardware GPU, else
// the CPU); the output line always names the rasterizer and the adapter that rendered. On the CPU,
// scenes above TILE_MIN_GAUSSIANS (and every render asked for --timings) use the tile-binned
// rasterizer on a worker pool of this command's own (every core; the dense reference's image,
// parity tested), smaller ones the CPU reference. --timings prints the tile rasterizer's stages.
import { cameraDepth, cameraFromFile } from '../../../shared/camera/spec';
import { AXES, type Axis } from '../../../shared/formats/types';
import { NEAR_PLANE, rasterizeForward } from '../../../shared/raster/cpu';
import type { Camera, RasterOptions, RenderOutput, StageTimings } from '../../../shared/raster/types';
import type { Splats } from '../../../shared/scene/splats';
import { GpuRasterizer } from '../../../shared/raster/gpu';
import { acquireGpu, type GpuContext } from '../../gpu/device';
import { loadShaders } from '../../gpu/shaders';
import { Grader, graderDevice } from '../../grader/grader';
import { loadRenderScene, RenderSceneError } from '../../raster/scene-file';
import { TileRasterPool } from '../../raster/tile-pool';
import { writePng } from '../../io/png';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { readJsonFile } from '../read-json';

/** The cameras of every --camera file: one camera, or a JSON array of cameras, each explicit or an orbit. */
export function readCameras(paths: readonly string[]): Camera[] {
  const out: Camera[] = [];
  for (const path of paths) {
    const json = readJsonFile(path, 'camera file');
    const items = Array.isArray(json) ? json : [json];
    if (items.length === 0) throw new CliError(`camera file ${path}: an empty list`);
    items.forEach((item, i) => {
      const cam = cameraFromFile(item);
      if (!cam.ok) throw new CliError(`camera file ${path}${Array.isArray(json) ? ` [${i}]` : ''}: ${cam.error}`);
      out.push(cam.camera);
    });
  }
  return out;
}

/** Output path of view i of n: the path itself for one view, else {i} filled in or -i before the extension. */
export function viewPath(path: string, i: number, n: number): string {
  if (path.includes('{i}')) return path.replaceAll('{i}', String(i));
  if (n === 1) return path;
  const dot = path.toLowerCase().endsWith('.png') ? path.length - 4 : path.length;
  return `${path.slice(0, dot)}-${i}${path.slice(dot)}`;
}

export function timingsLine(t: StageTimings): string {
  const ms = (x: number): string => `${x.toFixed(1)} ms`;
  const total = t.project + t.sort + t.bin + t.composite;
  return `project ${ms(t.project)}, sort ${ms(t.sort)}, bin ${ms(t.bin)}, composite ${ms(t.composite)} (total ${ms(total)}; ${t.threads} thread${t.threads === 1 ? '' : 's'}, ${t.visible} visible, ${t.intersections} tile intersections)`;
}

export const command: CliCommand = {
  name: 'render',
  usage: `splatlab render --scene FILE --camera C.json [--camera C2.json ...] --out O.png [--coverage A.png]
    [--device auto|gpu|cpu] [--beyond-bounds] [--up AXIS] [--timings]

FILE is a scene document {"gaussians": [...]} with items {pos, scale?, rot?, color, opacity?} (rot:
Euler XYZ degrees or a unit quaternion [w,x,y,z]) or the compact trajectory form {p, s, q, c, o};
or any splat file the lab reads: .ply (INRIA 3DGS or PlayCanvas compressed), .spz, .sog or a SOG
meta.json, .splat. A splat file renders with its SH bands and its antialiased flag, in the file's
own frame; --up AXIS (one of ${AXES.join(' ')}) turns that axis to +Z first (rotation only), as
orbit cameras look at the origin with +Z up. Captures are never clamped (--beyond-bounds implied).
C.json is an explicit camera {width, height, fx, fy, cx, cy, world_to_camera[16] row-major,
OpenCV axes}, an orbit {azimuth, elevation, distance?, fov?, width?, height?} (degrees), or a JSON
array of them; --camera may be given several times. With several views, O.png names view i
O-i.png (or put {i} in the name). --coverage writes the coverage (1 - final transmittance) as a grey
PNG. --device gpu renders on any WebGPU adapter, SwiftShader included; auto (default) uses a
hardware GPU, else the CPU (above 4096 Gaussians the tile-binned rasterizer on every core, the same
image). --timings prints each view's stage times (project, sort, bin, composite) of the CPU tile
rasterizer (--device gpu or auto on a hardware GPU: the whole batch's time). A scene document is
checked and clamped exactly as the environment would (bounds [-1.25, 1.25]^3, scales [0.005, 0.5],
opacity [0.05, 1]); --beyond-bounds renders it as it is (any finite position, any positive scale).`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['scene', 'out', 'coverage', 'device', 'up'], repeat: ['camera'], flags: ['beyond-bounds', 'timings'] });
    const device = stringOption(args, 'device') ?? 'auto';
    if (device !== 'gpu' && device !== 'cpu' && device !== 'auto') throw new CliError("--device must be 'auto', 'gpu' or 'cpu'");
    const upText = stringOption(args, 'up');
    if (upText !== undefined && !(AXES as readonly string[]).includes(upText)) throw new CliError(`--up must be one of ${AXES.join(', ')}`);
    const out = requireOption(args, 'out');
    const scenePath = requireOption(args, 'scene');
    const cameraPaths = args.lists.get('camera') ?? [];
    if (cameraPaths.length === 0) throw new CliError('--camera is required');
    const cameras = readCameras(cameraPaths);
    let scene;
    try {
      scene = await loadRenderScene(scenePath, { up: upText as Axis | undefined, beyondBounds: args.options.has('beyond-bounds') });
    } catch (error) {
      if (error instanceof RenderSceneError) throw new CliError(error.message);
      throw error;
    }
    for (const w of scene.warnings.slice(0, 5)) io.err(`warning: ${w}`);
    if (scene.source !== 'scene') for (const line of scene.lines) io.err(line);
    const { splats } = scene;
    const depths = (cam: Camera): boolean => {
      for (let i = 0; i < splats.count; i++) if (cameraDepth(cam, [splats.means[i * 3], splats.means[i * 3 + 1], splats.means[i * 3 + 2]]) >= NEAR_PLANE) return true;
      return false;
    };
    cameras.forEach((cam, v) => {
      if (splats.count > 0 && !depths(cam)) throw new CliError(`every Gaussian is behind the camera${cameras.length > 1 ? ` (view ${v})` : ''} (camera-space depth below the near plane ${NEAR_PLANE}); check world_to_camera${scene.source === 'scene' ? '' : ' or --up'}`);
    });
    const gpu = await acquireGpu({ forceCpu: device === 'cpu' });
    if (device === 'gpu' && !gpu.device) throw new CliError(`--device gpu: ${gpu.status.summary}`);
    const onCpu = device === 'cpu' || (device === 'auto' && graderDevice(gpu).preferCpu);
    const timings = args.options.has('timings');
    const opts: RasterOptions = { antialiased: scene.antialiased };
    const started = performance.now();
    const { renders, on, stages } =
      !onCpu && gpu.device && (device === 'gpu' || scene.source !== 'scene' || scene.antialiased) ? await renderGpu(gpu.device, splats, cameras, opts, gpu.status.summary)
      : onCpu && (splats.count > TILE_MIN_GAUSSIANS || timings) ? await renderTiles(splats, cameras, opts)
      : onCpu && scene.source !== 'scene' ? renderReference(splats, cameras, opts)
      : await renderGrader(gpu, splats, cameras);
    const seconds = (performance.now() - started) / 1000;
    const coverage = stringOption(args, 'coverage');
    renders.forEach((render, v) => {
      writePng(viewPath(out, v, renders.length), { width: render.width, height: render.height, data: render.rgb });
      if (coverage) writePng(viewPath(coverage, v, renders.length), { width: render.width, height: render.height, channels: 1, data: render.alpha });
    });
    const views = renders.length === 1 ? `at ${renders[0].width}x${renders[0].height}` : `in ${renders.length} views`;
    io.out(`Rendered ${splats.count} Gaussians ${views} on the ${on} to ${renders.length === 1 ? viewPath(out, 0, 1) : out}${coverage ? ` (coverage: ${coverage})` : ''}.`);
    if (timings) {
      if (stages) stages.forEach((t, v) => io.out(`timings${renders.length > 1 ? ` view ${v}` : ''}: ${timingsLine(t)}`));
      else io.out(`timings: ${(seconds * 1000).toFixed(1)} ms for the whole batch (the GPU path is one submission; its stages are not timed apart)`);
    }
    return 0;
  },
};

type Rendered = { renders: RenderOutput[]; on: string; stages?: StageTimings[] };

/** Above this many Gaussians the tile rasterizer's threads beat the dense reference's one loop. */
export const TILE_MIN_GAUSSIANS = 4096;

async function renderTiles(splats: Splats, cameras: Camera[], opts: RasterOptions): Promise<Rendered> {
  const raster = TileRasterPool.create();
  try {
    const renders: RenderOutput[] = [];
    const stages: StageTimings[] = [];
    for (const camera of cameras) renders.push(await raster.render(splats, camera, { ...opts, onTimings: (t) => stages.push(t) }));
    return { renders, stages, on: `CPU tile rasterizer (${raster.workers} worker thread${raster.workers === 1 ? '' : 's'}; the CPU reference's image)` };
  } finally {
    raster.destroy();
  }
}

function renderReference(splats: Splats, cameras: Camera[], opts: RasterOptions): Rendered {
  return { renders: cameras.map((c) => rasterizeForward(splats, c, opts)), on: 'CPU reference rasterizer' };
}

async function renderGpu(device: GPUDevice, splats: Splats, cameras: Camera[], opts: RasterOptions, adapter: string): Promise<Rendered> {
  const raster = GpuRasterizer.create(device, loadShaders());
  try {
    return { renders: await raster.forwardBatch(splats, cameras, opts), on: `GPU rasterizer, ${adapter.replace(/\.$/, '')}` };
  } finally {
    raster.destroy();
  }
}

async function renderGrader(gpu: GpuContext, splats: Splats, cameras: Camera[]): Promise<Rendered> {
  const grader = await Grader.create({ ...graderDevice(gpu), lpipsDir: null });
  try {
    const renders = await grader.renderViews(splats, cameras);
    const on = grader.kind === 'gpu' ? `GPU rasterizer, ${gpu.status.summary.replace(/\.$/, '')}` : `CPU rasterizer (${gpu.status.path === 'cpu' ? gpu.status.summary.replace(/\.$/, '') : `the grader's choice on ${gpu.status.path}`})`;
    return { renders, on };
  } finally {
    grader.destroy();
  }
}
