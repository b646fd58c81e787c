// `splatlab render`: renders any scene file from any camera to PNG with the grader's rasterizer
// (GPU, or the CPU reference). A debugging tool: no scene bounds or Gaussian caps apply.
// --device gpu renders on whatever WebGPU adapter exists (SwiftShader included) and fails with
// one line when there is none; auto (the default) takes the grader's choice (a hardware GPU, else
// the CPU); the output line always names the rasterizer and the adapter that rendered. On the CPU,
// scenes above TILE_MIN_GAUSSIANS render with the tile-binned rasterizer on a worker pool of this
// command's own (every core; the dense reference's image, parity tested), smaller ones with the
// grader's CPU reference.
import { readFileSync } from 'node:fs';
import { cameraDepth, cameraFromFile } from '../../../shared/camera/spec';
import { NEAR_PLANE } from '../../../shared/raster/cpu';
import { packSplats } from '../../../shared/scene/gaussian';
import { parseSceneDocument } from '../../../shared/scene/input';
import { CAPTURE_POLICY, TASK_POLICY } from '../../../shared/scene/policy';
import type { Camera, RenderOutput } from '../../../shared/raster/types';
import type { Splats } from '../../../shared/scene/splats';
import { GpuRasterizer } from '../../../shared/raster/gpu';
import { acquireGpu, type GpuContext } from '../../gpu/device';
import { loadShaders } from '../../gpu/shaders';
import { Grader, graderDevice } from '../../grader/grader';
import { TileRasterPool } from '../../raster/tile-pool';
import { writePng } from '../../io/png';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new CliError(`cannot read the ${what} ${path}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON (${(error as Error).message}); NaN and Infinity are not JSON numbers`);
  }
}

export const command: CliCommand = {
  name: 'render',
  usage: `splatlab render --scene S.json --camera C.json --out O.png [--coverage A.png] [--device auto|gpu|cpu] [--beyond-bounds]

S.json is {"gaussians": [...]} with items {pos, scale?, rot?, color, opacity?} (rot: Euler XYZ
degrees or a unit quaternion [w,x,y,z]) or the compact trajectory form {p, s, q, c, o}.
C.json is an explicit camera {width, height, fx, fy, cx, cy, world_to_camera[16] row-major,
OpenCV axes} or an orbit {azimuth, elevation, distance?, fov?, width?, height?} (degrees).
--coverage writes the coverage (1 - final transmittance) as a grey PNG. --device gpu renders on
any WebGPU adapter, SwiftShader included; auto (default) uses a hardware GPU, else the CPU (above
4096 Gaussians the tile-binned rasterizer on every core, the same image). The scene is checked and
clamped exactly as the environment would (bounds [-1.25, 1.25]^3, scales [0.005, 0.5], opacity
[0.05, 1]); --beyond-bounds renders a capture as it is (any finite position, any positive scale).`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['scene', 'camera', 'out', 'coverage', 'device'], flags: ['beyond-bounds'] });
    const device = stringOption(args, 'device') ?? 'auto';
    if (device !== 'gpu' && device !== 'cpu' && device !== 'auto') throw new CliError("--device must be 'auto', 'gpu' or 'cpu'");
    const out = requireOption(args, 'out');
    const policy = args.options.has('beyond-bounds') ? CAPTURE_POLICY : TASK_POLICY;
    const scene = parseSceneDocument(readJsonFile(requireOption(args, 'scene'), 'scene file'), policy);
    if (!scene.ok) throw new CliError(`scene file: ${scene.errors.slice(0, 3).join('; ')}${scene.errors.length > 3 ? ` (and ${scene.errors.length - 3} more)` : ''}`);
    const cam = cameraFromFile(readJsonFile(requireOption(args, 'camera'), 'camera file'));
    if (!cam.ok) throw new CliError(`camera file: ${cam.error}`);
    const records = scene.records;
    for (const w of scene.warnings.slice(0, 5)) io.err(`warning: ${w}`);
    if (records.length > 0 && records.every((g) => cameraDepth(cam.camera, g.pos) < NEAR_PLANE)) {
      throw new CliError(`every Gaussian is behind the camera (camera-space depth below the near plane ${NEAR_PLANE}); check world_to_camera`);
    }
    const gpu = await acquireGpu({ forceCpu: device === 'cpu' });
    if (device === 'gpu' && !gpu.device) throw new CliError(`--device gpu: ${gpu.status.summary}`);
    const splats = packSplats(records);
    const onCpu = device === 'cpu' || (device === 'auto' && graderDevice(gpu).preferCpu);
    const { render, on } =
      device === 'gpu' && gpu.device ? await renderGpu(gpu.device, splats, cam.camera, gpu.status.summary)
      : onCpu && splats.count > TILE_MIN_GAUSSIANS ? await renderTiles(splats, cam.camera)
      : await renderGrader(gpu, splats, cam.camera);
    writePng(out, { width: render.width, height: render.height, data: render.rgb });
    const coverage = stringOption(args, 'coverage');
    if (coverage) writePng(coverage, { width: render.width, height: render.height, channels: 1, data: render.alpha });
    io.out(`Rendered ${records.length} Gaussians at ${render.width}x${render.height} on the ${on} to ${out}${coverage ? ` (coverage: ${coverage})` : ''}.`);
    return 0;
  },
};

type Rendered = { render: RenderOutput; on: string };

/** Above this many Gaussians the tile rasterizer's threads beat the dense reference's one loop. */
export const TILE_MIN_GAUSSIANS = 4096;

async function renderTiles(splats: Splats, camera: Camera): Promise<Rendered> {
  const raster = TileRasterPool.create();
  try {
    return { render: await raster.render(splats, camera), on: `CPU tile rasterizer (${raster.workers} worker thread${raster.workers === 1 ? '' : 's'}; the CPU reference's image)` };
  } finally {
    raster.destroy();
  }
}

async function renderGpu(device: GPUDevice, splats: Splats, camera: Camera, adapter: string): Promise<Rendered> {
  const raster = GpuRasterizer.create(device, loadShaders());
  try {
    return { render: await raster.forward(splats, camera), on: `GPU rasterizer, ${adapter.replace(/\.$/, '')}` };
  } finally {
    raster.destroy();
  }
}

async function renderGrader(gpu: GpuContext, splats: Splats, camera: Camera): Promise<Rendered> {
  const grader = await Grader.create({ ...graderDevice(gpu), lpipsDir: null });
  try {
    const [render] = await grader.renderViews(splats, [camera]);
    const on = grader.kind === 'gpu' ? `GPU rasterizer, ${gpu.status.summary.replace(/\.$/, '')}` : `CPU rasterizer (${gpu.status.path === 'cpu' ? gpu.status.summary.replace(/\.$/, '') : `the grader's choice on ${gpu.status.path}`})`;
    return { render, on };
  } finally {
    grader.destroy();
  }
}
