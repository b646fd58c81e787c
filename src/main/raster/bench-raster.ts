// `splatlab bench raster`: the lab's tile-binned CPU rasterizer (src/shared/raster/cpu/tiles.ts)
// against the seed-style dense peer, the dense CPU reference rasterizeForwardDense (every pixel
// against every Gaussian in depth order, the literal definition and the shape of the seed's
// PyTorch rasterizer), on the same scene and camera: CPU time of both, the ratio, the lab's
// per-stage CPU times (project, sort, bin, composite) and the largest image difference.
// Inputs: cases (Gaussians, SH degree, image size). Output: RasterBenchCase rows.
// Invariant: the peer runs only where it fits (pixels x Gaussians at most PEER_MAX_WORK); a case
// without it says why; stage times are process CPU time on the calling thread (steady under load).
import { rasterizeForwardDense } from '../../shared/raster/cpu';
import { allocTileFrame, binTilesInOrder, compositeTileRangeFast, depthOrderOfFrame, packTileCamera, projectTileRange, tileInput, type TileFrame } from '../../shared/raster/cpu/tiles';
import type { RenderOutput } from '../../shared/raster/types';
import type { Splats } from '../../shared/scene/splats';
import { roomCamera, roomScene } from './room-scene';

/** Pixel-Gaussian pairs the dense peer may evaluate in one case (about a minute of one core). */
export const PEER_MAX_WORK = 2e9;

export interface RasterBenchSpec {
  gaussians: number;
  degree: 0 | 1 | 2 | 3;
  size: number;
  /** Timed repetitions of the lab's frame after one warm-up (the median is reported). */
  reps?: number;
}

export interface StageCpu {
  project: number;
  sort: number;
  bin: number;
  composite: number;
}

export interface RasterBenchCase {
  scene: string;
  gaussians: number;
  degree: number;
  width: number;
  height: number;
  visible: number;
  intersections: number;
  lab: { name: string; cpuMs: number; wallMs: number; stagesCpuMs: StageCpu; firstCpuMs: number };
  peer: { name: string; cpuMs: number; wallMs: number } | null;
  peerSkipped?: string;
  /** Peer CPU time over the lab's (how many times faster the lab is). */
  ratio: number | null;
  maxAbsDiff: number | null;
}

const cpuNow = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** One lab frame on the calling thread, stage by stage, with each stage's process CPU time. */
function labFrame(splats: Splats, size: number, reuse: { frame?: TileFrame }): { out: RenderOutput; stages: StageCpu; cpu: number; wall: number; visible: number; intersections: number } {
  const camera = roomCamera(size, 0);
  const w0 = performance.now();
  const c0 = cpuNow();
  const input = tileInput(splats);
  // The frame is kept from frame to frame, as TileRasterPool keeps its own (the first frame allocates it).
  const f = (reuse.frame ??= allocTileFrame(input, camera.width, camera.height));
  projectTileRange(input, packTileCamera(camera), 0, input.count, f);
  const c1 = cpuNow();
  const order = depthOrderOfFrame(f);
  const c2 = cpuNow();
  const bins = binTilesInOrder(f, order);
  const c3 = cpuNow();
  const rgb = new Float32Array(camera.width * camera.height * 3);
  const alpha = new Float32Array(camera.width * camera.height);
  compositeTileRangeFast(f, bins, 0, f.tilesX * f.tilesY, rgb, alpha);
  const c4 = cpuNow();
  return {
    out: { width: camera.width, height: camera.height, rgb, alpha },
    stages: { project: c1 - c0, sort: c2 - c1, bin: c3 - c2, composite: c4 - c3 },
    cpu: c4 - c0,
    wall: performance.now() - w0,
    visible: order.length,
    intersections: bins.ids.length,
  };
}

function maxDiff(a: RenderOutput, b: RenderOutput): number {
  let d = 0;
  for (let i = 0; i < a.rgb.length; i++) d = Math.max(d, Math.abs(a.rgb[i] - b.rgb[i]));
  for (let i = 0; i < a.alpha.length; i++) d = Math.max(d, Math.abs(a.alpha[i] - b.alpha[i]));
  return d;
}

export function runRasterCase(spec: RasterBenchSpec): RasterBenchCase {
  const splats = roomScene(spec.gaussians, spec.degree);
  const reuse: { frame?: TileFrame } = {};
  const first = labFrame(splats, spec.size, reuse);
  const runs = Array.from({ length: Math.max(1, spec.reps ?? 3) }, () => labFrame(splats, spec.size, reuse));
  const pick = runs.find((r) => r.cpu === median(runs.map((x) => x.cpu))) ?? runs[0];
  const work = spec.size * spec.size * spec.gaussians;
  let peer: RasterBenchCase['peer'] = null;
  let peerSkipped: string | undefined;
  let maxAbsDiff: number | null = null;
  if (work <= PEER_MAX_WORK) {
    const w0 = performance.now();
    const c0 = cpuNow();
    const ref = rasterizeForwardDense(splats, roomCamera(spec.size, 0));
    peer = { name: 'dense CPU reference (rasterizeForwardDense: every pixel x every Gaussian)', cpuMs: cpuNow() - c0, wallMs: performance.now() - w0 };
    maxAbsDiff = maxDiff(first.out, ref);
  } else {
    peerSkipped = `the dense peer would evaluate ${work.toExponential(2)} pixel-Gaussian pairs (over ${PEER_MAX_WORK.toExponential(0)})`;
  }
  return {
    scene: 'synthetic room (src/main/raster/room-scene.ts), camera at the centre, 90 deg',
    gaussians: spec.gaussians,
    degree: spec.degree,
    width: spec.size,
    height: spec.size,
    visible: pick.visible,
    intersections: pick.intersections,
    lab: { name: 'CPU tile rasterizer, calling thread (median of reps)', cpuMs: pick.cpu, wallMs: pick.wall, stagesCpuMs: pick.stages, firstCpuMs: first.cpu },
    peer,
    ...(peerSkipped ? { peerSkipped } : {}),
    ratio: peer ? peer.cpuMs / Math.max(1e-3, pick.cpu) : null,
    maxAbsDiff,
  };
}
